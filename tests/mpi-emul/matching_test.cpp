// Matching semantics of the simulated ranks: wildcards, MPI's non-overtaking order (also
// through TCP retransmission), unexpected and posted receives, and deadlock reporting.
#include <gtest/gtest.h>

#include <map>

#include "mpi_fixtures.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::mpiemul {
namespace {

using namespace testing;

Program make(std::vector<RankProgramBuilder>& builders) {
  Program p;
  for (auto& b : builders) p.ranks.push_back(b.take());
  return p;
}

std::vector<RankProgramBuilder> builders(RankId n) {
  std::vector<RankProgramBuilder> b;
  for (RankId r = 0; r < n; ++r) b.emplace_back(r, n);
  return b;
}

// The receive op each (src, send op) was matched with, at rank `dst`.
std::map<std::pair<RankId, std::uint32_t>, std::uint32_t> matches_at(const MpiRun& run,
                                                                     RankId dst) {
  std::map<std::pair<RankId, std::uint32_t>, std::uint32_t> m;
  for (const MessageRecord& r : run.results.messages)
    if (r.dst == dst) m[{r.src, r.send_op}] = r.recv_op;
  return m;
}

TEST(Matching, AnySourceAndAnyTagTakeMessagesInArrivalOrder) {
  auto b = builders(3);
  b[0].send(1, 7, 100);
  b[2].compute(engine::us(20));
  b[2].send(1, 9, 100);
  b[1].recv(kAnySource, kAnyTag, 100);
  b[1].recv(kAnySource, kAnyTag, 100);
  const Program p = make(b);
  const MpiRun run =
      run_mpi(matching_platform(3), p, config_for(p, matching_costs(), small_eager()));
  ASSERT_TRUE(run.totals.finished);
  const auto m = matches_at(run, 1);
  EXPECT_EQ(m.at({0, 0}), 0u);  // rank 0's message first, into the first receive
  EXPECT_EQ(m.at({2, 1}), 1u);
}

TEST(Matching, SpecificTagSkipsAnEarlierMessageWithAnotherTag) {
  auto b = builders(2);
  b[0].send(1, 3, 100);
  b[0].send(1, 5, 100);
  b[1].compute(engine::us(20));  // both arrive before the receives: unexpected
  b[1].recv(0, 5, 100);
  b[1].recv(kAnySource, kAnyTag, 100);
  const Program p = make(b);
  const MpiRun run =
      run_mpi(matching_platform(2), p, config_for(p, matching_costs(), small_eager()));
  ASSERT_TRUE(run.totals.finished);
  const auto m = matches_at(run, 1);
  EXPECT_EQ(m.at({0, 1}), 1u);  // tag 5 -> recv(0, 5), op 1 (op 0 is the compute)
  EXPECT_EQ(m.at({0, 0}), 2u);
  for (const MessageRecord& r : run.results.messages) EXPECT_EQ(r.unexpected, 1);
}

// Short, rendezvous and eager messages with one tag from one sender match in send order.
Program non_overtaking_program() {
  auto b = builders(2);
  b[0].isend(1, 4, 100);
  b[0].isend(1, 4, 50000);
  b[0].isend(1, 4, 1500);
  b[0].waitall(std::vector<std::uint32_t>{0, 1, 2});
  b[1].recv(0, kAnyTag, 100);
  b[1].recv(0, kAnyTag, 50000);
  b[1].recv(0, kAnyTag, 1500);
  return make(b);
}

void expect_send_order(const MpiRun& run) {
  ASSERT_TRUE(run.totals.finished);
  const auto m = matches_at(run, 1);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m.at({0, 0}), 0u);
  EXPECT_EQ(m.at({0, 1}), 1u);
  EXPECT_EQ(m.at({0, 2}), 2u);
}

TEST(Matching, MessagesFromOneSenderAreNotOvertaken) {
  const Program p = non_overtaking_program();
  expect_send_order(
      run_mpi(matching_platform(2), p, config_for(p, matching_costs(), small_eager())));
}

TEST(Matching, OrderHoldsWhenTcpRetransmitsALostSegment) {
  const Program p = non_overtaking_program();
  netmodels::NetworkSpec spec = matching_platform(2);
  spec.transport.kind = netmodels::TransportKind::tcp;
  spec.transport.tcp.min_rto = engine::us(100);
  spec.transport.tcp.initial_rto = engine::us(100);
  spec.drops.push_back(netmodels::PacketDrop{0, 0});  // rank 0's first message, first segment
  const MpiRun run = run_mpi(spec, p, config_for(p, matching_costs(), small_eager()));
  expect_send_order(run);
  std::uint64_t retransmitted = 0;
  for (const auto& f : run.results.network.flows) retransmitted += f.retransmitted_segments;
  EXPECT_GT(retransmitted, 0u);
}

// Each rank's first send opens its connection to the peer (StreamTransport): both SYNs are
// lost once, retransmitted after the initial RTO, and the messages still match in send order.
TEST(Matching, OrderHoldsWhenTheTcpHandshakeLosesItsSyns) {
  auto b = builders(2);
  b[0].send(1, 0, 100);
  b[0].send(1, 1, 50000);
  b[0].recv(1, 2, 10);
  b[1].recv(0, kAnyTag, 100);
  b[1].recv(0, kAnyTag, 50000);
  b[1].send(0, 2, 10);
  const Program p = make(b);
  netmodels::NetworkSpec spec = matching_platform(2);
  spec.transport.kind = netmodels::TransportKind::tcp;
  spec.transport.tcp.min_rto = engine::us(100);
  spec.transport.tcp.initial_rto = engine::us(100);
  spec.drops.push_back(netmodels::PacketDrop{0, 0, netmodels::PacketKind::syn});
  const MpiRun run = run_mpi(spec, p, config_for(p, matching_costs(), small_eager()));
  ASSERT_TRUE(run.totals.finished);
  const auto m = matches_at(run, 1);
  EXPECT_EQ(m.at({0, 0}), 0u);
  EXPECT_EQ(m.at({0, 1}), 1u);
  ASSERT_EQ(run.results.network.flows.size(), 2u);  // one connection each way
  for (const auto& f : run.results.network.flows) {
    EXPECT_EQ(f.syns_sent, 2u);
    EXPECT_EQ(f.syn_retransmissions, 1u);
  }
  EXPECT_GT(run.results.calls.back().end_ps, engine::us(100).ps());
}

TEST(Matching, PostedReceiveTakesTheArrivingMessage) {
  auto b = builders(2);
  b[0].compute(engine::us(20));
  b[0].send(1, 0, 100);
  b[1].recv(0, 0, 100);
  const Program p = make(b);
  const MpiRun run =
      run_mpi(matching_platform(2), p, config_for(p, matching_costs(), small_eager()));
  ASSERT_EQ(run.results.messages.size(), 1u);
  EXPECT_EQ(run.results.messages[0].unexpected, 0);
  EXPECT_GT(run.results.calls.back().recv_wait_ps, engine::us(19).ps());
}

TEST(Matching, UnexpectedMessageWaitsForItsReceive) {
  auto b = builders(2);
  b[0].send(1, 0, 100);
  b[1].compute(engine::us(20));
  b[1].recv(0, 0, 100);
  const Program p = make(b);
  const MpiRun run =
      run_mpi(matching_platform(2), p, config_for(p, matching_costs(), small_eager()));
  ASSERT_EQ(run.results.messages.size(), 1u);
  EXPECT_EQ(run.results.messages[0].unexpected, 1);
  EXPECT_EQ(run.totals.counters.unexpected_messages, 1u);
  EXPECT_EQ(run.results.calls.back().recv_wait_ps, 0);  // the data was already there
}

// Both ranks send a rendezvous-size message first: each waits for the other's receive.
TEST(Deadlock, CrossedRendezvousSendsAreReportedWithTheStuckCalls) {
  auto b = builders(2);
  b[0].send(1, 0, 1 << 20);
  b[0].recv(1, 0, 1 << 20);
  b[1].send(0, 0, 1 << 20);
  b[1].recv(0, 0, 1 << 20);
  const Program p = make(b);
  const MpiRun run =
      run_mpi(matching_platform(2), p, config_for(p, matching_costs(), small_eager()));
  EXPECT_FALSE(run.totals.finished);
  ASSERT_EQ(run.totals.stuck.size(), 2u);
  EXPECT_EQ(run.totals.stuck[0].kind, CallKind::send);
  EXPECT_EQ(run.totals.stuck[0].peer, 1);
  const std::string message = deadlock_message(run.totals);
  EXPECT_NE(message.find("rank 0 blocked in send to 1"), std::string::npos) << message;
  EXPECT_NE(message.find("rank 1 blocked in send to 0"), std::string::npos) << message;
}

TEST(Deadlock, TheSameProgramFinishesWhenTheMessagesAreEager) {
  auto b = builders(2);
  b[0].send(1, 0, 1000);
  b[0].recv(1, 0, 1000);
  b[1].send(0, 0, 1000);
  b[1].recv(0, 0, 1000);
  const Program p = make(b);
  const MpiRun run =
      run_mpi(matching_platform(2), p, config_for(p, matching_costs(), small_eager()));
  EXPECT_TRUE(run.totals.finished);
  expect_breakdowns_add_up(run.results);
}

}  // namespace
}  // namespace netwarp::mpiemul
