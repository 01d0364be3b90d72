// RoCEv2 over the packet network: a paced NIC at line rate, go-back-N after an injected drop
// (one NACK, the packets after the hole sent again) or a lost last packet (the timeout), an
// incast that PFC keeps lossless and that drops and retransmits without it, and DCQCN flows
// sharing a bottleneck fairly. Every run is checked sequential, optimistic and in the reverse
// check mode (network_fixtures.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "netwarp/netmodels/topology_builders.hpp"
#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;

NetworkSpec roce_star(std::uint32_t hosts, std::uint64_t rate_bps) {
  NetworkSpec spec;
  spec.topology =
      build_star(StarSpec{hosts}, LinkLevels{LinkSpec{rate_bps, us(1)}, {}}, "topology");
  spec.format = testing::plain_format(1000);
  spec.transport.kind = TransportKind::roce;
  spec.transport.roce.timeout = us(100);
  return spec;
}

using testing::flow_spec;

const FlowRecord& flow(const testing::NetworkRun& run, MessageId id) {
  const auto it = std::find_if(run.results.flows.begin(), run.results.flows.end(),
                               [&](const FlowRecord& f) { return f.flow == id; });
  if (it == run.results.flows.end()) {
    ADD_FAILURE() << "no record of flow " << id;
    static const FlowRecord none;
    return none;
  }
  return *it;
}

TEST(RoceTransport, SendsAMessageAtLineRateWithoutRetransmissions) {
  NetworkSpec spec = roce_star(2, gbps(10));
  spec.workload = make_flows({flow_spec(0, 1, 100000)}, 2, "workload");
  const auto run = testing::run_network(spec);
  ASSERT_EQ(run.totals.messages_delivered, 1u);
  const FlowRecord& f = flow(run, 0);
  EXPECT_EQ(f.segments_sent, 100u);
  EXPECT_EQ(f.retransmitted_segments, 0u);
  // 100 KB at 10 Gbit/s is 80 us; two links of 1 us, the last packet's ACK back.
  EXPECT_GT(f.completed_ps, us(80).ps());
  EXPECT_LT(f.completed_ps, us(86).ps());
}

TEST(RoceGoBackN, ADroppedPacketIsNackedOnceAndEverythingAfterItSentAgain) {
  NetworkSpec spec = roce_star(2, gbps(10));
  spec.workload = make_flows({flow_spec(0, 1, 100000)}, 2, "workload");
  spec.drops = {PacketDrop{0, 10, PacketKind::data}};
  const auto run = testing::run_network(spec);
  ASSERT_EQ(run.totals.messages_delivered, 1u);
  const FlowRecord& f = flow(run, 0);
  EXPECT_EQ(f.fast_retransmits, 1u);  // NACKs acted on
  EXPECT_EQ(f.timeouts, 0u);
  // Packet 10 and those sent while packet 11's NACK came back (4 links of 1 us, 0.8 us a
  // packet): 10 .. about 16.
  EXPECT_GE(f.retransmitted_segments, 5u);
  EXPECT_LE(f.retransmitted_segments, 9u);
  EXPECT_EQ(f.segments_sent, 100u + f.retransmitted_segments);
  ASSERT_EQ(run.results.receivers.size(), 1u);  // the packets after the hole, dropped there
  EXPECT_EQ(run.results.receivers[0].ooo_discarded_segments, f.retransmitted_segments - 1);
}

TEST(RoceGoBackN, ALostLastPacketIsSentAgainAfterTheTimeout) {
  NetworkSpec spec = roce_star(2, gbps(10));
  spec.workload = make_flows({flow_spec(0, 1, 100000)}, 2, "workload");
  spec.drops = {PacketDrop{0, 99, PacketKind::data}};
  const auto run = testing::run_network(spec);
  ASSERT_EQ(run.totals.messages_delivered, 1u);
  const FlowRecord& f = flow(run, 0);
  EXPECT_EQ(f.timeouts, 1u);
  EXPECT_EQ(f.fast_retransmits, 0u);
  EXPECT_EQ(f.retransmitted_segments, 1u);
  // The 100 us timeout counts from packet 98's ACK (about 83 us).
  EXPECT_GT(f.completed_ps, us(180).ps());
  EXPECT_LT(f.completed_ps, us(190).ps());
}

// 8 senders x 50 KB into one host through a switch with a 200 KB shared buffer; PFC pauses a
// sender's link above 10 KB of its packets in the switch.
NetworkSpec small_incast(bool pfc) {
  NetworkSpec spec = roce_star(9, gbps(10));
  spec.transport.roce.timeout = us(4000);  // paused packets are late, not lost
  spec.workload = make_incast(IncastSpec{8, 8, 50000, SimTime{}}, 9, "workload");
  spec.switches.ecn_threshold_bytes = 20000;
  spec.switches.shared_buffer = SharedBufferConfig{200000, 1, 0};
  PortClassConfig lossless;
  lossless.lossless = pfc;
  spec.switches.classes = {lossless};
  if (pfc) spec.switches.pfc = PfcConfig{true, 10000, 5000, 0, 65535};  // headroom: the link's
  return spec;
}

std::uint64_t pause_frames(const testing::NetworkRun& run) {
  std::uint64_t frames = 0;
  for (const PortClassRecord& r : run.results.port_classes) frames += r.pause_frames_sent;
  return frames;
}

TEST(RoceIncast, PfcKeepsItLosslessAndWithoutItGoBackNRecovers) {
  const auto with = testing::run_network(small_incast(true));
  EXPECT_EQ(with.totals.messages_delivered, 8u);
  EXPECT_EQ(with.totals.packets_dropped, 0u);
  EXPECT_GT(pause_frames(with), 0u);
  for (const FlowRecord& f : with.results.flows) EXPECT_EQ(f.retransmitted_segments, 0u);
  const auto without = testing::run_network(small_incast(false));
  EXPECT_EQ(without.totals.messages_delivered, 8u);
  EXPECT_GT(without.totals.packets_dropped, 0u);
  EXPECT_EQ(pause_frames(without), 0u);
  std::uint64_t retransmitted = 0;
  for (const FlowRecord& f : without.results.flows) retransmitted += f.retransmitted_segments;
  EXPECT_GE(retransmitted, without.totals.packets_dropped);
}

// N senders into one receiver (10 Gbit/s unless said), starting 50 us apart so that each
// newcomer has to win its share from the others. The switch marks ECN above 40 KB (a step
// threshold), decided at dequeue as the ns-3 DCQCN code does; DCQCN has the paper's defaults.
// Over the run's second half each flow's throughput at the bottleneck (its packets leaving the
// switch toward the receiver) is its rate, and the queue stays near the threshold.
struct Fairness {
  double jain = 0;
  double worst_deviation = 0;  // the largest |rate / fair share - 1|
  double utilisation = 0;
  std::uint64_t max_queue_bytes = 0;  // over the second half
};

Fairness dcqcn_fairness(std::uint32_t senders, SimTime end, std::uint64_t rate_bps = gbps(10)) {
  NetworkSpec spec = roce_star(senders + 1, rate_bps);
  spec.transport.roce.timeout = us(4000);
  spec.switches.ecn_threshold_bytes = 40000;
  spec.switches.mark_at = MarkAt::dequeue;
  const PortRef bottleneck{senders + 1, static_cast<PortIndex>(senders)};
  spec.outputs.pcap_ports = {bottleneck};
  spec.outputs.queue_ports = {bottleneck};
  std::vector<FlowSpec> flows;
  for (NodeId s = 0; s < senders; ++s)
    flows.push_back(flow_spec(s, senders, 1'000'000'000, SimTime::from_ps(us(50).ps() * s)));
  spec.workload = make_flows(flows, senders + 1, "workload");
  // Sequential only, for time: the other tests check these paths in every kernel mode.
  const auto run = testing::run_network(spec, end, true);
  EXPECT_EQ(run.totals.packets_dropped, 0u);
  std::map<MessageId, double> bytes;
  for (const PacketTrace& t : run.results.packet_traces)
    if (t.time_ps >= end.ps() / 2 && t.packet.kind == PacketKind::data)
      bytes[t.packet.flow] += t.packet.wire_bytes;
  Fairness f;
  const double half_s = end.to_seconds() / 2;
  const double share = static_cast<double>(rate_bps) / senders;
  double sum = 0;
  double squares = 0;
  for (MessageId id = 0; id < senders; ++id) {
    const double rate = bytes[id] * 8 / half_s;
    sum += rate;
    squares += rate * rate;
    f.worst_deviation = std::max(f.worst_deviation, std::abs(rate / share - 1));
  }
  f.jain = sum * sum / (senders * squares);
  f.utilisation = sum / static_cast<double>(rate_bps);
  for (const QueueSample& q : run.results.queue_samples)
    if (q.time_ps >= end.ps() / 2) f.max_queue_bytes = std::max(f.max_queue_bytes, q.bytes);
  std::printf("DCQCN N=%u: Jain %.4f, worst deviation %.4f, utilisation %.4f, queue <= %llu B\n",
              senders, f.jain, f.worst_deviation, f.utilisation,
              static_cast<unsigned long long>(f.max_queue_bytes));
  return f;
}

TEST(RoceDcqcn, TwoFlowsConvergeToTheirFairShare) {
  const Fairness f = dcqcn_fairness(2, engine::ms(4));
  EXPECT_GE(f.jain, 0.95);
  EXPECT_LE(f.worst_deviation, 0.10);
  EXPECT_GE(f.utilisation, 0.90);
  EXPECT_LE(f.max_queue_bytes, 60000u);  // near the marking threshold, not the overshoot's MB
}

// Jain's index is the measure. One flow's share is not within 10 %: with the paper's
// defaults 8 flows keep offsets of 15-19 % over 40 ms (which flow gains depends on the start
// times; validation/reports/dcqcn/README.md section 2), so the bound is on gross unfairness.
TEST(RoceDcqcn, EightFlowsConvergeToTheirFairShare) {
  const Fairness f = dcqcn_fairness(8, engine::ms(8));
  EXPECT_GE(f.jain, 0.95);
  EXPECT_LE(f.worst_deviation, 0.25);
  EXPECT_GE(f.utilisation, 0.90);
  EXPECT_LE(f.max_queue_bytes, 60000u);  // near the marking threshold, not the overshoot's MB
}

// A thin share (125 Mbit/s: a 1 KB packet every 64 us, longer than the 55 us rate timer): the
// NIC applies every rate change to the packet it holds back (RoceTransport::retime), so the
// senders' rates add up to the line and it stays busy. Timing the next packet at the old rate
// left flows whose rate had recovered waiting out the long gap of a cut: 96.6 % busy.
TEST(RoceDcqcn, AThinShareKeepsTheLineBusy) {
  const Fairness f = dcqcn_fairness(8, engine::ms(20), gbps(1));
  EXPECT_GE(f.jain, 0.95);
  EXPECT_GE(f.utilisation, 0.99);
}

}  // namespace
}  // namespace netwarp::netmodels
