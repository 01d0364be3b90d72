// The trace-driven replay against hand-worked LogGPS times (LOGGPS.md Tables 4 and 6).
#include <gtest/gtest.h>

#include "netwarp/netmodels/topology_builders.hpp"
#include "netwarp/validation/loggps.hpp"
#include "netwarp/validation/replay.hpp"
#include "netwarp/validation/replay_models.hpp"
#include "replay_fixtures.hpp"

namespace netwarp::validation {
namespace {

using mpiemul::Program;
using mpiemul::RankProgramBuilder;
using testing::two_ranks;

LogGpsParams simple() {
  return testing::round_loggps();
}

Program pingpong(std::uint64_t k, double w_ns) {
  return two_ranks([&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
    r0.send(1, 0, k);
    if (w_ns > 0) r0.compute(engine::SimTime::from_ps(static_cast<std::int64_t>(w_ns * 1000)));
    r0.recv(1, 0, k);
    r1.recv(0, 0, k);
    r1.send(0, 0, k);
  });
}

TEST(Replay, PingPongEqualsTable6InEachRegime) {
  const LogGpsParams p = simple();
  const auto model = loggps_replay_model(p);
  // k = 512 (short): 2(T1 + T2 + T3) = 2((2000 + 512) + (2048 + 1000) + (2000 + 1024)) = 17168.
  EXPECT_DOUBLE_EQ(predict_program(pingpong(512, 0), *model).run_time_ns, 17168);
  // k = 2048 (eager): T2' = 1024*4 + 1024*0.125 + 1000 = 5224; T1 = 4048, T3 = 6096:
  // 2(4048 + 5224 + 6096) = 30736.
  EXPECT_DOUBLE_EQ(predict_program(pingpong(2048, 0), *model).run_time_ns, 30736);
  // k = 8192 (rendezvous): 8o' + 4L + 2T1' + 2T2' + 2T3' with T1' = 6096,
  // T2' = 4096 + 7168*0.125 + 1000 = 5992, T3' = 4048: 16000 + 4000 + 32272 = 52272.
  EXPECT_DOUBLE_EQ(predict_program(pingpong(8192, 0), *model).run_time_ns, 52272);
  for (std::uint64_t k : {0u, 512u, 1024u, 1025u, 2048u, 4096u, 4097u, 8192u})
    EXPECT_DOUBLE_EQ(predict_program(pingpong(k, 0), *model).run_time_ns, loggps::rtt(p, k, 0))
        << "k = " << k;
  // w = W large: W + T1 + T3 for k <= S, and eq. (14) beyond.
  for (std::uint64_t k : {0u, 512u, 2048u, 8192u})
    EXPECT_DOUBLE_EQ(predict_program(pingpong(k, 1e6), *model).run_time_ns, loggps::rtt(p, k, 1e6))
        << "k = " << k;
}

TEST(Replay, EachCallHasItsStartEndAndSplit) {
  const auto model = loggps_replay_model(simple());
  const Prediction r = predict_program(pingpong(512, 0), *model);
  ASSERT_EQ(r.calls.size(), 4u);
  // Rank 0: send [0, T1 = 2512] all overhead; recv from 2512 to 17168 (Table 6, k = 512),
  // waiting until the answer is in at 11096 + T2 = 14144, then T3 = 3024 of overhead.
  const CallPrediction& send = r.calls[0];
  EXPECT_EQ(send.rank, 0u);
  EXPECT_EQ(send.call, 0u);
  EXPECT_DOUBLE_EQ(send.start_ns, 0);
  EXPECT_DOUBLE_EQ(send.end_ns, 2512);
  EXPECT_DOUBLE_EQ(send.split.overhead, 2512);
  const CallPrediction& answer = r.calls[1];
  EXPECT_EQ(answer.call, 1u);
  EXPECT_DOUBLE_EQ(answer.start_ns, 2512);
  EXPECT_DOUBLE_EQ(answer.end_ns, 17168);
  EXPECT_DOUBLE_EQ(answer.split.recv_wait, 14144 - 2512);
  EXPECT_DOUBLE_EQ(answer.split.overhead, 3024);
  // Rank 1: recv [0, T1 + T2 + T3 = 8584], then send [8584, 11096].
  EXPECT_EQ(r.calls[2].rank, 1u);
  EXPECT_DOUBLE_EQ(r.calls[2].end_ns, 8584);
  EXPECT_DOUBLE_EQ(r.calls[2].split.recv_wait, 5560);
  EXPECT_DOUBLE_EQ(r.calls[3].start_ns, 8584);
  EXPECT_DOUBLE_EQ(r.calls[3].end_ns, 11096);
  for (const CallPrediction& c : r.calls)
    EXPECT_DOUBLE_EQ(c.split.total(), c.end_ns - c.start_ns) << "call " << c.call;
}

TEST(Replay, CallsWithoutOperationsAndCollectivesAreOneCallEach) {
  const auto model = loggps_replay_model(simple());
  const Program program = two_ranks([&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
    for (RankProgramBuilder* b : {&r0, &r1}) {
      b->begin_call(mpiemul::CallKind::barrier, -1, 0);  // empty: starts and ends at once
      b->end_call();
      b->compute(engine::SimTime::from_ps(1'000'000));
      b->begin_call(mpiemul::CallKind::allreduce, -1, 8);
      const auto s = b->post_isend(1 - b->rank(), 0, 8);
      const auto q = b->post_irecv(static_cast<std::int32_t>(1 - b->rank()), 0, 8);
      const std::uint32_t both[] = {s, q};
      b->post_waitall(both);
      b->end_call();
    }
  });
  const Prediction r = predict_program(program, *model);
  ASSERT_EQ(r.calls.size(), 6u);
  EXPECT_DOUBLE_EQ(r.calls[0].start_ns, 0);
  EXPECT_DOUBLE_EQ(r.calls[0].end_ns, 0);
  EXPECT_DOUBLE_EQ(r.calls[1].end_ns, 1000);
  EXPECT_DOUBLE_EQ(r.calls[2].start_ns, 1000);
  EXPECT_DOUBLE_EQ(r.calls[2].end_ns, r.ranks[0].end_ns);
  EXPECT_DOUBLE_EQ(r.calls[5].end_ns, r.ranks[1].end_ns);
}

TEST(Replay, LateReceiverIsSendWaitOfARendezvousSender) {
  const LogGpsParams p = simple();
  const auto model = loggps_replay_model(p);
  const double late = 50000;
  const Program program = two_ranks([&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
    r0.send(1, 0, 8192);
    r1.compute(engine::SimTime::from_ps(static_cast<std::int64_t>(late * 1000)));
    r1.recv(0, 0, 8192);
  });
  const Prediction r = predict_program(program, *model);
  // The REQ is there at o' + L = 3000; the receive comes at 50000.
  EXPECT_DOUBLE_EQ(r.ranks[0].split.send_wait, late - 3000);
  // Table 4 (5): T4 + T5 + T1' with T4 = (tr - ts) + o'.
  EXPECT_DOUBLE_EQ(r.ranks[0].end_ns, late + 2000 + 5000 + 6096);
  // (9): o' + T5 + T1' + T2' + T3' after the late receive.
  EXPECT_DOUBLE_EQ(r.ranks[1].end_ns, late + 2000 + 5000 + 6096 + 5992 + 4048);
  for (const auto& rank : r.ranks) EXPECT_DOUBLE_EQ(rank.split.total(), rank.end_ns);
  EXPECT_EQ(r.rendezvous_messages, 1u);
}

TEST(Replay, NonBlockingCallsCostOPrimeAndWaitHasAnOPrimeFloor) {
  const LogGpsParams p = simple();
  const auto model = loggps_replay_model(p);
  const Program program = two_ranks([&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
    const auto q = r0.isend(1, 0, 512);
    r0.compute(engine::SimTime::from_ps(100'000'000));  // 100 us: the send is long done
    r0.wait(q);
    const auto q1 = r1.irecv(0, 0, 512);
    r1.wait(q1);
  });
  const Prediction r = predict_program(program, *model);
  // isend o' + compute + wait floor o' (eq. (11), sign corrected).
  EXPECT_DOUBLE_EQ(r.ranks[0].end_ns, 2000 + 100000 + 2000);
  // irecv at 0: Tblk = T1 + T2 + T3 = 8584 from 0; the wait starts at o' = 2000.
  EXPECT_DOUBLE_EQ(r.ranks[1].end_ns, 8584);
  EXPECT_DOUBLE_EQ(r.ranks[1].split.total(), 8584);
}

TEST(Replay, ConcurrentSendersShareTheReceiver) {
  LogGpsParams p = simple();
  const auto model = loggps_replay_model(p);
  mpiemul::Program program;
  RankProgramBuilder r0(0, 3), r1(1, 3), r2(2, 3);
  r1.send(0, 0, 512);
  r2.compute(engine::SimTime::from_ps(3'000'000));  // sends while rank 1's message travels
  r2.send(0, 0, 512);
  const std::uint32_t a = r0.irecv(1, 0, 512);
  const std::uint32_t b = r0.irecv(2, 0, 512);
  const std::uint32_t both[] = {a, b};
  r0.waitall(both);
  program.ranks = {r0.take(), r1.take(), r2.take()};
  const Prediction r = predict_program(program, *model);
  // Rank 1's message is alone (p = 1): in flight from T1 = 2512 to T1 + T2 = 5560. Rank 2's is
  // sent at 3000 while it travels (p = 2): Gs, the largest per-byte cost, doubles: injected at
  // 3000 + 2512, T2 = 512*8 + 1000 = 5096, T3 = 3024: the last receive ends at 13632.
  EXPECT_DOUBLE_EQ(r.ranks[0].end_ns, 3000 + 2512 + 5096 + 3024);
}

TEST(Replay, FlowNetworkSharesTheReceiversLink) {
  netmodels::LinkLevels links;
  links.defaults.rate_bps = 8'000'000'000;  // 1 byte/ns
  links.defaults.latency = engine::SimTime::from_ps(0);
  const auto topology = netmodels::build_star({3}, links, "topology.star");
  LogGpsParams host;  // free hosts: only the network counts
  host.S = 1 << 30;
  const auto model = flow_host_model(host, 0);
  auto network = flow_replay_network(topology, {0, 1, 2}, FlowMode::max_min, 0);
  mpiemul::Program program;
  RankProgramBuilder r0(0, 3), r1(1, 3), r2(2, 3);
  r1.send(0, 0, 10000);
  r2.send(0, 0, 10000);
  r0.recv(1, 0, 10000);
  r0.recv(2, 0, 10000);
  program.ranks = {r0.take(), r1.take(), r2.take()};
  const Prediction r = predict_program(program, *model, network.get());
  // Both flows share host 0's link at 0.5 byte/ns: 20000 ns for both.
  EXPECT_NEAR(r.ranks[0].end_ns, 20000, 1e-6);
}

TEST(Replay, UnmatchedReceiveIsReported) {
  const auto model = loggps_replay_model(simple());
  const Program program =
      two_ranks([](RankProgramBuilder& r0, RankProgramBuilder&) { r0.recv(1, 0, 8); });
  EXPECT_THROW(predict_program(program, *model), std::runtime_error);
}

}  // namespace
}  // namespace netwarp::validation

namespace netwarp::validation {
namespace {

TEST(Replay, MpieteReceiveEndsTCommAfterTheLaterOfTheTwoCalls) {
  const MpieteParams p{Table({{0, 500}, {1000, 1500}})};  // T_comm(100) = 600
  const auto model = mpiete_replay_model(p);
  const auto ps = [](double ns) { return engine::SimTime::from_ps(std::llround(ns * 1000)); };
  // Late sender: the receive posted at 0 ends at 1000 + 600 (rule (6) with our dependency).
  const Program late_sender = two_ranks([&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
    r0.compute(ps(1000));
    r0.send(1, 0, 100);
    r1.recv(0, 0, 100);
  });
  const Prediction a = predict_program(late_sender, *model);
  EXPECT_DOUBLE_EQ(a.ranks[0].end_ns, 1000);  // sending costs nothing (rule (4))
  EXPECT_DOUBLE_EQ(a.ranks[1].end_ns, 1600);
  EXPECT_DOUBLE_EQ(a.ranks[1].split.recv_wait, 1600);
  // Late receiver: 5000 + 600, however early the send was.
  const Program late_receiver = two_ranks([&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
    r0.send(1, 0, 100);
    r1.compute(ps(5000));
    r1.recv(0, 0, 100);
  });
  EXPECT_DOUBLE_EQ(predict_program(late_receiver, *model).run_time_ns, 5600);
  // Non-blocking calls and a wait on a send take nothing (rules (4), (5)).
  const Program nonblocking = two_ranks([&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
    r0.wait(r0.isend(1, 0, 1000));
    r1.wait(r1.irecv(0, 0, 1000));
  });
  const Prediction c = predict_program(nonblocking, *model);
  EXPECT_DOUBLE_EQ(c.ranks[0].end_ns, 0);
  EXPECT_DOUBLE_EQ(c.ranks[1].end_ns, 1500);
}

}  // namespace
}  // namespace netwarp::validation
