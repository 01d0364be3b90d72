// Hosts end to end with the TCP handshake, limited transmit and the policy settings
// (netmodels/src/host/host_lp.cpp over tcp_sender.cpp): SYN and SYN-ACK loss, the first RTT
// sample from the handshake, limited transmit avoiding a timeout, and each policy changing
// exactly its value. Every run is checked sequential, optimistic and in reverse check mode.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::seconds;
using engine::us;
using testing::message;
using testing::run_network;

constexpr std::uint32_t kMss = 1460;

// host0 - switch - host1 at 1 Gbit/s, 5 us per link, TCP with MSS 1460, one message.
NetworkSpec one_flow(std::uint64_t bytes) {
  NetworkSpec spec;
  spec.topology = testing::line_topology(2, LinkSpec{gbps(1), us(5)});
  spec.format = PacketFormat{};
  spec.switches.buffer_bytes = 64 * 1024;
  spec.transport.kind = TransportKind::tcp;
  spec.workload.kind = "flows";
  spec.workload.messages = {message(0, 0, 1, bytes)};
  return spec;
}

const FlowRecord& only_flow(const testing::NetworkRun& run) {
  if (run.results.flows.size() != 1) throw std::logic_error("expected one flow record");
  return run.results.flows.front();
}

TEST(HostTcpHandshake, DataWaitsForTheHandshake) {
  const auto run = run_network(one_flow(kMss));
  const FlowRecord& f = only_flow(run);
  EXPECT_EQ(f.syns_sent, 1u);
  EXPECT_EQ(f.syn_retransmissions, 0u);
  EXPECT_EQ(f.start_ps, 0);
  // SYN, SYN-ACK, then data and its ACK: two round trips of about 2 x 10 us.
  EXPECT_GT(run.totals.completion_time_ps, us(40).ps());
  NetworkSpec without = one_flow(kMss);
  without.transport.tcp.handshake = false;
  const auto direct = run_network(without);
  EXPECT_EQ(only_flow(direct).syns_sent, 0u);
  EXPECT_LT(direct.totals.completion_time_ps, us(40).ps());
}

// The first data segment is lost and only two duplicates follow: an RTO. Its length comes from
// the SYN-ACK's RTT sample (min RTO 200 ms), without the handshake from no sample (1 s).
TEST(HostTcpHandshake, HandshakeGivesTheFirstRttSample) {
  NetworkSpec spec = one_flow(3 * kMss);
  spec.drops.push_back(PacketDrop{0, 0});
  const auto run = run_network(spec);
  EXPECT_EQ(only_flow(run).timeouts, 1u);
  EXPECT_GT(run.totals.completion_time_ps, ms(200).ps());
  EXPECT_LT(run.totals.completion_time_ps, ms(201).ps());
  spec.transport.tcp.handshake = false;
  const auto direct = run_network(spec);
  EXPECT_GT(direct.totals.completion_time_ps, seconds(1).ps());
}

TEST(HostTcpHandshake, LostSynIsRetransmittedAfterTheInitialRto) {
  NetworkSpec spec = one_flow(20 * kMss);
  spec.drops.push_back(PacketDrop{0, 0, PacketKind::syn});
  const auto run = run_network(spec);
  const FlowRecord& f = only_flow(run);
  EXPECT_EQ(f.syns_sent, 2u);
  EXPECT_EQ(f.syn_retransmissions, 1u);
  EXPECT_EQ(f.timeouts, 0u);
  EXPECT_EQ(run.totals.messages_delivered, 1u);
  EXPECT_GT(run.totals.completion_time_ps, seconds(1).ps());
  EXPECT_LT(run.totals.completion_time_ps, seconds(1).ps() + ms(1).ps());
}

TEST(HostTcpHandshake, LostSynAckIsAnsweredAgainAfterTheSynRetransmission) {
  NetworkSpec spec = one_flow(20 * kMss);
  spec.drops.push_back(PacketDrop{0, 0, PacketKind::syn_ack});
  const auto run = run_network(spec);
  const FlowRecord& f = only_flow(run);
  EXPECT_EQ(f.syn_retransmissions, 1u);
  EXPECT_EQ(run.totals.messages_delivered, 1u);
  EXPECT_GT(run.totals.completion_time_ps, seconds(1).ps());
  EXPECT_EQ(run.totals.packets_dropped, 1u);  // one SYN-ACK; the second passes
}

// Initial window 3, the first segment lost: two duplicate ACKs only. Limited transmit sends two
// new segments whose duplicates make the third: fast retransmit instead of a timeout.
NetworkSpec small_window_first_loss() {
  NetworkSpec spec = one_flow(10 * kMss);
  spec.transport.tcp.initial_window_segments = 3;
  spec.drops.push_back(PacketDrop{0, 0});
  return spec;
}

TEST(HostTcpLimitedTransmit, TurnsATimeoutIntoAFastRetransmit) {
  const auto run = run_network(small_window_first_loss());
  const FlowRecord& f = only_flow(run);
  EXPECT_EQ(f.limited_transmits, 2u);
  EXPECT_EQ(f.fast_retransmits, 1u);
  EXPECT_EQ(f.timeouts, 0u);
  EXPECT_LT(run.totals.completion_time_ps, ms(1).ps());
}

TEST(HostTcpLimitedTransmit, OffOrBlockedByTheReceiveWindowLeavesTheTimeout) {
  NetworkSpec off = small_window_first_loss();
  off.transport.tcp.limited_transmit = false;
  const auto run_off = run_network(off);
  EXPECT_EQ(only_flow(run_off).limited_transmits, 0u);
  EXPECT_EQ(only_flow(run_off).timeouts, 1u);
  NetworkSpec blocked = small_window_first_loss();
  blocked.transport.tcp.receive_window_bytes = 3 * kMss;
  const auto run_blocked = run_network(blocked);
  EXPECT_EQ(only_flow(run_blocked).limited_transmits, 0u);
  EXPECT_EQ(only_flow(run_blocked).timeouts, 1u);
}

// One loss in a 100-segment flow; cwnd trace on. The samples from the fast retransmit on
// (the first with a finite ssthresh).
std::vector<CwndSample> cwnd_after_one_loss(const TcpConfig& tcp,
                                            std::uint32_t lost_seq = 20 * kMss) {
  NetworkSpec spec = one_flow(100 * kMss);
  spec.transport.tcp = tcp;
  spec.outputs.cwnd_trace = true;
  spec.drops.push_back(PacketDrop{0, lost_seq});
  const auto run = run_network(spec);
  EXPECT_EQ(only_flow(run).fast_retransmits, 1u);
  std::vector<CwndSample> samples = run.results.cwnd_samples;
  std::erase_if(samples, [](const CwndSample& c) { return c.ssthresh > UINT64_MAX / 4; });
  return samples;
}

// With limited transmit, FlightSize at the third duplicate excludes its 2 segments; bytes in
// flight keeps them but drops the 3 segments the duplicates show left: half a segment less.
TEST(HostTcpPolicy, SsthreshBaseChangesOnlySsthreshAtTheFastRetransmit) {
  TcpConfig tcp;
  const auto flight = cwnd_after_one_loss(tcp);
  tcp.ssthresh_base = SsthreshBase::bytes_in_flight;
  const auto in_flight = cwnd_after_one_loss(tcp);
  ASSERT_FALSE(flight.empty());
  ASSERT_FALSE(in_flight.empty());
  EXPECT_EQ(flight[0].time_ps, in_flight[0].time_ps);
  EXPECT_EQ(flight[0].ssthresh - in_flight[0].ssthresh, kMss / 2);
}

// The first sample with cwnd <= ssthresh after the fast retransmit is the end of recovery.
CwndSample recovery_exit(const std::vector<CwndSample>& samples) {
  for (const CwndSample& c : samples)
    if (c.cwnd <= c.ssthresh) return c;
  throw std::logic_error("recovery never ended");
}

// Segment 90 of 100 lost: everything is sent before recovery, so the full ACK leaves nothing
// in flight and option 1 gives max(0, SMSS) + SMSS.
TEST(HostTcpPolicy, RecoveryExitCwndIsSsthreshOnlyWithOption2) {
  TcpConfig tcp;
  const CwndSample option1 = recovery_exit(cwnd_after_one_loss(tcp, 90 * kMss));
  tcp.recovery_exit_cwnd = RecoveryExitCwnd::ssthresh;
  const CwndSample option2 = recovery_exit(cwnd_after_one_loss(tcp, 90 * kMss));
  EXPECT_EQ(option1.time_ps, option2.time_ps);
  EXPECT_EQ(option1.ssthresh, option2.ssthresh);
  EXPECT_EQ(option2.cwnd, option2.ssthresh);
  EXPECT_EQ(option1.cwnd, 2u * kMss);
}

// Receive window 2 segments; segments 1 and 3 lost, each repaired only by a timeout. The ACK of
// the first retransmission is no RTT sample: the second timeout waits the backed-off 400 ms,
// or 200 ms when the backoff ends on any new ACK.
TEST(HostTcpPolicy, RtoBackoffResetChangesOnlyTheSecondTimeout) {
  NetworkSpec spec = one_flow(6 * kMss);
  spec.transport.tcp.receive_window_bytes = 2 * kMss;
  spec.drops = {PacketDrop{0, kMss}, PacketDrop{0, 3 * kMss}};
  const auto on_sample = run_network(spec);
  spec.transport.tcp.rto_backoff_reset = RtoBackoffReset::on_new_ack;
  const auto on_ack = run_network(spec);
  EXPECT_EQ(only_flow(on_sample).timeouts, 2u);
  EXPECT_EQ(only_flow(on_ack).timeouts, 2u);
  const std::int64_t difference =
      on_sample.totals.completion_time_ps - on_ack.totals.completion_time_ps;
  EXPECT_EQ(difference, ms(200).ps());
}

std::uint64_t total_syns(const testing::NetworkRun& run) {
  std::uint64_t syns = 0;
  for (const FlowRecord& f : run.results.flows) syns += f.syns_sent;
  return syns;
}

// Three messages host0 -> host1 at 0, 1 ms and 2 ms, and one host1 -> host0.
NetworkSpec three_messages_one_pair(bool persistent) {
  NetworkSpec spec = one_flow(1);
  spec.workload.messages = {message(0, 0, 1, 30 * kMss), message(1, 0, 1, 20 * kMss, ms(1)),
                            message(2, 1, 0, 5 * kMss), message(3, 0, 1, 10 * kMss, ms(2))};
  spec.workload.persistent_connections = persistent;
  return spec;
}

TEST(HostTcpPersistent, MessagesOfAPairShareOneConnection) {
  const auto shared = run_network(three_messages_one_pair(true));
  const auto separate = run_network(three_messages_one_pair(false));
  EXPECT_EQ(shared.totals.messages_delivered, 4u);
  EXPECT_EQ(separate.totals.messages_delivered, 4u);
  EXPECT_EQ(total_syns(shared), 2u);  // one per ordered pair
  EXPECT_EQ(total_syns(separate), 4u);
  ASSERT_EQ(shared.results.flows.size(), 4u);
  for (const FlowRecord& f : shared.results.flows) {
    EXPECT_EQ(f.start_ps, three_messages_one_pair(true).workload.messages[f.flow].start.ps());
    EXPECT_GT(f.completed_ps, f.start_ps);
  }
  // The connection's counters are on its last message: 60 segments in all, none lost.
  EXPECT_EQ(shared.results.flows[0].segments_sent, 0u);
  EXPECT_EQ(shared.results.flows[3].segments_sent, 60u);
  EXPECT_EQ(shared.results.flows[3].syns_sent, 1u);
}

// A message due before the previous one of its pair waits for it, then follows it.
TEST(HostTcpPersistent, AMessageDueEarlyFollowsThePreviousOneOfItsPair) {
  NetworkSpec spec = one_flow(1);
  spec.workload.messages = {message(0, 0, 1, 10 * kMss, us(500)), message(1, 0, 1, 10 * kMss)};
  spec.workload.persistent_connections = true;
  const auto run = run_network(spec);
  ASSERT_EQ(run.results.flows.size(), 2u);
  const FlowRecord& first = run.results.flows[0];
  const FlowRecord& second = run.results.flows[1];
  EXPECT_EQ(second.start_ps, 0);
  EXPECT_GT(second.completed_ps, first.completed_ps);
  ASSERT_EQ(run.results.deliveries.size(), 2u);
  EXPECT_GT(run.results.deliveries[0].delivered_ps, us(500).ps());
  EXPECT_GT(run.results.deliveries[1].delivered_ps, run.results.deliveries[0].delivered_ps);
}

}  // namespace
}  // namespace netwarp::netmodels

namespace netwarp::netmodels {
namespace {

// An 8-sender incast into a 16 KiB buffer under ns-3's recovery and tie order: fast
// retransmits and timeouts both happen, every kernel agrees (run_network checks the digests
// of sequential, optimistic and reverse-check runs), and nothing is lost for good.
TEST(HostTcpNs3Classic, IncastRecoversAlikeInEveryKernel) {
  NetworkSpec spec;
  spec.topology = testing::star_topology(9, LinkSpec{gbps(1), us(5)});
  spec.switches.buffer_bytes = 16 * 1024;
  spec.switches.count_frame_in_service = false;
  spec.format.frame_overhead_bytes = 2;
  spec.format.syn_option_bytes = 4;
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.recovery = TcpRecovery::ns3_classic;
  spec.transport.tcp.rto_backoff_reset = RtoBackoffReset::on_new_ack;
  for (NodeId h = 1; h <= 8; ++h) spec.workload.messages.push_back(message(h - 1, h, 0, 200'000));
  const auto run = run_network(spec, SimTime::max(), false, engine::TieOrder::fifo_creator);
  EXPECT_EQ(run.totals.messages_delivered, 8u);
  EXPECT_GT(run.totals.fast_retransmits, 0u);
  EXPECT_GT(run.totals.retransmission_timeouts, 0u);
}

}  // namespace
}  // namespace netwarp::netmodels
