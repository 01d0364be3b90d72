// RED ECN marking and the marking point (SwitchConfig::red, mark_at). On one class queue held at
// a fixed length, RED marks with its linear profile between the thresholds (each level's
// marked fraction within 4 standard deviations of the profile); enqueue marking marks the
// arrivals that find a queue, dequeue marking the packets that leave one behind. In a network
// run (also under the optimistic kernel and the reverse check mode), RED with an averaged queue
// marks a TCP incast's packets and holds its queue below the unmarked run's.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/reversible_harness.hpp"
#include "network_fixtures.hpp"
#include "port/class_queues.hpp"
#include "port/red.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;

// Builds a fresh event context per call, each with its own random stream (its seed).
class Events {
 public:
  engine::EventCtx next() {
    scope_.seed = ++count_;
    scope_.key = engine::EventKey{us(1), 2, count_};
    return engine::EventCtx(scope_);
  }

 private:
  std::uint64_t count_ = 0;
  std::uint64_t sends_ = 0;
  engine::RecordBuffer records_;
  engine::testing::NullRouter router_;
  engine::EventScope scope_ = [this] {
    engine::EventScope s;
    s.self = 1;
    s.send_counter = &sends_;
    s.records = &records_;
    s.router = &router_;
    return s;
  }();
};

Packet data_packet(bool ect) {
  Packet p;
  p.wire_bytes = 1000;
  p.flags = ect ? packet_flags::ect : 0;
  return p;
}

ClassQueues one_class(const RedConfig* red, std::uint64_t step, MarkAt at) {
  static const std::vector<PortClassConfig> classes{PortClassConfig{}};
  return ClassQueues(classes, PortScheduler::strict_priority, 1000, 0, step, red, at, gbps(1));
}

TEST(RedMarking, MarksWithTheLinearProfileBetweenTheThresholds) {
  const RedConfig red{10'000, 30'000, 0.5, 0};
  const int trials = 4000;
  for (const std::uint64_t level : {5'000u, 10'000u, 15'000u, 20'000u, 25'000u, 30'000u}) {
    Events events;
    ClassQueues queues = one_class(&red, 0, MarkAt::enqueue);
    for (std::uint64_t b = 0; b < level; b += 1000) {
      engine::EventCtx ctx = events.next();
      queues.push(0, data_packet(false), ctx);
    }
    int marked = 0;
    for (int i = 0; i < trials; ++i) {
      engine::EventCtx ctx = events.next();
      Packet p = data_packet(true);
      const bool is_marked = queues.mark(0, p, ctx);
      EXPECT_EQ(is_marked, (p.flags & packet_flags::ce) != 0);
      marked += is_marked ? 1 : 0;
    }
    const double p = red_probability(red, static_cast<double>(level));
    const double sd = std::sqrt(p * (1 - p) / trials);
    EXPECT_NEAR(static_cast<double>(marked) / trials, p, 4 * sd + 1e-9) << level << " B";
  }
  EXPECT_DOUBLE_EQ(red_probability(red, 20'000), 0.25);
  EXPECT_DOUBLE_EQ(red_probability(red, 9'999), 0);
  EXPECT_DOUBLE_EQ(red_probability(red, 30'000), 1);
}

TEST(RedMarking, NonEcnCapablePacketsAreNeverMarked) {
  const RedConfig red{0, 1000, 1, 0};
  Events events;
  ClassQueues queues = one_class(&red, 0, MarkAt::enqueue);
  engine::EventCtx ctx = events.next();
  queues.push(0, data_packet(false), ctx);
  Packet p = data_packet(false);
  EXPECT_FALSE(queues.mark(0, p, ctx));
  EXPECT_EQ(p.flags & packet_flags::ce, 0);
}

// The averaged queue follows RFC 2309's filter and decays over idle time.
TEST(RedMarking, TheAverageFollowsTheEwmaAndDecaysWhenIdle) {
  EXPECT_DOUBLE_EQ(red_average(0, 0.5, 1000, 0), 500);
  EXPECT_DOUBLE_EQ(red_average(500, 0.5, 1000, 0), 750);
  EXPECT_DOUBLE_EQ(red_average(800, 0.5, 0, 2), 100);  // 800 x 0.25, then half of it
}

// Three back-to-back packets, step threshold 1500 B: on arrival the third sees 2000 B queued;
// on departure the first leaves 2000 B behind. Dequeue marking signals one packet-time earlier.
TEST(RedMarking, EnqueueMarksLateArrivalsDequeueMarksTheHead) {
  for (const MarkAt at : {MarkAt::enqueue, MarkAt::dequeue}) {
    Events events;
    ClassQueues queues = one_class(nullptr, 1500, at);
    std::vector<bool> marked_on_arrival;
    for (int i = 0; i < 3; ++i) {
      engine::EventCtx ctx = events.next();
      Packet p = data_packet(true);
      marked_on_arrival.push_back(queues.mark(0, p, ctx));
      queues.push(0, p, ctx);
    }
    std::vector<bool> ce;
    std::vector<bool> marked_on_departure;
    for (int i = 0; i < 3; ++i) {
      engine::EventCtx ctx = events.next();
      bool marked = false;
      const Packet p = queues.pop_next(ctx, marked);
      ce.push_back((p.flags & packet_flags::ce) != 0);
      marked_on_departure.push_back(marked);
    }
    if (at == MarkAt::enqueue) {
      EXPECT_EQ(marked_on_arrival, (std::vector<bool>{false, false, true}));
      EXPECT_EQ(ce, (std::vector<bool>{false, false, true}));
      EXPECT_EQ(marked_on_departure, (std::vector<bool>{false, false, false}));
    } else {
      EXPECT_EQ(marked_on_arrival, (std::vector<bool>{false, false, false}));
      EXPECT_EQ(ce, (std::vector<bool>{true, false, false}));
      EXPECT_EQ(marked_on_departure, ce);
    }
  }
}

NetworkSpec ecn_incast() {
  NetworkSpec spec;
  spec.topology = testing::star_topology(5, LinkSpec{gbps(1), us(1)});
  spec.format = testing::plain_format(1000);
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.ecn = true;
  spec.transport.tcp.handshake = false;
  spec.workload.kind = "flows";
  for (MessageId i = 0; i < 4; ++i)
    spec.workload.messages.push_back(testing::message(i, i, 4, 150'000));
  return spec;
}

TEST(RedMarking, RedOnAnAveragedQueueMarksAnIncastAndHoldsItsQueue) {
  const auto unmarked = testing::run_network(ecn_incast());
  for (const MarkAt at : {MarkAt::enqueue, MarkAt::dequeue}) {
    NetworkSpec spec = ecn_incast();
    spec.switches.red = RedConfig{5'000, 20'000, 0.2, 0.1};
    spec.switches.mark_at = at;
    const auto run = testing::run_network(spec);
    EXPECT_EQ(run.totals.messages_delivered, 4u);
    EXPECT_GT(run.totals.ecn_marked, 0u);
    const NodeId sw = 5;
    std::uint64_t max_queue = 0;
    std::uint64_t unmarked_max_queue = 0;
    for (const PortRecord& r : run.results.ports)
      if (r.node == sw && r.port == 4) max_queue = r.max_queue_bytes;
    for (const PortRecord& r : unmarked.results.ports)
      if (r.node == sw && r.port == 4) unmarked_max_queue = r.max_queue_bytes;
    EXPECT_LT(max_queue, unmarked_max_queue / 2) << (at == MarkAt::dequeue ? "dequeue" : "");
  }
}

}  // namespace
}  // namespace netwarp::netmodels
