// The flow model's time budget: a pattern whose worst case passes it is refused at load, naming
// the pattern file's line and field, never answered with a wrapped completion time.
#include <gtest/gtest.h>

#include <string>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/netmodels/topology_builders.hpp"
#include "netwarp/validation/flow_pattern.hpp"

namespace netwarp::validation {
namespace {

FlowNetwork star(std::uint64_t rate_bps) {
  return FlowNetwork::from_topology(netmodels::build_star(
      {4}, netmodels::LinkLevels{{rate_bps, engine::us(1)}, {}}, "topology.star"));
}

PatternMessage message(netmodels::NodeId from, netmodels::NodeId to, std::uint64_t order,
                       std::uint64_t bytes, std::uint32_t line) {
  PatternMessage m;
  m.sender = from;
  m.dest = to;
  m.order = order;
  m.bytes = bytes;
  m.line = line;
  return m;
}

std::string error_of(const FlowPattern& pattern, const FlowNetwork& network) {
  try {
    check_pattern_budget(pattern, network, "p.csv");
  } catch (const netmodels::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FlowPatternBudget, AllBytesAtTheSlowestLinkMustFit) {
  // 1e17 B at 1 Gbit/s: 8e8 s alone, past the 1e6 s budget.
  FlowPattern p{{message(0, 1, 0, 1000, 2), message(2, 3, 0, 100'000'000'000'000'000, 3)}};
  const std::string e = error_of(p, star(1'000'000'000));
  EXPECT_TRUE(
      e.starts_with("p.csv:3: bytes: 100000000000000000 B (the largest of "
                    "100000000000001000 B in all, at 1000000000 bit/s"))
      << e;
  // 1e14 B: 8e5 s, within.
  p.messages[1].bytes = 100'000'000'000'000;
  EXPECT_EQ(error_of(p, star(1'000'000'000)), "");
  // Two halves that fit alone do not fit together.
  p.messages[0].bytes = 100'000'000'000'000;
  p.messages[0].line = 7;
  EXPECT_TRUE(error_of(p, star(1'000'000'000)).starts_with("p.csv:"));
}

TEST(FlowPatternBudget, DelaysAddUpAndAWorkloadNamesItsMessage) {
  FlowPattern p{{message(0, 1, 0, 10, 0), message(0, 1, 1, 10, 0)}};
  p.messages[0].delay = netmodels::SimTime::from_ps(600'000'000'000'000'000);
  p.messages[1].delay = netmodels::SimTime::from_ps(600'000'000'000'000'000);
  const std::string e = error_of(p, star(1'000'000'000));
  EXPECT_TRUE(e.starts_with("p.csv: message 0: 600000000000000 ns (the largest")) << e;
}

}  // namespace
}  // namespace netwarp::validation
