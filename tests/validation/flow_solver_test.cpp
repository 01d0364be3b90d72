// FlowSolver on hand-built link sets: Mode F and Mode N (max-min) rates worked out by hand,
// completion times, lazy progress, and the incremental API's contract.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "netwarp/validation/flow_solver.hpp"

namespace netwarp::validation {
namespace {

FlowNetwork links_of(std::vector<double> capacities) {
  std::vector<FlowLink> links;
  for (const double c : capacities) links.push_back(FlowLink{c, 0, netmodels::kNoNode, 0});
  return FlowNetwork(std::move(links));
}

using Route = std::vector<FlowLinkId>;

// FLOW-MFS.md's example, all links 1: f0 and f1 share l0; f0 is held to 1/3 on l1 (shared with
// f2 and f3). Mode F: f1 gets 1/2 of l0; Mode N: it also gets the 1/6 f0 cannot use: 2/3.
void add_paper_example(FlowSolver& solver, double f1_bytes) {
  solver.add_flow(0, Route{0, 1}, 1);
  solver.add_flow(1, Route{0}, f1_bytes);
  solver.add_flow(2, Route{1}, 1);
  solver.add_flow(3, Route{1}, 1);
}

TEST(FlowSolver, PaperExampleGivesOneHalfInModeFAndTwoThirdsInModeN) {
  const FlowNetwork net = links_of({1, 1});
  FlowSolver f(net, FlowMode::fair_share);
  add_paper_example(f, 2);
  EXPECT_DOUBLE_EQ(f.rate(0), 1.0 / 3);
  EXPECT_DOUBLE_EQ(f.rate(1), 1.0 / 2);
  EXPECT_DOUBLE_EQ(f.rate(2), 1.0 / 3);
  FlowSolver n(net, FlowMode::max_min);
  add_paper_example(n, 2);
  EXPECT_DOUBLE_EQ(n.rate(0), 1.0 / 3);
  EXPECT_DOUBLE_EQ(n.rate(1), 2.0 / 3);
  EXPECT_DOUBLE_EQ(n.rate(3), 1.0 / 3);
  EXPECT_EQ(n.stats().max_min_rounds, 2u);  // l1 saturates at 1/3, then l0 at 2/3
}

// Run to the end, returning each flow's completion time by id.
std::vector<double> finish_times(FlowSolver& solver, std::size_t flows) {
  std::vector<double> at(flows, -1);
  std::vector<FlowId> done;
  while (const auto next = solver.next_completion()) {
    solver.advance_to(next->time_s);
    done.clear();
    solver.take_finished(done);
    for (const FlowId id : done) at[id] = solver.now_s();
  }
  return at;
}

TEST(FlowSolver, PaperExampleCompletionTimes) {
  // Mode N: f0, f2, f3 send 1 byte at 1/3 and f1 2 bytes at 2/3: all done at 3 s.
  // Mode F: f1 sends 1.5 bytes at 1/2 by 3 s, then its last 0.5 byte alone at 1: 3.5 s.
  const FlowNetwork net = links_of({1, 1});
  FlowSolver n(net, FlowMode::max_min);
  add_paper_example(n, 2);
  const auto tn = finish_times(n, 4);
  for (const double t : tn) EXPECT_NEAR(t, 3.0, 1e-12);
  FlowSolver f(net, FlowMode::fair_share);
  add_paper_example(f, 2);
  const auto tf = finish_times(f, 4);
  EXPECT_NEAR(tf[0], 3.0, 1e-12);
  EXPECT_NEAR(tf[1], 3.5, 1e-12);
}

TEST(FlowSolver, MaxMinGivesTheBottleneckSurplusToTheOtherLinkFlows) {
  // Link A (1) carries x and y; link B (2) carries y, z, w. A is the bottleneck: x = y = 1/2;
  // B's remaining 1.5 goes to z and w: 3/4 each. Mode F gives z and w 2/3 and leaves 1/6 idle.
  const FlowNetwork net = links_of({1, 2});
  for (const FlowMode mode : {FlowMode::fair_share, FlowMode::max_min}) {
    FlowSolver s(net, mode);
    s.add_flow(10, Route{0}, 1);
    s.add_flow(11, Route{0, 1}, 1);
    s.add_flow(12, Route{1}, 1);
    s.add_flow(13, Route{1}, 1);
    EXPECT_DOUBLE_EQ(s.rate(10), 0.5);
    EXPECT_DOUBLE_EQ(s.rate(11), 0.5);
    const double zw = mode == FlowMode::max_min ? 0.75 : 2.0 / 3;
    EXPECT_DOUBLE_EQ(s.rate(12), zw);
    EXPECT_DOUBLE_EQ(s.rate(13), zw);
  }
}

TEST(FlowSolver, ModesAgreeWhereEveryLinkIsEquallyShared) {
  // Parking lot: a long flow over three unit links, one short flow on each: 1/2 for all.
  const FlowNetwork net = links_of({1, 1, 1});
  for (const FlowMode mode : {FlowMode::fair_share, FlowMode::max_min}) {
    FlowSolver s(net, mode);
    s.add_flow(0, Route{0, 1, 2}, 1);
    for (FlowLinkId k = 0; k < 3; ++k) s.add_flow(1 + k, Route{k}, 1);
    for (FlowId id = 0; id < 4; ++id) EXPECT_DOUBLE_EQ(s.rate(id), 0.5);
  }
}

TEST(FlowSolver, MaxMinWithThreeLevels) {
  // l0 (cap 1): a, b, c. l1 (cap 4): c, d. l2 (cap 10): d, e.
  // l0 saturates first at 1/3 (a, b, c); l1 then has 4 - 1/3 = 11/3 for d; l2 gives e the rest,
  // 10 - 11/3 = 19/3. Three rounds. Mode F: d = min(4/2, 10/2) = 2, e = 5.
  const FlowNetwork net = links_of({1, 4, 10});
  FlowSolver n(net, FlowMode::max_min);
  n.add_flow(0, Route{0}, 1);
  n.add_flow(1, Route{0}, 1);
  n.add_flow(2, Route{0, 1}, 1);
  n.add_flow(3, Route{1, 2}, 1);
  n.add_flow(4, Route{2}, 1);
  EXPECT_DOUBLE_EQ(n.rate(2), 1.0 / 3);
  EXPECT_DOUBLE_EQ(n.rate(3), 11.0 / 3);
  EXPECT_DOUBLE_EQ(n.rate(4), 19.0 / 3);
  EXPECT_EQ(n.stats().max_min_rounds_max, 3u);
  FlowSolver f(net, FlowMode::fair_share);
  f.add_flow(2, Route{0, 1}, 1);
  f.add_flow(3, Route{1, 2}, 1);
  f.add_flow(4, Route{2}, 1);
  f.add_flow(0, Route{0}, 1);
  EXPECT_DOUBLE_EQ(f.rate(2), 0.5);
  EXPECT_DOUBLE_EQ(f.rate(3), 2.0);
  EXPECT_DOUBLE_EQ(f.rate(4), 5.0);
}

// Max-min fairness by its definition, on seeded random link sets: no link is overfull, every
// flow has a bottleneck (a full link on its route where no flow gets more than it does), and no
// flow gets less than its Mode F rate (its least per-link even share).
TEST(FlowSolver, MaxMinRatesHaveABottleneckForEveryFlow) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 50; ++trial) {
    const int link_count = 3 + static_cast<int>(rng() % 10);
    std::vector<double> capacity;
    for (int k = 0; k < link_count; ++k) capacity.push_back(1.0 + static_cast<double>(rng() % 8));
    const FlowNetwork net = links_of(capacity);
    FlowSolver n(net, FlowMode::max_min);
    FlowSolver f(net, FlowMode::fair_share);
    std::vector<Route> routes;
    const int flow_count = 1 + static_cast<int>(rng() % 15);
    for (int i = 0; i < flow_count; ++i) {
      Route r;
      for (FlowLinkId k = 0; k < capacity.size(); ++k)
        if (rng() % 3 == 0) r.push_back(k);
      if (r.empty()) r.push_back(static_cast<FlowLinkId>(rng() % capacity.size()));
      routes.push_back(r);
      n.add_flow(static_cast<FlowId>(i), r, 1);
      f.add_flow(static_cast<FlowId>(i), r, 1);
    }
    std::vector<double> load(capacity.size(), 0), top(capacity.size(), 0);
    for (int i = 0; i < flow_count; ++i)
      for (const FlowLinkId k : routes[static_cast<std::size_t>(i)]) {
        load[k] += n.rate(static_cast<FlowId>(i));
        top[k] = std::max(top[k], n.rate(static_cast<FlowId>(i)));
      }
    for (std::size_t k = 0; k < capacity.size(); ++k) EXPECT_LE(load[k], capacity[k] * (1 + 1e-12));
    for (int i = 0; i < flow_count; ++i) {
      const double rate = n.rate(static_cast<FlowId>(i));
      bool has_bottleneck = false;
      for (const FlowLinkId k : routes[static_cast<std::size_t>(i)])
        has_bottleneck |= load[k] >= capacity[k] * (1 - 1e-12) && rate >= top[k] * (1 - 1e-12);
      EXPECT_TRUE(has_bottleneck) << "trial " << trial << " flow " << i;
      EXPECT_GE(rate, f.rate(static_cast<FlowId>(i)) * (1 - 1e-12));
    }
  }
}

TEST(FlowSolver, SingleFlowFinishesAtBytesOverBandwidth) {
  const FlowNetwork net = links_of({1e9, 2e9});
  FlowSolver s(net, FlowMode::fair_share);
  s.add_flow(5, Route{1, 0}, 20000);
  const auto next = s.next_completion();
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->id, 5u);
  EXPECT_EQ(seconds_to_ps(next->time_s), 20'000'000);  // 20 us at the 1 GB/s link
}

TEST(FlowSolver, RatesRiseWhenASharingFlowFinishes) {
  // Two flows on one 1 GB/s link, 10 kB and 20 kB: 0.5 GB/s each until 20 us, then the second
  // sends its last 10 kB alone in 10 us.
  const FlowNetwork net = links_of({1e9});
  FlowSolver s(net, FlowMode::fair_share);
  s.add_flow(1, Route{0}, 10000);
  s.add_flow(2, Route{0}, 20000);
  const auto t = finish_times(s, 3);
  EXPECT_EQ(seconds_to_ps(t[1]), 20'000'000);
  EXPECT_EQ(seconds_to_ps(t[2]), 30'000'000);
}

TEST(FlowSolver, AdvanceSubtractsBytesAtCurrentRates) {
  const FlowNetwork net = links_of({100});
  FlowSolver s(net, FlowMode::max_min);
  s.add_flow(1, Route{0}, 1000);
  s.add_flow(2, Route{0}, 1000);
  s.advance_to(4.0);  // 50 B/s each for 4 s
  EXPECT_DOUBLE_EQ(s.remaining_bytes(1), 800);
  s.remove_flow(2);  // cancelled: flow 1 gets the whole link
  EXPECT_DOUBLE_EQ(s.rate(1), 100);
  s.advance_to(6.0);
  EXPECT_DOUBLE_EQ(s.remaining_bytes(1), 600);
  EXPECT_NEAR(s.next_completion()->time_s, 12.0, 1e-12);
}

TEST(FlowSolver, FlowsStartedLaterShareFromTheirStart) {
  // Flow 1 alone for 1 s (100 of 200 B), then flow 2 joins: 50 B/s each; flow 1 ends at 3 s.
  const FlowNetwork net = links_of({100});
  FlowSolver s(net, FlowMode::fair_share);
  s.add_flow(1, Route{0}, 200);
  s.advance_to(1.0);
  s.add_flow(2, Route{0}, 200);
  const auto next = s.next_completion();
  EXPECT_EQ(next->id, 1u);
  EXPECT_NEAR(next->time_s, 3.0, 1e-12);
}

TEST(FlowSolver, OvershootKeepsTheFlowAtZeroUntilTaken) {
  const FlowNetwork net = links_of({10});
  FlowSolver s(net, FlowMode::fair_share);
  s.add_flow(1, Route{0}, 10);  // 5 B/s: due at 2 s
  s.add_flow(2, Route{0}, 30);  // 5 B/s while 1 is active
  s.advance_to(4.0);            // past 1's completion: 2 still ran at 5 B/s
  EXPECT_DOUBLE_EQ(s.remaining_bytes(1), 0);
  EXPECT_DOUBLE_EQ(s.remaining_bytes(2), 10);
  std::vector<FlowId> done;
  EXPECT_EQ(s.take_finished(done), 1u);
  EXPECT_EQ(done, std::vector<FlowId>{1});
  EXPECT_NEAR(s.next_completion()->time_s, 5.0, 1e-12);  // 10 B alone at 10 B/s
}

TEST(FlowSolver, TiesFinishTogetherInAddOrderAndZeroByteFlowsFinishAtOnce) {
  const FlowNetwork net = links_of({1, 1});
  FlowSolver s(net, FlowMode::fair_share);
  s.add_flow(9, Route{1}, 2);
  s.add_flow(4, Route{0}, 2);
  s.add_flow(7, Route{0, 1}, 0);
  std::vector<FlowId> done;
  s.take_finished(done);
  EXPECT_EQ(done, std::vector<FlowId>{7});
  s.advance_to(s.next_completion()->time_s);
  done.clear();
  s.take_finished(done);
  EXPECT_EQ(done, (std::vector<FlowId>{9, 4}));
  EXPECT_DOUBLE_EQ(s.now_s(), 2.0);
  EXPECT_EQ(s.active_flows(), 0u);
  EXPECT_FALSE(s.next_completion().has_value());
}

TEST(FlowSolver, CompletionRoundedToPicosecondsStillFinishes) {
  // A caller in integer ps advances to the rounded completion, which may fall short of the
  // exact instant by < 0.5 ps: the flow must still be taken.
  const FlowNetwork net = links_of({3e9});
  FlowSolver s(net, FlowMode::fair_share);
  s.add_flow(1, Route{0}, 1000);  // 333.333... ns
  const std::int64_t ps = seconds_to_ps(s.next_completion()->time_s);
  EXPECT_EQ(ps, 333'333);
  s.advance_to(netmodels::SimTime::from_ps(ps));
  std::vector<FlowId> done;
  EXPECT_EQ(s.take_finished(done), 1u);
}

TEST(FlowSolver, RejectsBadInput) {
  const FlowNetwork net = links_of({1, 1});
  FlowSolver s(net, FlowMode::fair_share);
  s.add_flow(1, Route{0}, 1);
  EXPECT_THROW(s.add_flow(1, Route{1}, 1), std::invalid_argument);     // id active
  EXPECT_THROW(s.add_flow(2, Route{}, 1), std::invalid_argument);      // empty route
  EXPECT_THROW(s.add_flow(2, Route{0, 0}, 1), std::invalid_argument);  // link twice
  EXPECT_THROW(s.add_flow(2, Route{2}, 1), std::invalid_argument);     // no such link
  EXPECT_THROW(s.add_flow(2, Route{1}, -1), std::invalid_argument);
  EXPECT_THROW(s.add_flow(2, 0, 1, 1), std::invalid_argument);  // no topology to route on
  EXPECT_THROW(s.remove_flow(3), std::invalid_argument);
  s.advance_to(0.5);
  EXPECT_THROW(s.advance_to(0.25), std::invalid_argument);
  EXPECT_EQ(parse_flow_mode("N"), FlowMode::max_min);
  EXPECT_EQ(parse_flow_mode("f"), FlowMode::fair_share);
  EXPECT_THROW(parse_flow_mode("X"), std::invalid_argument);
}

}  // namespace
}  // namespace netwarp::validation
