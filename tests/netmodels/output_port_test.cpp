// Packet timing through output ports: store-and-forward latency, pipelining, fair sharing,
// max-min with back-pressure, drop-tail overflow and credit flow control. Every run is also
// checked under the optimistic kernel and the reverse check mode (network_fixtures.hpp).
#include <gtest/gtest.h>

#include <set>

#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;
using testing::message;
using testing::run_network;

const LinkSpec kGigabit{gbps(1), us(1)};

NetworkSpec lossless_spec(Topology topology, std::vector<Message> messages) {
  NetworkSpec spec;
  spec.topology = std::move(topology);
  spec.format = testing::plain_format(1000);
  spec.transport.kind = TransportKind::lossless;
  spec.workload.kind = "flows";
  spec.workload.messages = std::move(messages);
  return spec;
}

std::int64_t delivered_at(const testing::NetworkRun& run, MessageId id) {
  for (const DeliveryRecord& d : run.results.deliveries)
    if (d.message == id) return d.delivered_ps;
  ADD_FAILURE() << "message " << id << " was not delivered";
  return -1;
}

TEST(OutputPort, OnePacketTakesSerialisationPlusPropagationPerHop) {
  for (int hops : {2, 3, 5}) {
    const auto run = run_network(
        lossless_spec(testing::line_topology(hops, kGigabit), {message(0, 0, 1, 1000)}));
    // 1000 B at 1 Gbit/s = 8 us, plus 1 us of propagation, on every hop.
    EXPECT_EQ(delivered_at(run, 0), hops * us(9).ps()) << hops << " hops";
  }
}

TEST(OutputPort, AMessageOnAnIdlePathCompletesAtThePipelinedClosedForm) {
  const int hops = 3;
  const int packets = 5;
  const auto run = run_network(
      lossless_spec(testing::line_topology(hops, kGigabit), {message(0, 0, 1, packets * 1000)}));
  // The last packet leaves the sender after k serialisations, then h - 1 more store-and-
  // forward serialisations and h propagation delays.
  EXPECT_EQ(delivered_at(run, 0), (packets + hops - 1) * us(8).ps() + hops * us(1).ps());
}

TEST(OutputPort, TwoFlowsIntoOnePortShareItEqually) {
  const std::uint64_t bytes = 1'000'000;
  const auto run = run_network(lossless_spec(testing::star_topology(3, kGigabit),
                                             {message(0, 0, 2, bytes), message(1, 1, 2, bytes)}));
  const double solo = static_cast<double>(bytes) * 8 / 1e9 * 1e12;  // ps at 1 Gbit/s
  for (MessageId id : {0u, 1u})
    EXPECT_NEAR(static_cast<double>(delivered_at(run, id)), 2 * solo, 0.01 * 2 * solo);
}

TEST(OutputPort, AFlowLimitedElsewhereLeavesTheRestToTheOther) {
  NetworkSpec spec = lossless_spec(testing::star_topology(3, kGigabit),
                                   {message(0, 0, 2, 1'000'000), message(1, 1, 2, 375'000)});
  spec.topology.nodes[0].ports[0].rate_bps = mbps(250);  // flow 0 is held to 1/4 at its host
  spec.switches.flow_control = FlowControl::credit;
  spec.switches.buffer_bytes = 4000;
  const auto run = run_network(spec);
  // Max-min: flow 1 gets the remaining 750 Mbit/s of the shared port while flow 0 runs.
  const double expected = 375'000 * 8 / 750e6 * 1e12;
  EXPECT_NEAR(static_cast<double>(delivered_at(run, 1)), expected, 0.01 * expected);
  const double limited = 1'000'000 * 8 / 250e6 * 1e12;
  EXPECT_NEAR(static_cast<double>(delivered_at(run, 0)), limited, 0.01 * limited);
}

NetworkSpec incast_spec(std::uint32_t senders, int packets_each) {
  std::vector<Message> messages;
  for (NodeId s = 0; s < senders; ++s)
    messages.push_back(message(s, s, senders, static_cast<std::uint64_t>(packets_each) * 1000));
  return lossless_spec(testing::star_topology(senders + 1, kGigabit), std::move(messages));
}

const PortRecord& port_toward(const testing::NetworkRun& run, NodeId node, NodeId peer) {
  for (const PortRecord& p : run.results.ports)
    if (p.node == node && p.peer == peer) return p;
  throw std::logic_error("no such port");
}

TEST(OutputPort, DropTailDropsExactlyWhatOverflows) {
  // 4 senders, 3 packets each, buffer of 2 packets at the receiver's port. Each 8 us round
  // brings 4 packets: the first round fills the buffer (2 in, 2 dropped), later rounds admit
  // one (the one that departed): 2 + 1 + 1 admitted, 8 dropped.
  for (bool in_bytes : {false, true}) {
    NetworkSpec spec = incast_spec(4, 3);
    if (in_bytes) {
      spec.switches.buffer_bytes = 2000;
    } else {
      spec.switches.buffer_packets = 2;
    }
    for (engine::TieOrder ties : {engine::TieOrder::fifo, engine::TieOrder::creator}) {
      const auto run = run_network(spec, SimTime::max(), false, ties);
      const PortRecord& port = port_toward(run, 5, 4);
      EXPECT_EQ(port.packets_dropped, 8u);
      EXPECT_EQ(port.bytes_dropped, 8000u);
      EXPECT_EQ(port.packets_sent, 4u);
      EXPECT_EQ(port.max_queue_packets, 2u);
      EXPECT_EQ(run.totals.packets_dropped, 8u);
    }
  }
}

// Packets of four senders meet the full port at the same instants. Under creator order the
// lowest senders take every free slot whatever the seed (0 and 1 the first round's two, then 0
// alone); under FIFO ties the seeded draw spreads them over all four.
TEST(OutputPort, SimultaneousArrivalsAtAFullPortFavourNoSenderUnderFifoTies) {
  NetworkSpec spec = incast_spec(4, 3);
  spec.switches.buffer_packets = 2;
  spec.outputs.pcap_nodes = {4};  // the receiver's arrivals say whose packets got through
  const auto senders_through = [&](engine::TieOrder ties, std::uint64_t seed) {
    const auto run = run_network(spec, SimTime::max(), false, ties, seed);
    std::set<NodeId> through;
    for (const PacketTrace& t : run.results.packet_traces)
      if (t.direction == trace_direction::received && t.packet.kind == PacketKind::data)
        through.insert(t.packet.src);
    return through;
  };
  std::set<NodeId> over_seeds;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    EXPECT_EQ(senders_through(engine::TieOrder::creator, seed), (std::set<NodeId>{0, 1}));
    const std::set<NodeId> through = senders_through(engine::TieOrder::fifo, seed);
    EXPECT_GT(through.size(), 1u) << "seed " << seed;
    over_seeds.insert(through.begin(), through.end());
  }
  EXPECT_EQ(over_seeds.size(), 4u);
}

// The same incast as above (arrivals at 9, 17 and 25 us; departures at 17, 25 ...): whether
// the frame on the wire counts against the 2-packet buffer, and whether an arrival at 17 us is
// admitted before the departure of that instant frees its slot, decide how many get through.
TEST(OutputPort, QueueAccountingAndSameInstantOrderDecideWhatFits) {
  struct Case {
    bool count_in_service;
    bool arrival_first;
    std::uint64_t sent;
  };
  for (const Case c :
       {Case{true, false, 4}, Case{false, false, 5}, Case{true, true, 3}, Case{false, true, 4}}) {
    NetworkSpec spec = incast_spec(4, 3);
    spec.switches.buffer_packets = 2;
    spec.switches.count_frame_in_service = c.count_in_service;
    spec.switches.arrival_first = c.arrival_first;
    const auto run = run_network(spec);
    const PortRecord& port = port_toward(run, 5, 4);
    EXPECT_EQ(port.packets_sent, c.sent) << c.count_in_service << c.arrival_first;
    EXPECT_EQ(port.packets_dropped, 12 - c.sent) << c.count_in_service << c.arrival_first;
  }
}

// SwitchConfig::mark_ns3_red, ns-3's RedQueueDisc in front of a one-packet device queue: its
// byte limit counts the IP bytes (no frame overhead) of what waits behind the frame on the wire
// and the next one. The same incast with 38 B of overhead per frame and a 1000 B limit: the
// first round admits three (wire, device queue, queue disc: 1000 B), every later round one
// (departure first) or, when arrivals come before the departure of their instant, none at the
// second round (the queue disc still holds its packet).
TEST(OutputPort, Ns3RedLimitCountsIpBytesBehindTheNextFrame) {
  for (const bool arrival_first : {false, true}) {
    NetworkSpec spec = incast_spec(4, 3);
    spec.format.frame_overhead_bytes = 38;
    spec.switches.buffer_bytes = 1000;
    spec.switches.count_frame_in_service = false;
    spec.switches.arrival_first = arrival_first;
    spec.switches.mark_ns3_red = true;
    const auto run = run_network(spec);
    const PortRecord& port = port_toward(run, 5, 4);
    EXPECT_EQ(port.packets_sent, arrival_first ? 4u : 5u) << arrival_first;
    EXPECT_EQ(port.packets_dropped, arrival_first ? 8u : 7u) << arrival_first;
  }
}

// At the threshold ns-3's RED marks what is ECN-capable and drops the rest (the lossless
// transport sends nothing ECN-capable); below it everything passes. Unlimited buffer: each
// round admits while the queue disc holds less than 1000 B (as above: 3, 1, 1).
TEST(OutputPort, Ns3RedDropsAtTheThresholdWhatCannotBeMarked) {
  NetworkSpec spec = incast_spec(4, 3);
  spec.switches.ecn_threshold_bytes = 1000;
  spec.switches.count_frame_in_service = false;
  spec.switches.mark_ns3_red = true;
  const auto run = run_network(spec);
  EXPECT_EQ(port_toward(run, 5, 4).packets_sent, 5u);
  EXPECT_EQ(run.totals.packets_dropped, 7u);
  EXPECT_EQ(run.totals.ecn_marked, 0u);
  spec.switches.mark_ns3_red = false;  // netwarp's step marking lets them pass unmarked
  EXPECT_EQ(run_network(spec).totals.packets_dropped, 0u);
}

TEST(OutputPort, CreditFlowControlDropsNothingAndDeliversEverything) {
  NetworkSpec spec = incast_spec(4, 3);
  spec.switches.flow_control = FlowControl::credit;
  spec.switches.buffer_bytes = 2000;
  const auto run = run_network(spec);
  EXPECT_EQ(run.totals.packets_dropped, 0u);
  EXPECT_EQ(run.totals.messages_delivered, 4u);
  EXPECT_EQ(port_toward(run, 5, 4).packets_sent, 12u);
  // The bottleneck port never idles once the first packet is in: 12 packets back to back.
  EXPECT_EQ(run.totals.completion_time_ps, us(9).ps() + 12 * us(8).ps() + us(1).ps());
}

TEST(OutputPort, MarksCongestionAboveTheEcnThreshold) {
  NetworkSpec spec = incast_spec(4, 3);
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.ecn = true;
  spec.switches.ecn_threshold_bytes = 2000;
  const auto run = run_network(spec);
  EXPECT_GT(run.totals.ecn_marked, 0u);
  EXPECT_EQ(run.totals.messages_delivered, 4u);
}

TEST(OutputPort, QueueTraceFollowsOccupancy) {
  NetworkSpec spec = incast_spec(2, 2);
  spec.outputs.queue_ports.push_back(PortRef{3, 2});  // the switch's port to the receiver
  const auto run = run_network(spec);
  ASSERT_FALSE(run.results.queue_samples.empty());
  std::uint64_t peak = 0;
  for (const QueueSample& s : run.results.queue_samples) peak = std::max(peak, s.packets);
  EXPECT_EQ(peak, 3u);  // 2 arrive at 9 us; at 17 us one leaves as 2 more arrive
  EXPECT_EQ(run.results.queue_samples.back().packets, 0u);  // drained by the end
}

}  // namespace
}  // namespace netwarp::netmodels
