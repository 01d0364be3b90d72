// Traffic classes on switch output ports (SwitchConfig::classes): strict priority lets a
// high-priority flow through a port a low-priority flow saturates, DRR shares a saturated port
// by its weights, per-class limits drop and per-class thresholds mark in their class only.
// Every run is also checked under the optimistic kernel and the reverse check mode.
#include <gtest/gtest.h>

#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::us;
using testing::message;
using testing::run_network;

const LinkSpec kGigabit{gbps(1), us(1)};

PortClassConfig port_class(std::uint8_t priority, std::uint32_t weight = 1) {
  PortClassConfig c;
  c.priority = priority;
  c.weight = weight;
  return c;
}

Message with_priority(Message m, std::uint8_t priority) {
  m.priority = priority;
  return m;
}

NetworkSpec star_spec(std::vector<Message> messages) {
  NetworkSpec spec;
  spec.topology = testing::star_topology(3, kGigabit);
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

const PortClassRecord& class_record(const testing::NetworkRun& run, NodeId node, PortIndex port,
                                    std::uint8_t priority) {
  for (const PortClassRecord& r : run.results.port_classes)
    if (r.node == node && r.port == port && r.priority == priority) return r;
  static const PortClassRecord none;
  ADD_FAILURE() << "no record of class " << int{priority} << " at " << node << "." << port;
  return none;
}

// A low-priority flow from host0 saturates the switch port toward host2 (a standing queue
// grows: both hosts send at line rate); a short high-priority flow from host1 starts at 200 us.
std::vector<Message> saturated_port(std::uint8_t low, std::uint8_t high) {
  return {with_priority(message(0, 0, 2, 1'000'000), low),
          with_priority(message(1, 1, 2, 100'000, us(200)), high)};
}

TEST(TrafficClasses, StrictPriorityLetsTheHighFlowPassASaturatingLowFlow) {
  const auto solo = run_network(star_spec({with_priority(message(0, 1, 2, 100'000, us(200)), 7)}));
  NetworkSpec spec = star_spec(saturated_port(0, 7));
  spec.switches.classes = {port_class(0), port_class(7)};
  const auto run = run_network(spec);
  // At most one low packet (8 us at 1 Gbit/s) already on the wire when each burst arrives.
  EXPECT_LE(delivered_at(run, 1) - delivered_at(solo, 0), us(9).ps());
  EXPECT_GE(delivered_at(run, 1), delivered_at(solo, 0));
  const NodeId sw = 3;
  EXPECT_EQ(class_record(run, sw, 2, 7).bytes_sent, 100'000u);
  EXPECT_EQ(class_record(run, sw, 2, 0).bytes_sent, 1'000'000u);

  // One FIFO: the high flow waits behind the low flow's standing queue (200 us of it).
  const auto fifo = run_network(star_spec(saturated_port(0, 7)));
  EXPECT_GT(delivered_at(fifo, 1) - delivered_at(solo, 0), us(150).ps());
}

TEST(TrafficClasses, DrrWithWeightsThreeToOneSharesASaturatedPortThreeToOne) {
  NetworkSpec spec = star_spec({with_priority(message(0, 0, 2, 1'000'000), 3),
                                with_priority(message(1, 1, 2, 1'000'000), 1)});
  spec.switches.scheduler = PortScheduler::drr;
  spec.switches.classes = {port_class(1, 1), port_class(3, 3)};
  const auto run = run_network(spec, ms(4));  // both still sending at the end
  const NodeId sw = 3;
  const auto heavy = static_cast<double>(class_record(run, sw, 2, 3).bytes_sent);
  const auto light = static_cast<double>(class_record(run, sw, 2, 1).bytes_sent);
  EXPECT_NEAR(heavy / light, 3.0, 0.02 * 3.0);
  // The port was busy all along: 4 ms at 1 Gbit/s less the first packet's arrival.
  EXPECT_NEAR(heavy + light, 0.5e6, 2000);
}

TEST(TrafficClasses, DrrWithEqualWeightsAlternates) {
  NetworkSpec spec = star_spec({with_priority(message(0, 0, 2, 1'000'000), 5),
                                with_priority(message(1, 1, 2, 1'000'000), 2)});
  spec.switches.scheduler = PortScheduler::drr;
  spec.switches.classes = {port_class(5), port_class(2)};
  const auto run = run_network(spec, ms(4));
  const auto a = static_cast<double>(class_record(run, 3, 2, 5).bytes_sent);
  const auto b = static_cast<double>(class_record(run, 3, 2, 2).bytes_sent);
  EXPECT_NEAR(a / b, 1.0, 0.01);
}

TEST(TrafficClasses, AClassLimitDropsAndAClassThresholdMarksInThatClassOnly) {
  NetworkSpec spec = star_spec(
      {with_priority(message(0, 0, 2, 200'000), 0), with_priority(message(1, 1, 2, 200'000), 4)});
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.ecn = true;
  spec.transport.tcp.handshake = false;
  PortClassConfig low = port_class(0);
  low.buffer_bytes = 5000;  // five packets
  PortClassConfig high = port_class(4);
  high.ecn_threshold_bytes = 3000;
  spec.switches.scheduler = PortScheduler::drr;  // both classes get half: both build queues
  spec.switches.classes = {low, high};
  const auto run = run_network(spec);
  EXPECT_EQ(run.totals.messages_delivered, 2u);
  const NodeId sw = 3;
  const PortClassRecord& l = class_record(run, sw, 2, 0);
  const PortClassRecord& h = class_record(run, sw, 2, 4);
  EXPECT_EQ(l.ecn_marked, 0u);
  EXPECT_EQ(h.packets_dropped, 0u);
  EXPECT_LE(l.max_queue_bytes, 5000u);
  EXPECT_GT(h.ecn_marked, 0u);
  EXPECT_GT(l.packets_dropped, 0u);
}

TEST(TrafficClasses, APriorityNoClassNamesQueuesInTheLowestClass) {
  NetworkSpec spec = star_spec(saturated_port(6, 5));  // 6 is not a class: it goes to 2
  spec.switches.classes = {port_class(2), port_class(5)};
  const auto run = run_network(spec);
  EXPECT_EQ(class_record(run, 3, 2, 2).bytes_sent, 1'000'000u);
  EXPECT_EQ(class_record(run, 3, 2, 5).bytes_sent, 100'000u);
}

}  // namespace
}  // namespace netwarp::netmodels
