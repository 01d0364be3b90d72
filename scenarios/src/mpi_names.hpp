// The scenario's names of collective algorithms and kernels, parsed into mpi-emul's enums.
#pragma once

#include <cstdint>
#include <string>

#include "netwarp/mpiemul/collectives.hpp"
#include "netwarp/mpiemul/kernels.hpp"
#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

using RankCount = std::uint32_t;

enum class CollectiveFamily { bcast, reduce, allreduce, alltoall, barrier, gather, allgather };

// Throws std::invalid_argument if `name` is not an algorithm of `family` (listing the known
// ones) or cannot run on `ranks` ranks.
void check_algorithm_name(CollectiveFamily family, const std::string& name, RankCount ranks);
mpiemul::AlltoallAlgorithm alltoall_algorithm(const std::string& name);
// The algorithms of a validated MpiCollectives.
mpiemul::CollectiveAlgorithms collective_algorithms(const proto::MpiCollectives& c);

bool is_collective_kernel_kind(const std::string& name);
mpiemul::CollectiveKind collective_kernel_kind(const std::string& name);

}  // namespace netwarp::scenarios
