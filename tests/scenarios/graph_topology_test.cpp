// topology { graph { ... } }: an explicit network in a scenario builds with its hosts in list
// order, per-link rates and latencies, shortest-path and given routes, and bad graphs give a
// one-line error at the field's line and column.
#include <gtest/gtest.h>

#include <string>

#include "netwarp/scenarios/network_builder.hpp"
#include "scenario_files.hpp"

namespace netwarp::scenarios {
namespace {

// Two switches in a line, two hosts on each; the s0 - s1 link is 40 Gbit/s with 50 ns.
constexpr const char* kGraph =
    "topology { graph {\n"
    "  nodes { name: \"s0\" kind: SWITCH }\n"
    "  nodes { name: \"s1\" kind: SWITCH }\n"
    "  nodes { name: \"a\" }\n"
    "  nodes { name: \"b\" }\n"
    "  nodes { name: \"c\" }\n"
    "  nodes { name: \"d\" }\n"
    "  links { a: \"s0\" b: \"s1\" rate_bps: 40000000000 latency_ns: 50 }\n"
    "  links { a: \"a\" b: \"s0\" }\n"
    "  links { a: \"b\" b: \"s0\" }\n"
    "  links { a: \"c\" b: \"s1\" }\n"
    "  links { a: \"d\" b: \"s1\" }\n";

netmodels::NetworkSpec build(const std::string& name, const std::string& text) {
  return build_network_spec(load_scenario(testing::write_scenario(name, text), {}));
}

TEST(GraphTopology, BuildsTheListedNetwork) {
  const netmodels::NetworkSpec spec =
      build("graph_ok", std::string(kGraph) + "} }\nworkload { incast { bytes: 1000 } }\n");
  const netmodels::Topology& topology = spec.topology;
  EXPECT_EQ(topology.kind, "graph");
  ASSERT_EQ(topology.host_count, 4u);
  EXPECT_EQ(topology.nodes[0].name, "a");
  EXPECT_EQ(topology.nodes[4].name, "s0");
  EXPECT_EQ(topology.nodes[4].ports[0].rate_bps, 40'000'000'000u);
  EXPECT_EQ(topology.nodes[4].ports[0].latency, engine::ns(50));
  EXPECT_EQ(topology.nodes[0].ports[0].rate_bps, 1'000'000'000u);  // links' default
  EXPECT_EQ(topology.path(0, 3), (std::vector<netmodels::NodeId>{0, 4, 5, 3}));
  EXPECT_EQ(spec.workload.messages.size(), 3u);  // incast: every rank but the receiver
}

TEST(GraphTopology, GivenRoutesAreUsed) {
  // A third switch s2 between s0 and s1; s0 sends d's packets through it.
  const std::string text = std::string(kGraph) +
                           "  nodes { name: \"s2\" kind: SWITCH }\n"
                           "  links { a: \"s0\" b: \"s2\" }\n"
                           "  links { a: \"s2\" b: \"s1\" }\n"
                           "  routes { at: \"s0\" host: \"d\" next: \"s2\" }\n"
                           "} }\nworkload { incast { bytes: 1000 } }\n";
  const netmodels::Topology topology = build("graph_routes", text).topology;
  EXPECT_EQ(topology.path(0, 3), (std::vector<netmodels::NodeId>{0, 4, 6, 5, 3}));
  EXPECT_EQ(topology.path(0, 2), (std::vector<netmodels::NodeId>{0, 4, 5, 2}));
}

void expect_error(const std::string& name, const std::string& text, const std::string& expected) {
  const std::string path = testing::write_scenario(name, text);
  try {
    build_network_spec(load_scenario(path, {}));
    ADD_FAILURE() << "no error; expected: " << expected;
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()), path + expected);
  }
}

TEST(GraphTopology, BadGraphsGiveLocatedErrors) {
  const std::string workload = "} }\nworkload { incast { bytes: 1000 } }\n";
  expect_error("graph_unknown_node",
               std::string(kGraph) + "  links { a: \"e\" b: \"s1\" }\n" + workload,
               ":13:11: topology.graph.links[5].a: no node is named 'e'");
  expect_error("graph_two_host_links",
               std::string(kGraph) + "  links { a: \"s1\" b: \"a\" }\n" + workload,
               ":13:19: topology.graph.links[5].b: host 'a' has more than one link");
  expect_error("graph_zero_rate",
               std::string(kGraph) + "  links { a: \"s0\" b: \"s1\" rate_bps: 0 }\n" + workload,
               ":13:27: topology.graph.links[5].rate_bps: must be > 0, got 0");
  expect_error("graph_route_not_linked",
               std::string(kGraph) + "  routes { at: \"s0\" host: \"c\" next: \"d\" }\n" + workload,
               ":13:31: topology.graph.routes[0].next: 'd' is not linked to 's0'");
  expect_error("graph_no_host",
               "topology { graph { nodes { name: \"s\" kind: SWITCH } } }\n"
               "workload { incast { bytes: 1000 } }\n",
               ":1:20: topology.graph.nodes: lists no host");
}

}  // namespace
}  // namespace netwarp::scenarios
