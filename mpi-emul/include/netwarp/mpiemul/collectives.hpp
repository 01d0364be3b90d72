// Collective algorithms: each expands one collective call of one rank into point-to-point
// operations on a RankProgramBuilder (begin_call ... end_call). Every rank of the
// communicator must make the same collective calls in the same order with the same
// arguments, as in MPI. The algorithms are documented where they are implemented
// (src/collectives/).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul {

enum class BcastAlgorithm : std::uint8_t { binomial, linear };
enum class ReduceAlgorithm : std::uint8_t { binomial, linear };
enum class AllreduceAlgorithm : std::uint8_t { recursive_doubling, ring, reduce_bcast };
// algorithm_a / algorithm_b: seed 002 Figs. 6-7 (see docs/models/mpi-protocols.md);
// pairwise: step i exchanges with rank ^ i (power-of-two sizes); simple_spread: step i sends
// to rank + i and receives from rank - i; spread_2d: simple spread per dimension of an n x n
// grid (square sizes); bruck: log2 rounds of combined blocks.
enum class AlltoallAlgorithm : std::uint8_t {
  algorithm_a,
  algorithm_b,
  pairwise,
  simple_spread,
  spread_2d,
  bruck
};
enum class BarrierAlgorithm : std::uint8_t { dissemination, linear };
enum class GatherAlgorithm : std::uint8_t { linear, binomial };  // also scatter
enum class AllgatherAlgorithm : std::uint8_t { ring, recursive_doubling, gather_bcast };
// pairwise: P - 1 exchange steps (alltoallv.cpp); linear: every receive and send posted at once,
// one waitall (Open MPI's basic_linear; only OPENMPI_TUNED chooses it).
enum class AlltoallvAlgorithm : std::uint8_t { pairwise, linear };

// fixed: every call of a collective uses the algorithm below; openmpi_tuned: each call's
// algorithm is chosen by communicator size and message size as Open MPI's coll/tuned fixed
// decision rules do (src/collectives/openmpi_tuned.cpp: the rules, their source, stand-ins).
enum class CollectiveSelection : std::uint8_t { fixed, openmpi_tuned };

struct CollectiveAlgorithms {
  BcastAlgorithm bcast = BcastAlgorithm::binomial;
  ReduceAlgorithm reduce = ReduceAlgorithm::binomial;
  AllreduceAlgorithm allreduce = AllreduceAlgorithm::recursive_doubling;
  AlltoallAlgorithm alltoall = AlltoallAlgorithm::pairwise;
  BarrierAlgorithm barrier = BarrierAlgorithm::dissemination;
  GatherAlgorithm gather = GatherAlgorithm::binomial;
  AllgatherAlgorithm allgather = AllgatherAlgorithm::ring;
  AlltoallvAlgorithm alltoallv = AlltoallvAlgorithm::pairwise;
  CollectiveSelection selection = CollectiveSelection::fixed;
};

// Open MPI's choice for one call: its algorithm number and name (coll_tuned enumerations), the
// netwarp algorithm that runs it, and whether that is a stand-in (netwarp lacks Open MPI's).
struct OpenMpiChoice {
  std::uint8_t ompi_algorithm = 0;
  std::string_view ompi_name;
  std::string_view netwarp_name;
  bool stand_in = false;
};
// For bcast, reduce, allreduce, alltoall, barrier, allgather, gather, scatter, their
// non-blocking forms, alltoallv, allgatherv (bytes: the mean block), gatherv and scatterv; `bytes`
// as the add_* functions take it. Throws std::invalid_argument for other kinds.
OpenMpiChoice openmpi_tuned_choice(CallKind kind, RankId comm_size, std::uint64_t bytes);
// The algorithms one call of `kind` uses: `a` itself, or with a.selection openmpi_tuned, `a`
// with that collective's algorithm replaced by Open MPI's choice.
CollectiveAlgorithms algorithms_for(const CollectiveAlgorithms& a, CallKind kind, RankId comm_size,
                                    std::uint64_t bytes);

// Throws std::invalid_argument when an algorithm cannot run on this many ranks (for example
// pairwise on a size that is not a power of two), naming the algorithm and the size.
void check_algorithms(const CollectiveAlgorithms& algorithms, RankId size);

// Appends one collective call to `b` (all use the builder's rank and size). `bytes` is the
// per-rank block: the message each rank contributes (bcast: the whole buffer).
void add_barrier(RankProgramBuilder& b, const CollectiveAlgorithms& a);
void add_bcast(RankProgramBuilder& b, const CollectiveAlgorithms& a, RankId root,
               std::uint64_t bytes);
void add_reduce(RankProgramBuilder& b, const CollectiveAlgorithms& a, RankId root,
                std::uint64_t bytes);
void add_allreduce(RankProgramBuilder& b, const CollectiveAlgorithms& a, std::uint64_t bytes);
void add_alltoall(RankProgramBuilder& b, const CollectiveAlgorithms& a, std::uint64_t bytes);
// send_bytes[r] goes to rank r, recv_bytes[r] comes from rank r (sizes = number of ranks).
void add_alltoallv(RankProgramBuilder& b, const CollectiveAlgorithms& a,
                   std::span<const std::uint64_t> send_bytes,
                   std::span<const std::uint64_t> recv_bytes);
void add_gather(RankProgramBuilder& b, const CollectiveAlgorithms& a, RankId root,
                std::uint64_t bytes);
void add_scatter(RankProgramBuilder& b, const CollectiveAlgorithms& a, RankId root,
                 std::uint64_t bytes);
void add_allgather(RankProgramBuilder& b, const CollectiveAlgorithms& a, std::uint64_t bytes);
// v-variants: counts[r] is rank r's block.
void add_gatherv(RankProgramBuilder& b, const CollectiveAlgorithms& a, RankId root,
                 std::span<const std::uint64_t> counts);
void add_scatterv(RankProgramBuilder& b, const CollectiveAlgorithms& a, RankId root,
                  std::span<const std::uint64_t> counts);
void add_allgatherv(RankProgramBuilder& b, const CollectiveAlgorithms& a,
                    std::span<const std::uint64_t> counts);
// counts[r]: the block rank r ends with (reduce then scatter).
void add_reduce_scatter(RankProgramBuilder& b, const CollectiveAlgorithms& a,
                        std::span<const std::uint64_t> counts);

// Non-blocking forms (RankProgramBuilder::begin_nonblocking): the blocking form's schedule,
// run when a wait, waitall or test names the returned handle.
std::uint32_t add_ibarrier(RankProgramBuilder& b, const CollectiveAlgorithms& a);
std::uint32_t add_ibcast(RankProgramBuilder& b, const CollectiveAlgorithms& a, RankId root,
                         std::uint64_t bytes);
std::uint32_t add_iallreduce(RankProgramBuilder& b, const CollectiveAlgorithms& a,
                             std::uint64_t bytes);
std::uint32_t add_ialltoall(RankProgramBuilder& b, const CollectiveAlgorithms& a,
                            std::uint64_t bytes);

std::string_view algorithm_name(BcastAlgorithm a);
std::string_view algorithm_name(ReduceAlgorithm a);
std::string_view algorithm_name(AllreduceAlgorithm a);
std::string_view algorithm_name(AlltoallAlgorithm a);
std::string_view algorithm_name(BarrierAlgorithm a);
std::string_view algorithm_name(GatherAlgorithm a);
std::string_view algorithm_name(AllgatherAlgorithm a);

}  // namespace netwarp::mpiemul
