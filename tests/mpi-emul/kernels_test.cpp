// Tests of the built-in kernels (mpi-emul/src/kernels/): the shape of each rank's program, and
// that every kernel runs to completion with eager and with synchronous sends.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "netwarp/mpiemul/kernels.hpp"
#include "program_checker.hpp"

namespace netwarp::mpiemul {
namespace {

using checker::ExecutionResult;
using checker::SendMode;
using engine::us;

std::vector<CallKind> call_kinds(const RankProgram& p) {
  std::vector<CallKind> kinds;
  for (const Call& c : p.calls) kinds.push_back(c.kind);
  return kinds;
}

void expect_runs_in_both_modes(const Program& program) {
  for (SendMode mode : {SendMode::eager, SendMode::synchronous}) {
    const ExecutionResult r = checker::execute(program, mode);
    EXPECT_TRUE(r.is_clean()) << r.describe();
  }
}

void expect_op(const Op& op, OpKind kind, bool blocking, std::int32_t peer, std::uint64_t bytes) {
  EXPECT_EQ(op.kind, kind);
  EXPECT_EQ(op.blocking, blocking ? 1 : 0);
  EXPECT_EQ(op.peer, peer);
  EXPECT_EQ(op.bytes, bytes);
}

// ---- ping-pong ----

TEST(PingPongKernel, RankZeroSendsComputesReceivesAndRankOneEchoes) {
  const PingPongKernel k{{8, 1024}, us(2), 3};
  const Program p = pingpong_program(k, 3);
  ASSERT_EQ(p.size(), 3u);
  const RankProgram& zero = p.ranks[0];
  const RankProgram& one = p.ranks[1];
  ASSERT_EQ(zero.ops.size(), 2u * 3u * 3u);
  ASSERT_EQ(one.ops.size(), 2u * 3u * 2u);
  for (std::size_t i = 0; i < 6; ++i) {
    const std::uint64_t bytes = i < 3 ? 8 : 1024;
    expect_op(zero.ops[3 * i], OpKind::send, true, 1, bytes);
    expect_op(zero.ops[3 * i + 1], OpKind::compute, false, 0, us(2).ps());
    expect_op(zero.ops[3 * i + 2], OpKind::recv, true, 1, bytes);
    expect_op(one.ops[2 * i], OpKind::recv, true, 0, bytes);
    expect_op(one.ops[2 * i + 1], OpKind::send, true, 0, bytes);
  }
  for (const Op& op : zero.ops) EXPECT_EQ(op.tag, 0);
  EXPECT_TRUE(p.ranks[2].ops.empty());
  EXPECT_EQ(call_kinds(zero).front(), CallKind::send);
  expect_runs_in_both_modes(p);
}

TEST(PingPongKernel, LeavesTheComputeOutWhenWIsZero) {
  const Program p = pingpong_program(PingPongKernel{{64}, SimTime::zero(), 2}, 2);
  EXPECT_EQ(call_kinds(p.ranks[0]), (std::vector<CallKind>{CallKind::send, CallKind::recv,
                                                           CallKind::send, CallKind::recv}));
  const ExecutionResult r = checker::execute(p, SendMode::synchronous);
  EXPECT_TRUE(r.is_clean()) << r.describe();
  ASSERT_EQ(r.messages.size(), 4u);
  for (const checker::MatchedMessage& m : r.messages) EXPECT_EQ(m.comm, kCommWorld);
}

TEST(PingPongKernel, NeedsTwoRanks) {
  EXPECT_THROW(pingpong_program(PingPongKernel{{8}, SimTime::zero(), 1}, 1), std::invalid_argument);
}

// ---- alltoall ----

Program alltoall_kernel(AlltoallAlgorithm alg, RankId size, std::uint32_t iterations,
                        SimTime compute) {
  return alltoall_program(AlltoallKernel{alg, 256, iterations, compute}, size,
                          CollectiveAlgorithms{});
}

TEST(AlltoallKernel, AlgorithmAPostsEveryReceiveBeforeItsBlockingSends) {
  constexpr RankId kSize = 8;
  const Program p = alltoall_kernel(AlltoallAlgorithm::algorithm_a, kSize, 1, SimTime::zero());
  for (RankId r = 0; r < kSize; ++r) {
    const std::vector<Op>& ops = p.ranks[r].ops;
    ASSERT_EQ(ops.size(), 2u * (kSize - 1) + 1);
    for (RankId i = 1; i < kSize; ++i) {
      expect_op(ops[i - 1], OpKind::recv, false, static_cast<std::int32_t>(r ^ i), 256);
      expect_op(ops[kSize - 1 + i - 1], OpKind::send, true, static_cast<std::int32_t>(r ^ i), 256);
    }
    EXPECT_EQ(ops.back().kind, OpKind::wait);
    EXPECT_EQ(ops.back().count, kSize - 1);
  }
  expect_runs_in_both_modes(p);
}

TEST(AlltoallKernel, AlgorithmBAlternatesReceiveSendAndWaitPerPhase) {
  constexpr RankId kSize = 4;
  const Program p = alltoall_kernel(AlltoallAlgorithm::algorithm_b, kSize, 1, SimTime::zero());
  for (RankId r = 0; r < kSize; ++r) {
    const std::vector<Op>& ops = p.ranks[r].ops;
    ASSERT_EQ(ops.size(), 3u * (kSize - 1));
    for (RankId i = 1; i < kSize; ++i) {
      const auto partner = static_cast<std::int32_t>(r ^ i);
      expect_op(ops[3 * (i - 1)], OpKind::recv, false, partner, 256);
      expect_op(ops[3 * (i - 1) + 1], OpKind::send, true, partner, 256);
      EXPECT_EQ(ops[3 * (i - 1) + 2].kind, OpKind::wait);
      EXPECT_EQ(ops[3 * (i - 1) + 2].count, 1u);
    }
  }
  expect_runs_in_both_modes(p);
}

TEST(AlltoallKernel, ComputesBetweenIterationsOnly) {
  const Program with = alltoall_kernel(AlltoallAlgorithm::pairwise, 4, 3, us(1));
  EXPECT_EQ(call_kinds(with.ranks[2]),
            (std::vector<CallKind>{CallKind::alltoall, CallKind::compute, CallKind::alltoall,
                                   CallKind::compute, CallKind::alltoall}));
  const Program without = alltoall_kernel(AlltoallAlgorithm::bruck, 5, 2, SimTime::zero());
  EXPECT_EQ(call_kinds(without.ranks[0]),
            (std::vector<CallKind>{CallKind::alltoall, CallKind::alltoall}));
  expect_runs_in_both_modes(with);
  expect_runs_in_both_modes(without);
}

TEST(AlltoallKernel, RejectsSizesTheAlgorithmCannotRunOn) {
  EXPECT_THROW(alltoall_kernel(AlltoallAlgorithm::algorithm_a, 6, 1, SimTime::zero()),
               std::invalid_argument);
  EXPECT_THROW(alltoall_kernel(AlltoallAlgorithm::spread_2d, 8, 1, SimTime::zero()),
               std::invalid_argument);
  EXPECT_NO_THROW(alltoall_kernel(AlltoallAlgorithm::spread_2d, 9, 1, SimTime::zero()));
}

// ---- ring ----

TEST(RingKernel, SendrecvsToTheNextRankFromThePreviousOne) {
  constexpr RankId kSize = 5;
  const Program p = ring_program(RingKernel{128, 3}, kSize);
  for (RankId r = 0; r < kSize; ++r) {
    ASSERT_EQ(call_kinds(p.ranks[r]), std::vector<CallKind>(3, CallKind::sendrecv));
    const std::vector<Op>& ops = p.ranks[r].ops;
    expect_op(ops[0], OpKind::recv, false, static_cast<std::int32_t>((r + kSize - 1) % kSize), 128);
    expect_op(ops[1], OpKind::send, false, static_cast<std::int32_t>((r + 1) % kSize), 128);
  }
  const ExecutionResult r = checker::execute(p, SendMode::synchronous);
  EXPECT_TRUE(r.is_clean()) << r.describe();
  const auto bytes = checker::bytes_between(r, kSize);
  for (RankId s = 0; s < kSize; ++s) EXPECT_EQ(bytes[s][(s + 1) % kSize], 3u * 128u);
  EXPECT_EQ(r.messages.size(), 3u * kSize);
  EXPECT_TRUE(ring_program(RingKernel{128, 3}, 1).ranks[0].ops.empty());
}

// ---- collectives ----

TEST(CollectiveKernel, RepeatsTheCollectiveWithComputeBetweenIterations) {
  const std::pair<CollectiveKind, CallKind> kinds[] = {
      {CollectiveKind::bcast, CallKind::bcast},
      {CollectiveKind::reduce, CallKind::reduce},
      {CollectiveKind::allreduce, CallKind::allreduce},
      {CollectiveKind::barrier, CallKind::barrier},
      {CollectiveKind::allgather, CallKind::allgather},
      {CollectiveKind::gather, CallKind::gather},
      {CollectiveKind::scatter, CallKind::scatter}};
  for (const auto& [kind, call] : kinds) {
    SCOPED_TRACE(call_kind_name(call));
    const Program p =
        collective_program(CollectiveKernel{kind, 1000, 2, 2, us(3)}, 6, CollectiveAlgorithms{});
    const std::vector<CallKind> expected = {call, CallKind::compute, call};
    for (const RankProgram& rank : p.ranks) {
      EXPECT_EQ(call_kinds(rank), expected);
      const bool rooted = kind == CollectiveKind::bcast || kind == CollectiveKind::reduce ||
                          kind == CollectiveKind::gather || kind == CollectiveKind::scatter;
      EXPECT_EQ(rank.calls[0].peer, rooted ? 2 : -1);
    }
    expect_runs_in_both_modes(p);
  }
}

TEST(CollectiveKernel, LeavesTheComputeOutWhenItIsZero) {
  const Program p =
      collective_program(CollectiveKernel{CollectiveKind::barrier, 0, 0, 3, SimTime::zero()}, 3,
                         CollectiveAlgorithms{});
  EXPECT_EQ(call_kinds(p.ranks[1]), std::vector<CallKind>(3, CallKind::barrier));
  EXPECT_THROW(collective_program(CollectiveKernel{CollectiveKind::bcast, 8, 3, 1, SimTime::zero()},
                                  3, CollectiveAlgorithms{}),
               std::invalid_argument);
}

}  // namespace
}  // namespace netwarp::mpiemul
