// The replay with several ranks per host: same-host pairs take the intra-node parameters, and
// the network messages of one host's ranks share its NIC.
#include <gtest/gtest.h>

#include "netwarp/validation/loggps.hpp"
#include "netwarp/validation/replay.hpp"
#include "netwarp/validation/replay_models.hpp"
#include "replay_fixtures.hpp"

namespace netwarp::validation {
namespace {

using mpiemul::Program;
using mpiemul::RankProgramBuilder;

LogGpsParams simple() {
  return testing::round_loggps();
}

Program send_recv(std::uint64_t k) {
  return testing::two_ranks([&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
    r0.send(1, 0, k);
    r1.recv(0, 0, k);
  });
}

IntraNodeParams shm() {
  IntraNodeParams p;
  p.latency = 200;
  p.o = 1000;
  p.copy = 0.5;
  p.eager_bytes = 4096;
  p.single_copy_setup = 3000;
  p.single_copy = 0.25;
  return p;
}

ReplayLayout one_host(std::uint32_t ranks, bool with_intra = true) {
  ReplayLayout layout;
  layout.rank_hosts.assign(ranks, 0);
  if (with_intra) layout.intra = shm();
  return layout;
}

TEST(ReplayLayout, SameHostEagerPairUsesTheIntraNodeCopies) {
  const auto model = loggps_replay_model(simple());
  const Prediction r = predict_program(send_recv(1024), *model, nullptr, one_host(2));
  // Sender: o + 1024 x 0.5 = 1512; visible 200 later; receiver copies out: 1712 + 1512.
  EXPECT_DOUBLE_EQ(r.ranks[0].end_ns, 1512);
  EXPECT_DOUBLE_EQ(r.ranks[1].end_ns, 3224);
  EXPECT_DOUBLE_EQ(r.ranks[1].split.overhead, 1512);
  EXPECT_DOUBLE_EQ(r.ranks[1].split.recv_wait, 1712);
  EXPECT_EQ(r.rendezvous_messages, 0u);
}

TEST(ReplayLayout, SameHostLargePairIsOneCopyByTheReceiver) {
  const auto model = loggps_replay_model(simple());
  const Prediction r = predict_program(send_recv(8192), *model, nullptr, one_host(2));
  // Request visible at o + 200 = 1200; the receiver copies: 1200 + 1000 + 3000 + 8192 x 0.25;
  // the FIN is at the sender 200 later, which pays o.
  EXPECT_DOUBLE_EQ(r.ranks[1].end_ns, 7248);
  EXPECT_DOUBLE_EQ(r.ranks[0].end_ns, 7248 + 200 + 1000);
  EXPECT_EQ(r.rendezvous_messages, 1u);
  for (const auto& rank : r.ranks) EXPECT_DOUBLE_EQ(rank.split.total(), rank.end_ns);
}

TEST(ReplayLayout, WithoutIntraNodeParamsASameHostPairIsANetworkPair) {
  const LogGpsParams p = simple();
  const auto model = loggps_replay_model(p);
  const Prediction shared = predict_program(send_recv(1024), *model, nullptr, one_host(2, false));
  const Prediction apart = predict_program(send_recv(1024), *model);
  EXPECT_DOUBLE_EQ(shared.ranks[1].end_ns, loggps::comm_time(p, 1024, 0));
  EXPECT_DOUBLE_EQ(shared.ranks[1].end_ns, apart.ranks[1].end_ns);
}

// Ranks 0 and 1 send to ranks 2 and 3 (each on a host of its own); rank 1 starts `delay_ns`
// after rank 0.
Program two_senders(std::uint64_t k, double delay_ns) {
  RankProgramBuilder r0(0, 4), r1(1, 4), r2(2, 4), r3(3, 4);
  r0.send(2, 0, k);
  if (delay_ns > 0) r1.compute(engine::SimTime::from_ps(static_cast<std::int64_t>(delay_ns * 1e3)));
  r1.send(3, 0, k);
  r2.recv(0, 0, k);
  r3.recv(1, 0, k);
  Program p;
  p.ranks = {r0.take(), r1.take(), r2.take(), r3.take()};
  return p;
}

ReplayLayout senders_on(bool one_host) {
  ReplayLayout layout;
  layout.rank_hosts =
      one_host ? std::vector<std::uint32_t>{0, 0, 1, 2} : std::vector<std::uint32_t>{0, 1, 2, 3};
  layout.intra = shm();
  return layout;
}

TEST(ReplayLayout, TwoRanksOfAHostSendingAtOnceAreSerialisedAtTheNic) {
  LogGpParams p;
  p.L = 1000;
  p.o = 500;
  p.g = 4000;
  p.G = 1;
  const auto model = loggp_replay_model(p);
  const Prediction apart =
      predict_program(two_senders(1000, 0), *model, nullptr, senders_on(false));
  const Prediction shared =
      predict_program(two_senders(1000, 0), *model, nullptr, senders_on(true));
  // Apart, both inject at o; on one NIC the second waits the NIC's part of the gap, 999 G.
  EXPECT_DOUBLE_EQ(apart.ranks[3].end_ns, apart.ranks[2].end_ns);
  EXPECT_DOUBLE_EQ(shared.ranks[2].end_ns, apart.ranks[2].end_ns);
  EXPECT_DOUBLE_EQ(shared.ranks[3].end_ns, apart.ranks[3].end_ns + 999);
}

// One rank's two isends keep the whole gap max(g, o + 999 G) = 4000 between them.
TEST(ReplayLayout, OneRanksInjectionsKeepTheWholeGap) {
  LogGpParams p;
  p.L = 1000;
  p.o = 500;
  p.g = 4000;
  p.G = 1;
  const auto model = loggp_replay_model(p);
  RankProgramBuilder r0(0, 3), r1(1, 3), r2(2, 3);
  const std::uint32_t a = r0.isend(1, 0, 1000);
  const std::uint32_t b = r0.isend(2, 0, 1000);
  const std::uint32_t both[] = {a, b};
  r0.waitall(both);
  r1.recv(0, 0, 1000);
  r2.recv(0, 0, 1000);
  Program program;
  program.ranks = {r0.take(), r1.take(), r2.take()};
  const Prediction r = predict_program(program, *model);
  EXPECT_DOUBLE_EQ(r.ranks[2].end_ns - r.ranks[1].end_ns, 4000);
}

TEST(ReplayLayout, LogGpsSharesTheSendersNicBetweenItsRanks) {
  const auto model = loggps_replay_model(simple());
  const Prediction apart =
      predict_program(two_senders(512, 3000), *model, nullptr, senders_on(false));
  const Prediction shared =
      predict_program(two_senders(512, 3000), *model, nullptr, senders_on(true));
  // Rank 1's message (sent at 3000, injected at 3000 + T1 = 5512) alone: T2 = 512 x 4 + 1000,
  // T3 = 3024. On rank 0's NIC while rank 0's message is in flight: Gs doubles, T2 = 5096.
  EXPECT_DOUBLE_EQ(apart.ranks[3].end_ns, 5512 + 3048 + 3024);
  EXPECT_DOUBLE_EQ(shared.ranks[3].end_ns, 5512 + 5096 + 3024);
  EXPECT_DOUBLE_EQ(shared.ranks[2].end_ns, apart.ranks[2].end_ns);
}

// Two ranks of one host send rendezvous messages at once: their data enters the network
// together after the handshake, so each counts the other (Gl, the largest per-byte parameter
// here, doubles for both), whichever event ran first. Counted when the sends are posted, before
// either's data was in flight, neither would share.
TEST(ReplayLayout, RendezvousDataSentTogetherSharesTheNicAlike) {
  LogGpsParams p = simple();
  p.Gl = 1;
  const auto model = loggps_replay_model(p);
  const std::uint64_t k = 8192;  // > S
  const Prediction apart = predict_program(two_senders(k, 0), *model, nullptr, senders_on(false));
  const Prediction shared = predict_program(two_senders(k, 0), *model, nullptr, senders_on(true));
  const double extra = static_cast<double>(k - p.s) * p.Gl;  // T2' with Gl doubled
  EXPECT_DOUBLE_EQ(apart.ranks[2].end_ns, apart.ranks[3].end_ns);
  EXPECT_DOUBLE_EQ(shared.ranks[2].end_ns, apart.ranks[2].end_ns + extra);
  EXPECT_DOUBLE_EQ(shared.ranks[3].end_ns, apart.ranks[3].end_ns + extra);
}

// One pair's messages go in order on one stream: a second message while the first travels
// queues behind it instead of sharing the bandwidth (no contention factor), unlike a message
// of another sender (Replay.ConcurrentSendersShareTheReceiver).
TEST(ReplayLayout, MessagesOfOnePairDoNotShareWithEachOther) {
  const auto model = loggps_replay_model(simple());
  RankProgramBuilder r0(0, 2), r1(1, 2);
  const std::uint32_t a = r0.isend(1, 0, 512);
  r0.compute(engine::SimTime::from_ps(1'000'000));
  const std::uint32_t b = r0.isend(1, 0, 512);
  const std::uint32_t sends[] = {a, b};
  r0.waitall(sends);
  const std::uint32_t ra = r1.irecv(0, 0, 512);
  const std::uint32_t rb = r1.irecv(0, 0, 512);
  const std::uint32_t recvs[] = {ra, rb};
  r1.waitall(recvs);
  Program program;
  program.ranks = {r0.take(), r1.take()};
  const Prediction r = predict_program(program, *model);
  // The second isend at o' + 1000 = 3000, while the first travels (2512 to 5560): alone, T1 =
  // 2512, T2 = 3048, T3 = 3024.
  EXPECT_DOUBLE_EQ(r.ranks[1].end_ns, 3000 + 2512 + 3048 + 3024);
}

// Four ranks: rank 1 sends 8192 bytes (> S) to rank 2 at once; rank 3 sends 8192 bytes to rank
// 0, which posts its receive after `recv_delay_ns` of compute.
Program answer_behind_data(double recv_delay_ns) {
  RankProgramBuilder r0(0, 4), r1(1, 4), r2(2, 4), r3(3, 4);
  r0.compute(engine::SimTime::from_ps(static_cast<std::int64_t>(recv_delay_ns * 1e3)));
  r0.recv(3, 0, 8192);
  r1.send(2, 0, 8192);
  r2.recv(1, 0, 8192);
  r3.send(0, 0, 8192);
  Program p;
  p.ranks = {r0.take(), r1.take(), r2.take(), r3.take()};
  return p;
}

// The NIC is one queue: rank 0's answer to rank 3's request leaves its host only after the data
// rank 1 put on the same NIC before it. Rank 1's data enters at 16096 (REQ at 3000, answer out
// at 7000, back at 10000, T1' = 6096) and leaves the NIC at 16096 + 4096 Gs-part... + 896 Gl-part
// = 21088; rank 0 matches at 13000 and its answer is ready at 17000.
TEST(ReplayLayout, AnAnswerLeavesBehindTheDataOnItsHostsNic) {
  const auto model = loggps_replay_model(simple());
  ReplayLayout apart;
  apart.rank_hosts = {0, 3, 1, 2};
  ReplayLayout shared;
  shared.rank_hosts = {0, 0, 1, 2};
  const Prediction a = predict_program(answer_behind_data(13000), *model, nullptr, apart);
  const Prediction s = predict_program(answer_behind_data(13000), *model, nullptr, shared);
  // Apart: answer out at 17000, at rank 3 at 20000, data in at 26096 + 5992, T3' = 4048.
  EXPECT_DOUBLE_EQ(a.ranks[0].end_ns, 36136);
  // Shared: it waits until 21088.
  EXPECT_DOUBLE_EQ(s.ranks[0].end_ns, 36136 + (21088 - 17000));
  EXPECT_DOUBLE_EQ(s.ranks[2].end_ns, a.ranks[2].end_ns);
  // Posted once that data is out, the answer waits for nothing.
  const Prediction later = predict_program(answer_behind_data(20000), *model, nullptr, shared);
  EXPECT_DOUBLE_EQ(later.ranks[0].end_ns, 36136 + 7000);
}

// A request leaves behind the data on its NIC too, and a rendezvous message's data shares the
// NIC with what is in flight when it enters the network, not when its send was posted: rank 1
// posts at 17000 while rank 0's data (16096 to 22088) is in flight; its REQ leaves at 21088,
// rank 3 answers at 30000 + 2o', and its data enters at 43096 alone.
TEST(ReplayLayout, RendezvousDataSharesWhatIsInFlightWhenItEnters) {
  const auto model = loggps_replay_model(simple());
  RankProgramBuilder r0(0, 4), r1(1, 4), r2(2, 4), r3(3, 4);
  r0.send(2, 0, 8192);
  r1.compute(engine::SimTime::from_ps(17'000'000));
  r1.send(3, 0, 8192);
  r2.recv(0, 0, 8192);
  r3.compute(engine::SimTime::from_ps(30'000'000));
  r3.recv(1, 0, 8192);
  Program program;
  program.ranks = {r0.take(), r1.take(), r2.take(), r3.take()};
  ReplayLayout layout;
  layout.rank_hosts = {0, 0, 1, 2};
  const Prediction r = predict_program(program, *model, nullptr, layout);
  // Answer at 34000 + L + o' = 37000, T1' = 6096, T2' alone 5992, T3' = 4048.
  EXPECT_DOUBLE_EQ(r.ranks[3].end_ns, 37000 + 6096 + 5992 + 4048);
  EXPECT_DOUBLE_EQ(r.ranks[1].end_ns, 37000 + 6096);
}

}  // namespace
}  // namespace netwarp::validation
