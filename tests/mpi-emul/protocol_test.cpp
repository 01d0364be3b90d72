// Protocol timing on a 2-host lossless star: ping-pong round trips for short, eager and
// rendezvous messages match the value worked out by hand to the picosecond, and a late
// receiver delays a rendezvous sender by exactly its lateness but never an eager sender.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "mpi_fixtures.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::mpiemul {
namespace {

using namespace testing;
using engine::ns;
using engine::ps;
using netmodels::serialisation_time;

constexpr std::uint64_t kRate = netmodels::gbps(10);
const SimTime kLatency = ns(500);
constexpr std::uint32_t kMaxPayload = 1000;  // plain_format(): MTU 1000, no headers
constexpr std::uint32_t kEnvelope = 64;

ProtocolConfig protocol() {
  ProtocolConfig p;
  p.short_bytes = 900;
  p.eager_bytes = 4000;
  p.envelope_bytes = kEnvelope;
  return p;
}

// Hand computation of a transfer of `bytes` across host - switch - host: packets of at most
// 1000 B leave the NIC back to back, each is stored and forwarded by the switch.
SimTime network_time(std::uint64_t bytes) {
  SimTime nic_done, switch_free, arrival;
  for (std::uint64_t sent = 0; sent < bytes; sent += kMaxPayload) {
    const SimTime ser =
        serialisation_time(std::min<std::uint64_t>(kMaxPayload, bytes - sent), kRate);
    nic_done = nic_done + ser;
    const SimTime at_switch = nic_done + kLatency;
    switch_free = std::max(at_switch, switch_free) + ser;
    arrival = switch_free + kLatency;
  }
  return arrival;
}

// Rank 0: send(k), compute(w), recv(k); rank 1: recv(k), send(k).
Program pingpong(std::uint64_t k, SimTime w) {
  RankProgramBuilder r0(0, 2), r1(1, 2);
  r0.send(1, 0, k);
  if (w.ps() > 0) r0.compute(w);
  r0.recv(1, 0, k);
  r1.recv(0, 0, k);
  r1.send(0, 0, k);
  Program p;
  p.ranks = {r0.take(), r1.take()};
  return p;
}

SimTime rtt(const MpiRun& run) {
  const auto& calls = run.results.calls;  // sorted by (rank, call): rank 0's come first
  return SimTime::from_ps(calls[calls[1].kind == CallKind::compute ? 2 : 1].end_ps -
                          calls[0].start_ps);
}

MpiRun run_pingpong(std::uint64_t k, SimTime w, ProtocolConfig p = protocol()) {
  const Program program = pingpong(k, w);
  MpiRun run =
      run_mpi(star_platform(2, kRate, kLatency), program, config_for(program, hand_costs(), p));
  EXPECT_TRUE(run.totals.finished);
  expect_breakdowns_add_up(run.results);
  return run;
}

SimTime per_byte_ps(std::uint64_t k, std::uint64_t fs) {
  return per_byte(k, fs);
}

// Eager (k <= S): T1 = o + k*Oss, the network N(envelope + k), T3 = o + k*Ors on each side.
SimTime eager_rtt(std::uint64_t k) {
  const HostCosts c = hand_costs();
  const SimTime t1 = c.o + per_byte_ps(k, c.send_eager_fs_per_byte);
  const SimTime t3 = c.o + per_byte_ps(k, c.recv_eager_fs_per_byte);
  const SimTime n = network_time(kEnvelope + k);
  return t1 + n + t3 + t1 + n + t3;
}

TEST(ProtocolTiming, ShortPingPongRttIsExact) {
  const std::uint64_t k = 512;  // one packet with its envelope
  const MpiRun run = run_pingpong(k, {});
  EXPECT_EQ(rtt(run), eager_rtt(k));
  EXPECT_EQ(run.results.calls[0].protocol, Protocol::short_msg);
}

TEST(ProtocolTiming, EagerPingPongRttIsExact) {
  const std::uint64_t k = 3000;  // four packets
  const MpiRun run = run_pingpong(k, {});
  EXPECT_EQ(rtt(run), eager_rtt(k));
  EXPECT_EQ(run.results.calls[0].protocol, Protocol::eager);
}

// Rendezvous: sender o (REQ), N(env); receiver 2o (take REQ, send CTS), N(env); sender
// 2o + k*Osl (take CTS, push); N(k); receiver o + k*Orl. Twice.
TEST(ProtocolTiming, RendezvousPingPongRttIsExact) {
  const std::uint64_t k = 10000;
  const MpiRun run = run_pingpong(k, {});
  const HostCosts c = hand_costs();
  const SimTime nc = network_time(kEnvelope);
  const SimTime one_way = c.o + nc + c.o + c.o + nc + c.o + c.o +
                          per_byte_ps(k, c.send_rndv_fs_per_byte) + network_time(k) + c.o +
                          per_byte_ps(k, c.recv_rndv_fs_per_byte);
  EXPECT_EQ(rtt(run), one_way + one_way);
  EXPECT_EQ(run.results.calls[0].protocol, Protocol::rendezvous);
  // The sender's blocking send: o (REQ) + 2o + k*Osl of overhead, the handshake as sync.
  const CallRecord& send = run.results.calls[0];
  EXPECT_EQ(send.overhead_ps, (c.o + c.o + c.o + per_byte_ps(k, 100)).ps());
  EXPECT_EQ(send.sync_ps, (nc + c.o + c.o + nc).ps());
  EXPECT_EQ(send.send_wait_ps, 0);
}

// With compute w on rank 0 longer than the reply's trip, the reply waits unexpected and the
// receive costs T3 plus the copy out of the unexpected buffer.
TEST(ProtocolTiming, LongComputeMakesTheReplyUnexpected) {
  const std::uint64_t k = 512;
  const SimTime w = engine::us(50);
  const MpiRun run = run_pingpong(k, w);
  const HostCosts c = hand_costs();
  const SimTime t1 = c.o + per_byte_ps(k, c.send_eager_fs_per_byte);
  const SimTime t3 = c.o + per_byte_ps(k, c.recv_eager_fs_per_byte);
  EXPECT_EQ(rtt(run), t1 + w + t3 + per_byte_ps(k, c.copy_fs_per_byte));
  EXPECT_EQ(run.results.messages.size(), 2u);
  EXPECT_EQ(run.totals.counters.unexpected_messages, 1u);
}

// Rank 1 computes for `late` before its receive; rank 0 sends at once.
MpiRun run_late_receiver(std::uint64_t k, SimTime late) {
  RankProgramBuilder r0(0, 2), r1(1, 2);
  r0.send(1, 0, k);
  if (late.ps() > 0) r1.compute(late);
  r1.recv(0, 0, k);
  Program p;
  p.ranks = {r0.take(), r1.take()};
  MpiRun run =
      run_mpi(star_platform(2, kRate, kLatency), p, config_for(p, hand_costs(), protocol()));
  expect_breakdowns_add_up(run.results);
  return run;
}

TEST(ProtocolTiming, LateReceiverDelaysRendezvousSenderByItsLateness) {
  const std::uint64_t k = 10000;
  const SimTime late = engine::us(30);
  const MpiRun on_time = run_late_receiver(k, {});
  const MpiRun delayed = run_late_receiver(k, late);
  const CallRecord& a = on_time.results.calls[0];
  const CallRecord& b = delayed.results.calls[0];
  // The request reaches rank 1 at 1 ps + o + N(env); rank 1 posts at 1 ps + late.
  const SimTime lateness = late - (hand_costs().o + network_time(kEnvelope));
  EXPECT_EQ((b.end_ps - b.start_ps) - (a.end_ps - a.start_ps), lateness.ps());
  EXPECT_EQ(b.send_wait_ps, lateness.ps());
  EXPECT_EQ(b.sync_ps, a.sync_ps);
}

TEST(ProtocolTiming, LateReceiverDoesNotDelayEagerSender) {
  const std::uint64_t k = 3000;
  const MpiRun on_time = run_late_receiver(k, {});
  const MpiRun delayed = run_late_receiver(k, engine::us(30));
  const CallRecord& a = on_time.results.calls[0];
  const CallRecord& b = delayed.results.calls[0];
  EXPECT_EQ(b.end_ps - b.start_ps, a.end_ps - a.start_ps);
  EXPECT_EQ(b.end_ps - b.start_ps,
            (hand_costs().o + per_byte_ps(k, hand_costs().send_eager_fs_per_byte)).ps());
}

}  // namespace
}  // namespace netwarp::mpiemul
