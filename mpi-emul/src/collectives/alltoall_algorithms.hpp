// The alltoall algorithms, each posting one rank's operations into an open alltoall call.
// `bytes` is the block each rank sends to each other rank; the block a rank keeps for itself is
// a local copy and sends no message.
#pragma once

#include <cstdint>

#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul::collectives {

void post_alltoall_a(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag);
void post_alltoall_b(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag);
void post_alltoall_pairwise(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag);
void post_alltoall_simple_spread(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag);
void post_alltoall_spread_2d(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag);
void post_alltoall_bruck(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag);

}  // namespace netwarp::mpiemul::collectives
