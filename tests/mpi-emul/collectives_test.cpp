// Tests of the collective algorithms (mpi-emul/src/collectives/). Every program is executed by
// program_checker.hpp with eager and with synchronous (rendezvous-only) sends under two
// schedules; each run must finish cleanly, and the messages must be what the collective and the
// algorithm mean: bytes per pair, message counts, and which ranks each rank has heard from.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "netwarp/mpiemul/collectives.hpp"
#include "program_checker.hpp"

namespace netwarp::mpiemul {
namespace {

using checker::ExecutionResult;
using checker::MatchedMessage;
using checker::Schedule;
using checker::SendMode;
using Matrix = std::vector<std::vector<std::uint64_t>>;

constexpr RankId kSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16};

bool is_power_of_two(RankId n) {
  return (n & (n - 1)) == 0;
}
bool is_square(RankId n) {
  RankId s = 0;
  while ((s + 1) * (s + 1) <= n) ++s;
  return s * s == n;
}
int rounds(RankId n) {  // ceil(log2 n)
  int k = 0;
  while ((RankId{1} << k) < n) ++k;
  return k;
}
std::vector<RankId> roots_for(RankId size) {
  std::set<RankId> roots = {0, size / 2, size - 1};
  return {roots.begin(), roots.end()};
}

// Runs `program` with both send modes and both schedules. Every run must finish with nothing
// unmatched or unwaited, and every message must be matched within the same call on both sides,
// on the collective communicator, with the size the receiver posted.
std::vector<ExecutionResult> run_everywhere(const Program& program) {
  std::vector<ExecutionResult> results;
  for (SendMode mode : {SendMode::eager, SendMode::synchronous}) {
    for (Schedule schedule : {Schedule::round_robin, Schedule::lowest_first}) {
      results.push_back(checker::execute(program, mode, schedule));
      const ExecutionResult& r = results.back();
      EXPECT_TRUE(r.is_clean()) << r.describe();
      for (const MatchedMessage& m : r.messages) {
        EXPECT_EQ(m.send_bytes, m.recv_bytes) << m.src << " -> " << m.dst;
        EXPECT_EQ(m.send_call, m.recv_call) << m.src << " -> " << m.dst;
        EXPECT_EQ(m.comm, kCommCollective);
      }
    }
  }
  return results;
}

template <typename AddCollective>
Program program_of(RankId size, int times, AddCollective&& add) {
  return checker::build_program(size, [&](RankProgramBuilder& b) {
    for (int i = 0; i < times; ++i) add(b);
  });
}

bool heard_from_all(const ExecutionResult& r, RankId rank, std::uint32_t call) {
  const checker::RankSet& heard = r.heard_from[rank][call];
  return std::all_of(heard.begin(), heard.end(), [](bool b) { return b; });
}

std::uint64_t row_sum(const Matrix& m, RankId r) {
  std::uint64_t s = 0;
  for (std::uint64_t v : m[r]) s += v;
  return s;
}
std::uint64_t column_sum(const Matrix& m, RankId r) {
  std::uint64_t s = 0;
  for (const auto& row : m) s += row[r];
  return s;
}
std::vector<int> sends_per_rank(const ExecutionResult& r, RankId size) {
  std::vector<int> sends(size, 0);
  for (const MatchedMessage& m : r.messages) ++sends[m.src];
  return sends;
}
std::vector<const MatchedMessage*> sent_by(const ExecutionResult& r, RankId rank) {
  std::vector<const MatchedMessage*> sent;
  for (const MatchedMessage& m : r.messages)
    if (m.src == rank) sent.push_back(&m);
  std::sort(sent.begin(), sent.end(), [](auto* a, auto* b) { return a->send_op < b->send_op; });
  return sent;
}
// The destinations of a rank's send ops, in program order.
std::vector<RankId> send_order(const RankProgram& p) {
  std::vector<RankId> order;
  for (const Op& op : p.ops)
    if (op.kind == OpKind::send) order.push_back(static_cast<RankId>(op.peer));
  return order;
}

// ---- barrier ----

TEST(Barrier, NoRankLeavesBeforeEveryRankHasEntered) {
  for (BarrierAlgorithm alg : {BarrierAlgorithm::dissemination, BarrierAlgorithm::linear}) {
    for (RankId size : kSizes) {
      SCOPED_TRACE(fmt::format("{} on {} ranks", algorithm_name(alg), size));
      CollectiveAlgorithms a;
      a.barrier = alg;
      for (const ExecutionResult& r :
           run_everywhere(program_of(size, 3, [&](auto& b) { add_barrier(b, a); }))) {
        for (std::uint32_t c = 0; c < 3; ++c) {
          std::uint64_t last_entry = 0, first_exit = UINT64_MAX;
          for (RankId rank = 0; rank < size; ++rank) {
            EXPECT_TRUE(heard_from_all(r, rank, c)) << "rank " << rank << " barrier " << c;
            last_entry = std::max(last_entry, r.entered_at[rank][c]);
            first_exit = std::min(first_exit, r.completed_at[rank][c]);
          }
          EXPECT_LT(last_entry, first_exit) << "barrier " << c;
        }
      }
    }
  }
}

TEST(Barrier, DisseminationSendsOneEmptyMessagePerRound) {
  CollectiveAlgorithms a;
  for (RankId size : kSizes) {
    SCOPED_TRACE(size);
    const ExecutionResult r =
        run_everywhere(program_of(size, 1, [&](auto& b) { add_barrier(b, a); }))[0];
    for (RankId rank = 0; rank < size; ++rank) {
      const auto sent = sent_by(r, rank);
      ASSERT_EQ(sent.size(), static_cast<std::size_t>(rounds(size)));
      for (int k = 0; k < rounds(size); ++k) {
        EXPECT_EQ(sent[k]->dst, (rank + (RankId{1} << k)) % size);
        EXPECT_EQ(sent[k]->send_bytes, 0u);
      }
    }
  }
}

TEST(Barrier, LinearGathersAtRankZeroThenReleases) {
  CollectiveAlgorithms a;
  a.barrier = BarrierAlgorithm::linear;
  for (RankId size : kSizes) {
    SCOPED_TRACE(size);
    const ExecutionResult r =
        run_everywhere(program_of(size, 1, [&](auto& b) { add_barrier(b, a); }))[0];
    ASSERT_EQ(r.messages.size(), 2u * (size - 1));
    for (const MatchedMessage& m : r.messages) {
      EXPECT_TRUE(m.src == 0 || m.dst == 0);
      EXPECT_EQ(m.send_bytes, 0u);
    }
    EXPECT_EQ(sends_per_rank(r, size)[0], static_cast<int>(size - 1));
  }
}

// ---- bcast and reduce ----

TEST(Bcast, EveryNonRootReceivesTheBufferExactlyOnce) {
  constexpr std::uint64_t kBytes = 1000;
  for (BcastAlgorithm alg : {BcastAlgorithm::binomial, BcastAlgorithm::linear}) {
    CollectiveAlgorithms a;
    a.bcast = alg;
    for (RankId size : kSizes) {
      for (RankId root : roots_for(size)) {
        SCOPED_TRACE(fmt::format("{} on {} ranks, root {}", algorithm_name(alg), size, root));
        for (const ExecutionResult& r :
             run_everywhere(program_of(size, 1, [&](auto& b) { add_bcast(b, a, root, kBytes); }))) {
          const Matrix m = checker::bytes_between(r, size);
          EXPECT_EQ(r.messages.size(), size - 1u);
          for (RankId rank = 0; rank < size; ++rank) {
            EXPECT_EQ(column_sum(m, rank), rank == root ? 0 : kBytes) << "rank " << rank;
            EXPECT_TRUE(r.heard_from[rank][0][root]) << "rank " << rank;
          }
          const int root_sends = sends_per_rank(r, size)[root];
          EXPECT_EQ(root_sends, alg == BcastAlgorithm::binomial ? rounds(size) : int(size) - 1);
        }
      }
    }
  }
}

TEST(Reduce, RootHearsFromEveryRankAndEveryOtherRankSendsOnce) {
  constexpr std::uint64_t kBytes = 512;
  for (ReduceAlgorithm alg : {ReduceAlgorithm::binomial, ReduceAlgorithm::linear}) {
    CollectiveAlgorithms a;
    a.reduce = alg;
    for (RankId size : kSizes) {
      for (RankId root : roots_for(size)) {
        SCOPED_TRACE(fmt::format("{} on {} ranks, root {}", algorithm_name(alg), size, root));
        for (const ExecutionResult& r : run_everywhere(
                 program_of(size, 1, [&](auto& b) { add_reduce(b, a, root, kBytes); }))) {
          const std::vector<int> sends = sends_per_rank(r, size);
          int root_receives = 0;
          for (const MatchedMessage& m : r.messages) root_receives += m.dst == root ? 1 : 0;
          for (RankId rank = 0; rank < size; ++rank)
            EXPECT_EQ(sends[rank], rank == root ? 0 : 1) << "rank " << rank;
          for (const MatchedMessage& m : r.messages) EXPECT_EQ(m.send_bytes, kBytes);
          EXPECT_TRUE(heard_from_all(r, root, 0));
          EXPECT_EQ(root_receives, alg == ReduceAlgorithm::binomial ? rounds(size) : int(size) - 1);
        }
      }
    }
  }
}

// ---- allreduce ----

constexpr AllreduceAlgorithm kAllreduceAlgorithms[] = {AllreduceAlgorithm::recursive_doubling,
                                                       AllreduceAlgorithm::ring,
                                                       AllreduceAlgorithm::reduce_bcast};

std::vector<ExecutionResult> run_allreduce(AllreduceAlgorithm alg, RankId size,
                                           std::uint64_t bytes) {
  CollectiveAlgorithms a;
  a.allreduce = alg;
  return run_everywhere(program_of(size, 2, [&](auto& b) { add_allreduce(b, a, bytes); }));
}

TEST(Allreduce, EveryRankHearsFromEveryRank) {
  for (AllreduceAlgorithm alg : kAllreduceAlgorithms) {
    for (RankId size : kSizes) {
      SCOPED_TRACE(fmt::format("{} on {} ranks", algorithm_name(alg), size));
      for (const ExecutionResult& r : run_allreduce(alg, size, 4096))
        for (RankId rank = 0; rank < size; ++rank)
          for (std::uint32_t c = 0; c < 2; ++c) EXPECT_TRUE(heard_from_all(r, rank, c));
    }
  }
}

TEST(Allreduce, RecursiveDoublingFoldsExtraRanksInAndOut) {
  for (RankId size : kSizes) {
    SCOPED_TRACE(size);
    RankId main = 1;
    while (main * 2 <= size) main *= 2;
    const RankId extra = size - main;
    const int log_main = rounds(main);
    const ExecutionResult r = run_allreduce(AllreduceAlgorithm::recursive_doubling, size, 64)[0];
    const std::vector<int> sends = sends_per_rank(r, size);
    for (RankId rank = 0; rank < size; ++rank) {
      const bool folded = rank < 2 * extra;
      const int expected = folded && rank % 2 == 0 ? 1 : log_main + (folded ? 1 : 0);
      EXPECT_EQ(sends[rank], 2 * expected) << "rank " << rank;  // two allreduce calls
    }
    for (const MatchedMessage& m : r.messages) EXPECT_EQ(m.send_bytes, 64u);
  }
}

TEST(Allreduce, RingSendsTwoPassesOfBlocksToTheNextRank) {
  for (std::uint64_t bytes : {std::uint64_t{1000}, std::uint64_t{10}}) {
    for (RankId size : kSizes) {
      SCOPED_TRACE(fmt::format("{} bytes on {} ranks", bytes, size));
      const auto block = [&](RankId i) { return bytes / size + (i % size < bytes % size); };
      const ExecutionResult r = run_allreduce(AllreduceAlgorithm::ring, size, bytes)[0];
      const Matrix m = checker::bytes_between(r, size);
      const std::vector<int> sends = sends_per_rank(r, size);
      for (RankId rank = 0; rank < size && size > 1; ++rank) {
        EXPECT_EQ(sends[rank], 2 * 2 * int(size - 1));
        EXPECT_EQ(row_sum(m, rank), m[rank][(rank + 1) % size]) << "only to the next rank";
        EXPECT_EQ(row_sum(m, rank), 2 * (2 * bytes - block(rank + 1) - block(rank + 2)));
      }
    }
  }
}

TEST(Allreduce, ReduceBcastSendsTwiceTheTreeMessages) {
  for (RankId size : kSizes) {
    SCOPED_TRACE(size);
    const ExecutionResult r = run_allreduce(AllreduceAlgorithm::reduce_bcast, size, 300)[0];
    EXPECT_EQ(r.messages.size(), 2u * 2u * (size - 1));
    for (const MatchedMessage& m : r.messages) EXPECT_EQ(m.send_bytes, 300u);
  }
}

// ---- alltoall ----

constexpr AlltoallAlgorithm kDirectAlltoalls[] = {
    AlltoallAlgorithm::algorithm_a, AlltoallAlgorithm::algorithm_b, AlltoallAlgorithm::pairwise,
    AlltoallAlgorithm::simple_spread, AlltoallAlgorithm::spread_2d};

bool runs_on(AlltoallAlgorithm alg, RankId size) {
  if (alg == AlltoallAlgorithm::spread_2d) return is_square(size);
  if (alg == AlltoallAlgorithm::simple_spread || alg == AlltoallAlgorithm::bruck) return true;
  return is_power_of_two(size);
}

Program alltoall_of(AlltoallAlgorithm alg, RankId size, std::uint64_t bytes) {
  CollectiveAlgorithms a;
  a.alltoall = alg;
  return program_of(size, 1, [&](auto& b) { add_alltoall(b, a, bytes); });
}

// The destination of rank r in step p (1 .. P-1), written from docs/models/flow-mfs.md.
RankId expected_destination(AlltoallAlgorithm alg, RankId r, RankId p, RankId size) {
  RankId n = 1;
  while (n * n < size) ++n;
  switch (alg) {
    case AlltoallAlgorithm::simple_spread:
      return (r + p) % size;
    case AlltoallAlgorithm::spread_2d:
      return ((r % n + p % n) % n) + (((r / n) + (p / n)) % n) * n;
    default:
      return r ^ p;
  }
}

TEST(Alltoall, EveryOrderedPairExchangesOneBlockInTheAlgorithmsOrder) {
  for (AlltoallAlgorithm alg : kDirectAlltoalls) {
    for (RankId size : kSizes) {
      if (!runs_on(alg, size)) continue;
      SCOPED_TRACE(fmt::format("{} on {} ranks", algorithm_name(alg), size));
      const Program program = alltoall_of(alg, size, 100);
      for (const ExecutionResult& r : run_everywhere(program)) {
        const Matrix m = checker::bytes_between(r, size);
        EXPECT_EQ(r.messages.size(), std::size_t{size} * (size - 1));
        for (RankId s = 0; s < size; ++s) {
          EXPECT_TRUE(heard_from_all(r, s, 0));
          for (RankId d = 0; d < size; ++d) EXPECT_EQ(m[s][d], s == d ? 0u : 100u);
        }
      }
      for (RankId rank = 0; rank < size; ++rank) {
        std::vector<RankId> expected;
        for (RankId p = 1; p < size; ++p)
          expected.push_back(expected_destination(alg, rank, p, size));
        EXPECT_EQ(send_order(program.ranks[rank]), expected) << "rank " << rank;
      }
    }
  }
}

TEST(Alltoall, BruckSendsLog2CombinedMessagesAndStillReachesEveryRank) {
  constexpr std::uint64_t kBytes = 10;
  for (RankId size : kSizes) {
    SCOPED_TRACE(size);
    for (const ExecutionResult& r :
         run_everywhere(alltoall_of(AlltoallAlgorithm::bruck, size, kBytes))) {
      for (RankId rank = 0; rank < size; ++rank) {
        EXPECT_TRUE(heard_from_all(r, rank, 0)) << "rank " << rank;
        const auto sent = sent_by(r, rank);
        ASSERT_EQ(sent.size(), static_cast<std::size_t>(rounds(size)));
        for (int k = 0; k < rounds(size); ++k) {
          // Blocks 0 .. P-1 whose index has bit k set.
          const RankId bit = RankId{1} << k;
          const RankId blocks =
              (size >> (k + 1)) * bit + std::max<RankId>(size % (2 * bit), bit) - bit;
          EXPECT_EQ(sent[k]->dst, (rank + bit) % size);
          EXPECT_EQ(sent[k]->send_bytes, blocks * kBytes) << "round " << k;
        }
      }
    }
  }
}

TEST(Alltoall, RestrictedAlgorithmsRejectSizesTheyCannotRunOn) {
  for (AlltoallAlgorithm alg : kDirectAlltoalls) {
    for (RankId size : {3u, 6u, 8u, 12u}) {
      RankProgramBuilder b(0, size);
      CollectiveAlgorithms a;
      a.alltoall = alg;
      if (runs_on(alg, size))
        EXPECT_NO_THROW(add_alltoall(b, a, 8));
      else
        EXPECT_THROW(add_alltoall(b, a, 8), std::invalid_argument)
            << algorithm_name(alg) << " on " << size;
    }
  }
}

TEST(Alltoallv, DeliversEachPairItsCountAndSkipsEmptyPairs) {
  for (RankId size : kSizes) {
    SCOPED_TRACE(size);
    Matrix counts(size, std::vector<std::uint64_t>(size));
    for (RankId s = 0; s < size; ++s)
      for (RankId d = 0; d < size; ++d) counts[s][d] = (s * 7 + d * 3) % 5 * 100;
    const Program program = checker::build_program(size, [&](RankProgramBuilder& b) {
      std::vector<std::uint64_t> recv(size);
      for (RankId s = 0; s < size; ++s) recv[s] = counts[s][b.rank()];
      add_alltoallv(b, CollectiveAlgorithms{}, counts[b.rank()], recv);
    });
    std::size_t non_empty = 0;
    for (RankId s = 0; s < size; ++s)
      for (RankId d = 0; d < size; ++d) non_empty += s != d && counts[s][d] > 0;
    for (const ExecutionResult& r : run_everywhere(program)) {
      const Matrix m = checker::bytes_between(r, size);
      EXPECT_EQ(r.messages.size(), non_empty);
      for (RankId s = 0; s < size; ++s)
        for (RankId d = 0; d < size; ++d) EXPECT_EQ(m[s][d], s == d ? 0 : counts[s][d]);
    }
  }
}

// ---- gather, scatter, allgather, reduce_scatter ----

// counts[r] = 10 (r + 1), except rank 1's block is empty.
std::vector<std::uint64_t> uneven_counts(RankId size) {
  std::vector<std::uint64_t> counts(size);
  for (RankId r = 0; r < size; ++r) counts[r] = r == 1 ? 0 : 10 * (r + 1);
  return counts;
}

TEST(Gather, EveryRankContributesExactlyItsBlockToTheRoot) {
  for (GatherAlgorithm alg : {GatherAlgorithm::linear, GatherAlgorithm::binomial}) {
    CollectiveAlgorithms a;
    a.gather = alg;
    for (RankId size : kSizes) {
      for (RankId root : roots_for(size)) {
        SCOPED_TRACE(fmt::format("{} on {} ranks, root {}", algorithm_name(alg), size, root));
        const std::vector<std::uint64_t> counts = uneven_counts(size);
        const Program program = program_of(size, 1, [&](auto& b) {
          add_gather(b, a, root, 100);
          add_gatherv(b, a, root, counts);
        });
        for (const ExecutionResult& r : run_everywhere(program)) {
          EXPECT_EQ(r.messages.size(), 2u * (size - 1));
          EXPECT_TRUE(heard_from_all(r, root, 0));
          EXPECT_TRUE(heard_from_all(r, root, 1));
          for (std::uint32_t call = 0; call < 2; ++call) {
            std::vector<std::int64_t> net(size, 0);  // bytes sent minus bytes received
            for (const MatchedMessage& m : r.messages) {
              if (m.send_call != call) continue;
              net[m.src] += static_cast<std::int64_t>(m.send_bytes);
              net[m.dst] -= static_cast<std::int64_t>(m.send_bytes);
            }
            for (RankId rank = 0; rank < size; ++rank) {
              const std::uint64_t own = call == 0 ? 100 : counts[rank];
              if (rank != root) {
                EXPECT_EQ(net[rank], static_cast<std::int64_t>(own));
              }
            }
          }
        }
      }
    }
  }
}

TEST(Gather, BinomialMessagesCarryWholeSubtrees) {
  CollectiveAlgorithms a;
  a.gather = GatherAlgorithm::binomial;
  const ExecutionResult r =
      run_everywhere(program_of(6, 1, [&](auto& b) { add_gather(b, a, 2, 10); }))[0];
  const Matrix m = checker::bytes_between(r, 6);
  // Relative ranks: 4 <- 5, 2 <- 3, 0 <- {4, 2, 1}; absolute = relative + 2 mod 6.
  EXPECT_EQ(m[1][0], 10u);
  EXPECT_EQ(m[5][4], 10u);
  EXPECT_EQ(m[0][2], 20u);
  EXPECT_EQ(m[4][2], 20u);
  EXPECT_EQ(m[3][2], 10u);
  EXPECT_EQ(r.messages.size(), 5u);
}

TEST(Scatter, EveryRankGetsExactlyItsBlockFromTheRoot) {
  for (GatherAlgorithm alg : {GatherAlgorithm::linear, GatherAlgorithm::binomial}) {
    CollectiveAlgorithms a;
    a.gather = alg;
    for (RankId size : kSizes) {
      for (RankId root : roots_for(size)) {
        SCOPED_TRACE(fmt::format("{} on {} ranks, root {}", algorithm_name(alg), size, root));
        const std::vector<std::uint64_t> counts = uneven_counts(size);
        const Program program = program_of(size, 1, [&](auto& b) {
          add_scatter(b, a, root, 100);
          add_scatterv(b, a, root, counts);
        });
        for (const ExecutionResult& r : run_everywhere(program)) {
          EXPECT_EQ(r.messages.size(), 2u * (size - 1));
          for (std::uint32_t call = 0; call < 2; ++call) {
            std::vector<std::int64_t> net(size, 0);  // bytes received minus bytes sent
            for (const MatchedMessage& m : r.messages) {
              if (m.send_call != call) continue;
              net[m.dst] += static_cast<std::int64_t>(m.send_bytes);
              net[m.src] -= static_cast<std::int64_t>(m.send_bytes);
            }
            for (RankId rank = 0; rank < size; ++rank) {
              if (rank == root) continue;
              EXPECT_TRUE(r.heard_from[rank][call][root]);
              EXPECT_EQ(net[rank], static_cast<std::int64_t>(call == 0 ? 100 : counts[rank]));
            }
          }
        }
      }
    }
  }
}

constexpr AllgatherAlgorithm kAllgatherAlgorithms[] = {AllgatherAlgorithm::ring,
                                                       AllgatherAlgorithm::recursive_doubling,
                                                       AllgatherAlgorithm::gather_bcast};

TEST(Allgather, EveryRankHearsFromEveryRank) {
  for (AllgatherAlgorithm alg : kAllgatherAlgorithms) {
    CollectiveAlgorithms a;
    a.allgather = alg;
    for (RankId size : kSizes) {
      SCOPED_TRACE(fmt::format("{} on {} ranks", algorithm_name(alg), size));
      const std::vector<std::uint64_t> counts = uneven_counts(size);
      const Program program = program_of(size, 1, [&](auto& b) {
        add_allgather(b, a, 100);
        add_allgatherv(b, a, counts);
      });
      for (const ExecutionResult& r : run_everywhere(program))
        for (RankId rank = 0; rank < size; ++rank)
          for (std::uint32_t c = 0; c < 2; ++c) EXPECT_TRUE(heard_from_all(r, rank, c));
    }
  }
}

TEST(Allgather, RingAndRecursiveDoublingDeliverEveryOtherBlockOnce) {
  for (AllgatherAlgorithm alg :
       {AllgatherAlgorithm::ring, AllgatherAlgorithm::recursive_doubling}) {
    CollectiveAlgorithms a;
    a.allgather = alg;
    for (RankId size : kSizes) {
      SCOPED_TRACE(fmt::format("{} on {} ranks", algorithm_name(alg), size));
      const std::vector<std::uint64_t> counts = uneven_counts(size);
      std::uint64_t all = 0;
      for (std::uint64_t c : counts) all += c;
      const ExecutionResult r =
          run_everywhere(program_of(size, 1, [&](auto& b) { add_allgatherv(b, a, counts); }))[0];
      const Matrix m = checker::bytes_between(r, size);
      const bool doubling = alg == AllgatherAlgorithm::recursive_doubling && is_power_of_two(size);
      const std::vector<int> sends = sends_per_rank(r, size);
      for (RankId rank = 0; rank < size; ++rank) {
        EXPECT_EQ(column_sum(m, rank), all - counts[rank]);
        EXPECT_EQ(sends[rank], doubling ? rounds(size) : int(size) - 1);
        if (!doubling && size > 1) {
          EXPECT_EQ(row_sum(m, rank), m[rank][(rank + 1) % size]);
        }
      }
    }
  }
}

TEST(Allgather, RecursiveDoublingDoublesTheMessageEachRound) {
  CollectiveAlgorithms a;
  a.allgather = AllgatherAlgorithm::recursive_doubling;
  const ExecutionResult r =
      run_everywhere(program_of(8, 1, [&](auto& b) { add_allgather(b, a, 5); }))[0];
  for (RankId rank = 0; rank < 8; ++rank) {
    const auto sent = sent_by(r, rank);
    ASSERT_EQ(sent.size(), 3u);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(sent[k]->dst, rank ^ (1u << k));
      EXPECT_EQ(sent[k]->send_bytes, 5u << k);
    }
  }
}

TEST(ReduceScatter, EveryRankHearsFromEveryRankAndEndsWithItsBlock) {
  for (RankId size : kSizes) {
    SCOPED_TRACE(size);
    const std::vector<std::uint64_t> counts = uneven_counts(size);
    const Program program = program_of(
        size, 1, [&](auto& b) { add_reduce_scatter(b, CollectiveAlgorithms{}, counts); });
    for (const ExecutionResult& r : run_everywhere(program)) {
      EXPECT_EQ(r.messages.size(), 2u * (size - 1));
      for (RankId rank = 0; rank < size; ++rank) EXPECT_TRUE(heard_from_all(r, rank, 0));
    }
  }
}

// ---- checks, names, calls, tags ----

TEST(CheckAlgorithms, RejectsSizesNamingTheAlgorithmAndTheSize) {
  const auto message = [](AlltoallAlgorithm alg, RankId size) -> std::string {
    CollectiveAlgorithms a;
    a.alltoall = alg;
    try {
      check_algorithms(a, size);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message(AlltoallAlgorithm::pairwise, 6).find("pairwise"), std::string::npos);
  EXPECT_NE(message(AlltoallAlgorithm::pairwise, 6).find('6'), std::string::npos);
  EXPECT_NE(message(AlltoallAlgorithm::algorithm_a, 12).find("algorithm_a"), std::string::npos);
  EXPECT_NE(message(AlltoallAlgorithm::algorithm_b, 3).find("algorithm_b"), std::string::npos);
  EXPECT_NE(message(AlltoallAlgorithm::spread_2d, 8).find("spread_2d"), std::string::npos);
  EXPECT_NE(message(AlltoallAlgorithm::spread_2d, 8).find('8'), std::string::npos);
  EXPECT_EQ(message(AlltoallAlgorithm::spread_2d, 9), "");
  EXPECT_EQ(message(AlltoallAlgorithm::pairwise, 16), "");
  EXPECT_EQ(message(AlltoallAlgorithm::bruck, 7), "");
  EXPECT_EQ(message(AlltoallAlgorithm::simple_spread, 7), "");
  EXPECT_NE(message(AlltoallAlgorithm::bruck, 0), "");
}

TEST(AlgorithmName, IsTheEnumeratorsSpelling) {
  EXPECT_EQ(algorithm_name(BcastAlgorithm::linear), "linear");
  EXPECT_EQ(algorithm_name(ReduceAlgorithm::binomial), "binomial");
  EXPECT_EQ(algorithm_name(AllreduceAlgorithm::recursive_doubling), "recursive_doubling");
  EXPECT_EQ(algorithm_name(AllreduceAlgorithm::reduce_bcast), "reduce_bcast");
  EXPECT_EQ(algorithm_name(AlltoallAlgorithm::algorithm_b), "algorithm_b");
  EXPECT_EQ(algorithm_name(AlltoallAlgorithm::spread_2d), "spread_2d");
  EXPECT_EQ(algorithm_name(AlltoallAlgorithm::bruck), "bruck");
  EXPECT_EQ(algorithm_name(BarrierAlgorithm::dissemination), "dissemination");
  EXPECT_EQ(algorithm_name(GatherAlgorithm::binomial), "binomial");
  EXPECT_EQ(algorithm_name(AllgatherAlgorithm::gather_bcast), "gather_bcast");
}

TEST(Collectives, AreOneCallRecordingKindRootAndBlock) {
  RankProgramBuilder b(1, 4);
  add_bcast(b, CollectiveAlgorithms{}, 2, 100);
  add_allreduce(b, CollectiveAlgorithms{}, 64);
  const RankProgram p = b.take();
  ASSERT_EQ(p.calls.size(), 2u);
  EXPECT_EQ(p.calls[0].kind, CallKind::bcast);
  EXPECT_EQ(p.calls[0].peer, 2);
  EXPECT_EQ(p.calls[0].bytes, 100u);
  EXPECT_EQ(p.calls[1].kind, CallKind::allreduce);
  EXPECT_EQ(p.calls[1].peer, -1);
  EXPECT_EQ(p.calls[1].bytes, 64u);
  EXPECT_EQ(p.calls[1].first_op + p.calls[1].op_count, p.ops.size());
  for (const Op& op : p.ops) {
    if (op.kind == OpKind::send || op.kind == OpKind::recv) {
      EXPECT_EQ(op.comm, kCommCollective);
    }
  }
}

// The default (tree, doubling) algorithms, and the other choice for every collective.
CollectiveAlgorithms tree_algorithms() {
  CollectiveAlgorithms a;
  a.alltoall = AlltoallAlgorithm::simple_spread;
  return a;
}
CollectiveAlgorithms linear_algorithms() {
  CollectiveAlgorithms a;
  a.bcast = BcastAlgorithm::linear;
  a.reduce = ReduceAlgorithm::linear;
  a.gather = GatherAlgorithm::linear;
  a.barrier = BarrierAlgorithm::linear;
  a.allreduce = AllreduceAlgorithm::ring;
  a.allgather = AllgatherAlgorithm::gather_bcast;
  a.alltoall = AlltoallAlgorithm::bruck;
  return a;
}

// Every collective once.
void add_every_collective(RankProgramBuilder& b, const CollectiveAlgorithms& a) {
  const std::vector<std::uint64_t> counts = uneven_counts(b.size());
  const std::vector<std::uint64_t> pairs(b.size(), 8);
  add_barrier(b, a);
  add_bcast(b, a, 1, 100);
  add_reduce(b, a, 2, 100);
  add_allreduce(b, a, 100);
  add_alltoall(b, a, 50);
  add_alltoallv(b, a, pairs, pairs);
  add_gather(b, a, 3, 10);
  add_scatter(b, a, 3, 10);
  add_allgather(b, a, 10);
  add_gatherv(b, a, 0, counts);
  add_scatterv(b, a, 0, counts);
  add_allgatherv(b, a, counts);
  add_reduce_scatter(b, a, counts);
}

TEST(Collectives, EachKindUsesTagsNoOtherKindUses) {
  RankProgramBuilder b(1, 4);
  add_every_collective(b, tree_algorithms());
  add_every_collective(b, linear_algorithms());
  const RankProgram p = b.take();
  std::map<std::int32_t, std::set<CallKind>> kinds_of_tag;
  for (const Call& c : p.calls)
    for (std::uint32_t i = c.first_op; i < c.first_op + c.op_count; ++i)
      if (p.ops[i].kind == OpKind::send || p.ops[i].kind == OpKind::recv)
        kinds_of_tag[p.ops[i].tag].insert(c.kind);
  for (const auto& [tag, kinds] : kinds_of_tag) EXPECT_EQ(kinds.size(), 1u) << "tag " << tag;
}

TEST(Collectives, ConsecutiveCollectivesNeverMatchAcrossCalls) {
  for (RankId size : {4u, 5u, 9u}) {
    SCOPED_TRACE(size);
    run_everywhere(program_of(size, 2, [&](auto& b) {
      add_every_collective(b, tree_algorithms());
      add_every_collective(b, linear_algorithms());
    }));
  }
}

TEST(Collectives, RejectRootsAndCountsThatDoNotFitTheSize) {
  RankProgramBuilder b(0, 4);
  const CollectiveAlgorithms a;
  const std::vector<std::uint64_t> three(3, 1);
  EXPECT_THROW(add_bcast(b, a, 4, 1), std::invalid_argument);
  EXPECT_THROW(add_reduce(b, a, 7, 1), std::invalid_argument);
  EXPECT_THROW(add_gather(b, a, 4, 1), std::invalid_argument);
  EXPECT_THROW(add_scatterv(b, a, 0, three), std::invalid_argument);
  EXPECT_THROW(add_allgatherv(b, a, three), std::invalid_argument);
  EXPECT_THROW(add_alltoallv(b, a, three, three), std::invalid_argument);
}

}  // namespace
}  // namespace netwarp::mpiemul
