// mpi.collectives.selection OPENMPI_TUNED: the algorithm of each collective call chosen by
// communicator size and message size as Open MPI's coll/tuned component does without a rules
// file (its "fixed" decision functions).
//
// Source: ompi/mca/coll/tuned/coll_tuned_decision_fixed.c of github.com/open-mpi/ompi at commit
// 8efebee745e15516a7f5f1f295df86c78014c76c (main, 2026-08-21, the rules of Open MPI 5.0.x;
// the tables were measured by the Open MPI developers in 2019-2020 and have not changed since).
// Each table below is one decision function, read top to bottom: the first rule whose
// communicator size and byte count are both below its bounds gives Open MPI's algorithm number
// (the numbers of its coll_tuned_<collective>_algorithms enumerations). "communicator_size ==
// 2" rows are bounded by size < 3 (a communicator of 1 rank sends nothing either way). Bytes
// are Open MPI's total_dsize: the whole buffer for bcast, reduce and allreduce; one rank's
// block for alltoall, allgather, gather and scatter, as netwarp's `bytes` of these calls.
// Reductions take Open MPI's commutative-operation branch (traces and generators do not name
// the operation; MPI_SUM and friends are commutative).
//
// netwarp lacks segmented and pipelined trees and some exchanges; openmpi_tuned_choice says
// which netwarp algorithm stands in for each (`stand_in`), chosen by message pattern:
//   bcast: basic_linear -> linear; binomial -> binomial; chain, pipeline, split_binary_tree,
//     binary_tree, knomial, scatter_allgather(_ring) -> binomial (a tree of log2 P depth).
//   reduce: linear -> linear; binomial -> binomial; chain, pipeline, binary, in-order binary,
//     rabenseifner -> binomial.
//   allreduce: recursive_doubling -> recursive_doubling; ring -> ring; segmented_ring,
//     rabenseifner (reduce-scatter + allgather, bandwidth-optimal) -> ring; basic_linear,
//     nonoverlapping (reduce then bcast) -> reduce_bcast.
//   alltoall: pairwise and two_proc -> pairwise on power-of-two sizes, else simple_spread (the
//     same (r + i, r - i) exchange schedule Open MPI's pairwise uses); modified_bruck -> bruck;
//     linear and linear_sync (all requests posted at once / in a window) -> algorithm_a on
//     power-of-two sizes, else simple_spread.
//   barrier: linear -> linear; recursive_doubling, bruck (the dissemination barrier),
//     double_ring, two_proc, tree -> dissemination.
//   allgather: ring -> ring; recursive_doubling -> recursive_doubling; bruck, neighbor,
//     two_proc -> recursive_doubling (bruck: log rounds) or ring (neighbor exchange: P/2 steps
//     to neighbours); linear -> gather_bcast.
//   gather, scatter: basic_linear, linear_sync, linear_nb -> linear; binomial -> binomial.
//   alltoallv (ompi_coll_tuned_alltoallv_intra_dec_fixed, by communicator size only):
//     basic_linear -> netwarp's linear alltoallv (every request at once); pairwise -> its
//     pairwise alltoallv (the same exchange steps).
//   allgatherv (bytes: the mean block, Open MPI's per_rank_dsize = total / P): default
//     (coll/basic's linear gatherv to rank 0, then the tuned bcast of all blocks) ->
//     gather_bcast with a linear gatherv and the bcast chosen for P x the mean block; ring -> ring;
//     bruck -> recursive_doubling on power-of-two sizes, else ring; neighbor, two_proc -> ring.
//   gatherv, scatterv: coll/tuned has no decision (its module leaves coll_gatherv and
//     coll_scatterv NULL, coll_tuned_module.c), so Open MPI runs coll/basic's linear
//     gatherv/scatterv: netwarp's linear.
// reduce_scatter keeps the configured algorithms of its parts: netwarp has only Open MPI's
// non-overlapping form (reduce to rank 0, then scatterv), not its recursive halving, ring or
// butterfly, so choosing among those would change nothing that runs.
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>

#include "collectives/collective_support.hpp"
#include "netwarp/mpiemul/collectives.hpp"

namespace netwarp::mpiemul {

namespace {

constexpr RankId kAnySize = std::numeric_limits<RankId>::max();
constexpr std::uint64_t kAnyBytes = std::numeric_limits<std::uint64_t>::max();

struct Rule {
  RankId size_below;
  std::uint64_t bytes_below;
  std::uint8_t algorithm;  // Open MPI's number
};

// clang-format off
constexpr Rule kAllreduceRules[] = {
    {4, 8, 4},
    {4, 4096, 3},
    {4, 8192, 4},
    {4, 16384, 3},
    {4, 65536, 4},
    {4, 262144, 5},
    {4, kAnyBytes, 6},
    {8, 16, 4},
    {8, 8192, 3},
    {8, kAnyBytes, 6},
    {16, 8192, 3},
    {16, kAnyBytes, 6},
    {32, 64, 5},
    {32, 4096, 3},
    {32, kAnyBytes, 6},
    {64, 128, 5},
    {64, kAnyBytes, 6},
    {128, 262144, 3},
    {128, kAnyBytes, 6},
    {256, 131072, 2},
    {256, 262144, 3},
    {256, kAnyBytes, 6},
    {512, 4096, 2},
    {512, kAnyBytes, 6},
    {2048, 2048, 2},
    {2048, 16384, 3},
    {2048, kAnyBytes, 6},
    {4096, 2048, 2},
    {4096, 4096, 5},
    {4096, 16384, 3},
    {4096, kAnyBytes, 6},
    {kAnySize, 2048, 2},
    {kAnySize, 16384, 5},
    {kAnySize, 32768, 3},
    {kAnySize, kAnyBytes, 6},
};
constexpr Rule kAlltoallRules[] = {
    {3, 2, 2},
    {3, 4, 5},
    {3, 16, 2},
    {3, 64, 5},
    {3, 256, 2},
    {3, 4096, 5},
    {3, 32768, 2},
    {3, 262144, 4},
    {3, 1048576, 5},
    {3, kAnyBytes, 2},
    {8, 8192, 4},
    {8, 16384, 1},
    {8, 65536, 4},
    {8, 524288, 1},
    {8, 1048576, 2},
    {8, kAnyBytes, 1},
    {16, 262144, 4},
    {16, kAnyBytes, 1},
    {32, 4, 4},
    {32, 512, 3},
    {32, 8192, 4},
    {32, 32768, 1},
    {32, 262144, 4},
    {32, 524288, 1},
    {32, kAnyBytes, 4},
    {64, 512, 3},
    {64, 524288, 1},
    {64, kAnyBytes, 4},
    {128, 1024, 3},
    {128, 2048, 1},
    {128, 4096, 4},
    {128, 262144, 1},
    {128, kAnyBytes, 2},
    {256, 1024, 3},
    {256, 2048, 4},
    {256, 262144, 1},
    {256, kAnyBytes, 2},
    {512, 1024, 3},
    {512, 8192, 4},
    {512, 32768, 1},
    {512, kAnyBytes, 2},
    {1024, 512, 3},
    {1024, 8192, 4},
    {1024, 16384, 1},
    {1024, 131072, 4},
    {1024, 262144, 1},
    {1024, kAnyBytes, 2},
    {2048, 512, 3},
    {2048, 1024, 4},
    {2048, 2048, 1},
    {2048, 16384, 4},
    {2048, 262144, 1},
    {2048, kAnyBytes, 4},
    {4096, 1024, 3},
    {4096, 4096, 4},
    {4096, 8192, 1},
    {4096, 131072, 4},
    {4096, kAnyBytes, 1},
    {kAnySize, 2048, 3},
    {kAnySize, 8192, 4},
    {kAnySize, 16384, 1},
    {kAnySize, 32768, 4},
    {kAnySize, 65536, 1},
    {kAnySize, kAnyBytes, 4},
};
constexpr Rule kBarrierRules[] = {
    {4, kAnyBytes, 3},
    {8, kAnyBytes, 1},
    {64, kAnyBytes, 3},
    {256, kAnyBytes, 4},
    {512, kAnyBytes, 6},
    {1024, kAnyBytes, 4},
    {4096, kAnyBytes, 6},
    {kAnySize, kAnyBytes, 4},
};
constexpr Rule kBcastRules[] = {
    {4, 32, 3},
    {4, 256, 5},
    {4, 512, 3},
    {4, 1024, 7},
    {4, 32768, 1},
    {4, 131072, 5},
    {4, 262144, 2},
    {4, 524288, 1},
    {4, 1048576, 6},
    {4, kAnyBytes, 5},
    {8, 64, 5},
    {8, 128, 6},
    {8, 2048, 5},
    {8, 8192, 6},
    {8, 1048576, 1},
    {8, kAnyBytes, 2},
    {16, 8, 7},
    {16, 64, 5},
    {16, 4096, 7},
    {16, 16384, 5},
    {16, 32768, 6},
    {16, kAnyBytes, 1},
    {32, 4096, 7},
    {32, 1048576, 6},
    {32, kAnyBytes, 8},
    {64, 2048, 6},
    {64, kAnyBytes, 7},
    {128, kAnyBytes, 7},
    {256, 2, 6},
    {256, 16384, 5},
    {256, 32768, 1},
    {256, 65536, 5},
    {256, kAnyBytes, 7},
    {1024, 16384, 7},
    {1024, 32768, 4},
    {1024, kAnyBytes, 7},
    {2048, 524288, 7},
    {2048, kAnyBytes, 8},
    {4096, 262144, 7},
    {4096, kAnyBytes, 8},
    {kAnySize, 8192, 7},
    {kAnySize, 16384, 5},
    {kAnySize, 262144, 7},
    {kAnySize, kAnyBytes, 8},
};
constexpr Rule kReduceRules[] = {
    {4, 8, 7},
    {4, 16, 4},
    {4, 32, 3},
    {4, 262144, 1},
    {4, 524288, 3},
    {4, 1048576, 2},
    {4, kAnyBytes, 3},
    {8, 4096, 4},
    {8, 65536, 2},
    {8, 262144, 5},
    {8, 524288, 1},
    {8, 1048576, 5},
    {8, kAnyBytes, 1},
    {16, 8192, 4},
    {16, kAnyBytes, 5},
    {32, 4096, 4},
    {32, kAnyBytes, 5},
    {256, kAnyBytes, 5},
    {512, 8192, 5},
    {512, 16384, 6},
    {512, kAnyBytes, 5},
    {2048, kAnyBytes, 5},
    {4096, 512, 5},
    {4096, 1024, 6},
    {4096, 8192, 5},
    {4096, 16384, 6},
    {4096, kAnyBytes, 5},
    {kAnySize, 16, 5},
    {kAnySize, 32, 6},
    {kAnySize, 1024, 5},
    {kAnySize, 2048, 6},
    {kAnySize, 8192, 5},
    {kAnySize, 16384, 6},
    {kAnySize, kAnyBytes, 5},
};
constexpr Rule kAllgatherRules[] = {
    {3, kAnyBytes, 6},
    {32, kAnyBytes, 3},
    {64, 1024, 3},
    {64, 65536, 5},
    {64, kAnyBytes, 4},
    {128, 512, 3},
    {128, 65536, 5},
    {128, kAnyBytes, 4},
    {256, 512, 3},
    {256, 131072, 5},
    {256, 524288, 4},
    {256, 1048576, 5},
    {256, kAnyBytes, 4},
    {512, 32, 3},
    {512, 128, 2},
    {512, 1024, 3},
    {512, 131072, 5},
    {512, 524288, 4},
    {512, 1048576, 5},
    {512, kAnyBytes, 4},
    {1024, 64, 3},
    {1024, 256, 2},
    {1024, 2048, 3},
    {1024, kAnyBytes, 5},
    {2048, 4, 3},
    {2048, 8, 2},
    {2048, 16, 3},
    {2048, 32, 2},
    {2048, 256, 3},
    {2048, 512, 2},
    {2048, 4096, 3},
    {2048, kAnyBytes, 5},
    {4096, 32, 2},
    {4096, 128, 3},
    {4096, 512, 2},
    {4096, 4096, 3},
    {4096, kAnyBytes, 5},
    {kAnySize, 2, 3},
    {kAnySize, 8, 2},
    {kAnySize, 16, 3},
    {kAnySize, 512, 2},
    {kAnySize, 4096, 3},
    {kAnySize, kAnyBytes, 5},
};
constexpr Rule kGatherRules[] = {
    {4, 2, 3},
    {4, 4, 1},
    {4, 32768, 2},
    {4, 65536, 1},
    {4, 131072, 2},
    {4, kAnyBytes, 3},
    {8, 1024, 2},
    {8, 8192, 1},
    {8, 32768, 2},
    {8, 262144, 1},
    {8, kAnyBytes, 3},
    {256, kAnyBytes, 2},
    {512, 2048, 2},
    {512, 8192, 1},
    {512, kAnyBytes, 2},
    {kAnySize, kAnyBytes, 2},
};
constexpr Rule kScatterRules[] = {
    {4, 2, 3},
    {4, 131072, 1},
    {4, 262144, 3},
    {4, kAnyBytes, 1},
    {8, 2048, 2},
    {8, 4096, 1},
    {8, 8192, 2},
    {8, 32768, 1},
    {8, 1048576, 3},
    {8, kAnyBytes, 1},
    {16, 16384, 2},
    {16, 1048576, 3},
    {16, kAnyBytes, 1},
    {32, 16384, 2},
    {32, 32768, 1},
    {32, kAnyBytes, 3},
    {64, 512, 2},
    {64, 8192, 3},
    {64, 16384, 2},
    {64, kAnyBytes, 3},
    {kAnySize, 512, 2},
    {kAnySize, kAnyBytes, 3},
};
// clang-format on

// clang-format off
constexpr Rule kAlltoallvRules[] = {  // by communicator size only
    {4, kAnyBytes, 2}, {64, kAnyBytes, 1}, {128, kAnyBytes, 2}, {256, kAnyBytes, 1},
    {1024, kAnyBytes, 2}, {kAnySize, kAnyBytes, 1},
};
// clang-format on

// clang-format off
constexpr Rule kAllgathervRules[] = {
    {3, 2048, 3}, {3, 4096, 5}, {3, 8192, 3}, {3, kAnyBytes, 5},
    {8, 256, 1}, {8, 4096, 4}, {8, 8192, 3}, {8, 16384, 4}, {8, 262144, 2}, {8, kAnyBytes, 4},
    {16, 1024, 1}, {16, kAnyBytes, 2},
    {32, 128, 1}, {32, 262144, 2}, {32, kAnyBytes, 3},
    {64, 256, 1}, {64, 8192, 2}, {64, kAnyBytes, 3},
    {128, 256, 1}, {128, 4096, 2}, {128, kAnyBytes, 3},
    {256, 1024, 2}, {256, 65536, 4}, {256, kAnyBytes, 3},
    {512, 1024, 2}, {512, kAnyBytes, 3},
    {1024, 512, 2}, {1024, 1024, 1}, {1024, 4096, 2}, {1024, 1048576, 4}, {1024, kAnyBytes, 3},
    {kAnySize, 4096, 2}, {kAnySize, kAnyBytes, 4},
};
// clang-format on

std::uint8_t decide(std::span<const Rule> rules, RankId size, std::uint64_t bytes) {
  for (const Rule& r : rules)
    if ((r.size_below == kAnySize || size < r.size_below) &&
        (r.bytes_below == kAnyBytes || bytes < r.bytes_below))
      return r.algorithm;
  throw std::logic_error("Open MPI decision table without a final rule");
}

constexpr std::string_view kBcastNames[] = {"",
                                            "basic_linear",
                                            "chain",
                                            "pipeline",
                                            "split_binary_tree",
                                            "binary_tree",
                                            "binomial",
                                            "knomial",
                                            "scatter_allgather",
                                            "scatter_allgather_ring"};
constexpr std::string_view kReduceNames[] = {
    "", "linear", "chain", "pipeline", "binary", "binomial", "in-order_binary", "rabenseifner"};
constexpr std::string_view kAllreduceNames[] = {
    "",     "basic_linear",   "nonoverlapping", "recursive_doubling",
    "ring", "segmented_ring", "rabenseifner"};
constexpr std::string_view kAlltoallNames[] = {
    "", "linear", "pairwise", "modified_bruck", "linear_sync", "two_proc"};
constexpr std::string_view kBarrierNames[] = {
    "", "linear", "double_ring", "recursive_doubling", "bruck", "two_proc", "tree"};
constexpr std::string_view kAllgatherNames[] = {"",     "linear",   "bruck",   "recursive_doubling",
                                                "ring", "neighbor", "two_proc"};
constexpr std::string_view kAllgathervNames[] = {"",     "default",  "bruck",
                                                 "ring", "neighbor", "two_proc"};
constexpr std::string_view kAlltoallvNames[] = {"", "basic_linear", "pairwise"};
constexpr std::string_view kGatherNames[] = {"", "basic_linear", "binomial", "linear_sync"};
constexpr std::string_view kScatterNames[] = {"", "basic_linear", "binomial", "linear_nb"};

OpenMpiChoice bcast_choice(std::uint8_t alg) {
  const bool linear = alg == 1;
  return {alg, kBcastNames[alg], linear ? "linear" : "binomial", !(linear || alg == 6)};
}

OpenMpiChoice reduce_choice(std::uint8_t alg) {
  const bool linear = alg == 1;
  return {alg, kReduceNames[alg], linear ? "linear" : "binomial", !(linear || alg == 5)};
}

OpenMpiChoice allreduce_choice(std::uint8_t alg) {
  if (alg == 3) return {alg, kAllreduceNames[alg], "recursive_doubling", false};
  if (alg >= 4) return {alg, kAllreduceNames[alg], "ring", alg != 4};
  return {alg, kAllreduceNames[alg], "reduce_bcast", alg == 1};
}

OpenMpiChoice alltoall_choice(std::uint8_t alg, RankId size) {
  const bool pow2 = collectives::is_power_of_two(size);
  if (alg == 3) return {alg, kAlltoallNames[alg], "bruck", false};
  if (alg == 2 || alg == 5)
    return {alg, kAlltoallNames[alg], pow2 ? "pairwise" : "simple_spread", pow2};
  return {alg, kAlltoallNames[alg], pow2 ? "algorithm_a" : "simple_spread", true};
}

OpenMpiChoice barrier_choice(std::uint8_t alg) {
  if (alg == 1) return {alg, kBarrierNames[alg], "linear", false};
  return {alg, kBarrierNames[alg], "dissemination", alg != 4};
}

OpenMpiChoice allgather_choice(std::uint8_t alg, RankId size) {
  const bool pow2 = collectives::is_power_of_two(size);
  switch (alg) {
    case 1:
      return {alg, kAllgatherNames[alg], "gather_bcast", true};
    case 2:
    case 3:
      return {alg, kAllgatherNames[alg], pow2 ? "recursive_doubling" : "ring", alg != 3 || !pow2};
    default:
      return {alg, kAllgatherNames[alg], "ring", alg != 4};
  }
}

OpenMpiChoice gather_choice(std::uint8_t alg, std::span<const std::string_view> names) {
  const bool binomial = alg == 2;
  return {alg, names[alg], binomial ? "binomial" : "linear", alg == 3};
}

OpenMpiChoice allgatherv_choice(std::uint8_t alg, RankId size) {
  const bool pow2 = collectives::is_power_of_two(size);
  switch (alg) {
    case 1:
      return {alg, kAllgathervNames[alg], "gather_bcast", false};
    case 2:
      return {alg, kAllgathervNames[alg], pow2 ? "recursive_doubling" : "ring", true};
    default:
      return {alg, kAllgathervNames[alg], "ring", alg != 3};
  }
}

OpenMpiChoice alltoallv_choice(std::uint8_t alg) {
  return {alg, kAlltoallvNames[alg], alg == 1 ? "linear" : "pairwise", false};
}

// coll/basic's linear gatherv and scatterv (coll/tuned does not decide them).
constexpr OpenMpiChoice kBasicLinearV{1, "basic_linear", "linear", false};

}  // namespace

OpenMpiChoice openmpi_tuned_choice(CallKind kind, RankId comm_size, std::uint64_t bytes) {
  switch (kind) {
    case CallKind::bcast:
    case CallKind::ibcast:
      return bcast_choice(decide(kBcastRules, comm_size, bytes));
    case CallKind::reduce:
      return reduce_choice(decide(kReduceRules, comm_size, bytes));
    case CallKind::allreduce:
    case CallKind::iallreduce:
      return allreduce_choice(decide(kAllreduceRules, comm_size, bytes));
    case CallKind::alltoall:
    case CallKind::ialltoall:
      return alltoall_choice(decide(kAlltoallRules, comm_size, bytes), comm_size);
    case CallKind::barrier:
    case CallKind::ibarrier:
      return barrier_choice(decide(kBarrierRules, comm_size, 0));
    case CallKind::allgather:
      return allgather_choice(decide(kAllgatherRules, comm_size, bytes), comm_size);
    case CallKind::gather:
      return gather_choice(decide(kGatherRules, comm_size, bytes), kGatherNames);
    case CallKind::scatter:
      return gather_choice(decide(kScatterRules, comm_size, bytes), kScatterNames);
    case CallKind::alltoallv:
      return alltoallv_choice(decide(kAlltoallvRules, comm_size, bytes));
    case CallKind::allgatherv:
      return allgatherv_choice(decide(kAllgathervRules, comm_size, bytes), comm_size);
    case CallKind::gatherv:
    case CallKind::scatterv:
      return kBasicLinearV;
    default:
      throw std::invalid_argument("Open MPI's tuned rules do not cover " +
                                  std::string(call_kind_name(kind)));
  }
}

namespace {
template <typename Enum, std::size_t N>
Enum by_name(std::string_view name, const Enum (&values)[N]) {
  for (Enum v : values)
    if (algorithm_name(v) == name) return v;
  throw std::logic_error("no netwarp algorithm named " + std::string(name));
}
}  // namespace

CollectiveAlgorithms algorithms_for(const CollectiveAlgorithms& a, CallKind kind, RankId comm_size,
                                    std::uint64_t bytes) {
  if (a.selection != CollectiveSelection::openmpi_tuned) return a;
  CollectiveAlgorithms chosen = a;
  const auto name = [&] { return openmpi_tuned_choice(kind, comm_size, bytes).netwarp_name; };
  switch (kind) {
    case CallKind::bcast:
    case CallKind::ibcast:
      chosen.bcast = by_name(name(), {BcastAlgorithm::binomial, BcastAlgorithm::linear});
      break;
    case CallKind::reduce:
      chosen.reduce = by_name(name(), {ReduceAlgorithm::binomial, ReduceAlgorithm::linear});
      break;
    case CallKind::allreduce:
    case CallKind::iallreduce:
      chosen.allreduce =
          by_name(name(), {AllreduceAlgorithm::recursive_doubling, AllreduceAlgorithm::ring,
                           AllreduceAlgorithm::reduce_bcast});
      break;
    case CallKind::alltoall:
    case CallKind::ialltoall:
      chosen.alltoall =
          by_name(name(), {AlltoallAlgorithm::algorithm_a, AlltoallAlgorithm::pairwise,
                           AlltoallAlgorithm::simple_spread, AlltoallAlgorithm::bruck});
      break;
    case CallKind::barrier:
    case CallKind::ibarrier:
      chosen.barrier = by_name(name(), {BarrierAlgorithm::dissemination, BarrierAlgorithm::linear});
      break;
    case CallKind::allgatherv:
      // Open MPI's default allgatherv is coll/basic's linear gatherv to rank 0, then the tuned
      // bcast of all blocks.
      chosen.gather = GatherAlgorithm::linear;
      chosen.bcast = algorithms_for(a, CallKind::bcast, comm_size, bytes * comm_size).bcast;
      [[fallthrough]];
    case CallKind::allgather:
      chosen.allgather =
          by_name(name(), {AllgatherAlgorithm::ring, AllgatherAlgorithm::recursive_doubling,
                           AllgatherAlgorithm::gather_bcast});
      break;
    case CallKind::gather:
    case CallKind::scatter:
    case CallKind::gatherv:
    case CallKind::scatterv:
      chosen.gather = by_name(name(), {GatherAlgorithm::linear, GatherAlgorithm::binomial});
      break;
    case CallKind::alltoallv:
      chosen.alltoallv =
          name() == "linear" ? AlltoallvAlgorithm::linear : AlltoallvAlgorithm::pairwise;
      break;
    default:
      break;
  }
  return chosen;
}

}  // namespace netwarp::mpiemul
