// Pieces shared by the collective algorithms: tags, rank arithmetic, argument checks and the
// posting steps that composed collectives reuse (allreduce reduce_bcast = reduce + bcast,
// allgather gather_bcast = gatherv + bcast, reduce_scatter = reduce + scatterv). The post_*
// functions only append operations to a call that is already open (begin_call ... end_call).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "netwarp/mpiemul/collectives.hpp"
#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul::collectives {

// The tag of one phase of one collective kind: every kind has its own range of 256 tags, so a
// message of one collective can never match a receive of another kind on kCommCollective.
// Phases number rounds (dissemination, recursive doubling, Bruck) or the parts of a composed
// collective.
constexpr std::int32_t collective_tag(CallKind kind, int phase) {
  return (static_cast<std::int32_t>(kind) << 8) | phase;
}

bool is_power_of_two(RankId n);
RankId floor_power_of_two(RankId n);  // the largest power of two <= n; n >= 1
int ceil_log2(RankId n);              // rounds of a doubling algorithm on n ranks; 0 for n = 1
RankId square_side(RankId n);         // s with s * s == n, or 0 when n is not a square

RankId ring_add(RankId rank, RankId offset, RankId size);  // (rank + offset) mod size
RankId ring_sub(RankId rank, RankId offset, RankId size);  // (rank - offset) mod size

// Throws std::invalid_argument naming the collective when the arguments do not fit the size.
void check_root(std::string_view collective, RankId root, RankId size);
void check_counts(std::string_view collective, std::span<const std::uint64_t> counts, RankId size);
void check_alltoall(AlltoallAlgorithm algorithm, RankId size);

std::vector<std::uint64_t> uniform_counts(RankId size, std::uint64_t bytes);
std::uint64_t total(std::span<const std::uint64_t> counts);

// One step of a pairwise exchange: irecv, isend, wait for both, so two ranks that exchange
// with each other cannot deadlock even when sends are synchronous.
void post_exchange(RankProgramBuilder& b, RankId dst, std::uint64_t send_bytes, RankId src,
                   std::uint64_t recv_bytes, std::int32_t tag);

void post_bcast(RankProgramBuilder& b, BcastAlgorithm algorithm, RankId root, std::uint64_t bytes,
                std::int32_t tag);
void post_reduce(RankProgramBuilder& b, ReduceAlgorithm algorithm, RankId root, std::uint64_t bytes,
                 std::int32_t tag);
void post_gatherv(RankProgramBuilder& b, GatherAlgorithm algorithm, RankId root,
                  std::span<const std::uint64_t> counts, std::int32_t tag);
void post_scatterv(RankProgramBuilder& b, GatherAlgorithm algorithm, RankId root,
                   std::span<const std::uint64_t> counts, std::int32_t tag);

}  // namespace netwarp::mpiemul::collectives
