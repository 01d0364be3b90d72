// Explicit topologies: hosts and switches numbered in list order, links with their own rate and
// latency or the level's, shortest-path routes (lowest port among equals), given routes that
// override them, and an InputError on the exact field for each kind of bad graph.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "topology_test_support.hpp"

namespace netwarp::netmodels {
namespace {

using topology_test::expect_all_pairs_reachable;
using topology_test::expect_input_error;

const std::string kAt = "topology.graph";

ExplicitNode host(std::string name) {
  return ExplicitNode{std::move(name), false};
}
ExplicitNode sw(std::string name) {
  return ExplicitNode{std::move(name), true};
}
ExplicitLink link(std::string a, std::string b) {
  return ExplicitLink{std::move(a), std::move(b), {}, {}};
}

// A ring of four switches s0..s3, host hI on sI.
ExplicitSpec ring() {
  ExplicitSpec spec;
  spec.nodes = {sw("s0"),   sw("s1"),   sw("s2"),   sw("s3"),
                host("h0"), host("h1"), host("h2"), host("h3")};
  spec.links = {link("s0", "s1"), link("s1", "s2"), link("s2", "s3"), link("s3", "s0")};
  for (int i = 0; i < 4; ++i)
    spec.links.push_back(link(fmt::format("h{}", i), fmt::format("s{}", i)));
  return spec;
}

TEST(ExplicitTopology, NumbersHostsThenSwitchesInListOrder) {
  const Topology topology = build_explicit(ring(), LinkLevels{}, kAt);
  EXPECT_EQ(topology.kind, "graph");
  EXPECT_EQ(topology.host_count, 4u);
  EXPECT_EQ(topology.switch_count(), 4u);
  EXPECT_EQ(topology.nodes[0].name, "h0");
  EXPECT_EQ(topology.nodes[4].name, "s0");
  EXPECT_EQ(topology.nodes[7].name, "s3");
  EXPECT_EQ(topology.nodes[2].group, topology.nodes[6].group);  // h2 with s2
  EXPECT_NO_THROW(check_topology(topology));
  expect_all_pairs_reachable(topology);
}

TEST(ExplicitTopology, RoutesTakeShortestPathsWithTiesToTheLowestPort) {
  const Topology topology = build_explicit(ring(), LinkLevels{}, kAt);
  EXPECT_EQ(topology.path(0, 1), (std::vector<NodeId>{0, 4, 5, 1}));
  EXPECT_EQ(topology.path(0, 3), (std::vector<NodeId>{0, 4, 7, 3}));
  // h0 to h2: two hops either way; s0's port 0 (to s1) comes first.
  EXPECT_EQ(topology.path(0, 2), (std::vector<NodeId>{0, 4, 5, 6, 2}));
}

TEST(ExplicitTopology, GivenRoutesOverrideShortestPaths) {
  ExplicitSpec spec = ring();
  spec.routes = {ExplicitRoute{"s0", "h2", "s3"}, ExplicitRoute{"s0", "h1", "s3"}};
  const Topology topology = build_explicit(spec, LinkLevels{}, kAt);
  EXPECT_EQ(topology.path(0, 2), (std::vector<NodeId>{0, 4, 7, 6, 2}));
  EXPECT_EQ(topology.path(0, 1), (std::vector<NodeId>{0, 4, 7, 6, 5, 1}));
}

TEST(ExplicitTopology, LinksTakeTheirOwnRateAndLatencyOrTheLevels) {
  ExplicitSpec spec = ring();
  spec.links[0].rate_bps = gbps(40);
  spec.links[0].latency = engine::ns(50);
  LinkLevels links;
  links.defaults = LinkSpec{gbps(10), engine::us(1)};
  links.overrides = {{1, LinkSpec{gbps(25), engine::ns(300)}}};
  const Topology topology = build_explicit(spec, links, kAt);
  const Node& s0 = topology.nodes[4];
  EXPECT_EQ(s0.ports[0].rate_bps, gbps(40));  // s0 - s1, its own
  EXPECT_EQ(s0.ports[0].latency, engine::ns(50));
  EXPECT_EQ(topology.nodes[5].ports[0].rate_bps, gbps(40));  // the way back too
  EXPECT_EQ(s0.ports[1].rate_bps, gbps(25));                 // s3 - s0: level 1
  EXPECT_EQ(s0.ports[1].level, 1);
  EXPECT_EQ(topology.nodes[0].ports[0].rate_bps, gbps(10));  // h0's link: level 0
  EXPECT_EQ(topology.nodes[0].ports[0].level, 0);
}

TEST(ExplicitTopology, RejectsBadGraphsNamingTheField) {
  const LinkLevels links;
  auto with = [](auto change) {
    ExplicitSpec spec = ring();
    change(spec);
    return spec;
  };
  auto expect_error = [&](const ExplicitSpec& spec, const std::string& field) {
    expect_input_error([&] { build_explicit(spec, links, kAt); }, field);
  };
  expect_error(with([](ExplicitSpec& s) { s.nodes[5].name = "s0"; }), kAt + ".nodes[5].name");
  expect_error(with([](ExplicitSpec& s) { s.nodes[1].name.clear(); }), kAt + ".nodes[1].name");
  expect_error(with([](ExplicitSpec& s) { s.links[2].b = "s9"; }), kAt + ".links[2].b");
  expect_error(with([](ExplicitSpec& s) { s.links[2].b = "s2"; }), kAt + ".links[2].b");
  expect_error(with([](ExplicitSpec& s) { s.links.push_back(link("s1", "h0")); }),
               kAt + ".links[8].b");
  expect_error(with([](ExplicitSpec& s) { s.links[4].b = "h1"; }), kAt + ".links[4].b");
  expect_error(with([](ExplicitSpec& s) { s.links[0].rate_bps = 0; }), kAt + ".links[0].rate_bps");
  expect_error(with([](ExplicitSpec& s) { s.nodes.push_back(host("h4")); }),
               kAt + ".nodes[8].name");
  expect_error(with([](ExplicitSpec& s) { s.nodes.push_back(sw("s4")); }), kAt + ".links");
  expect_error(with([](ExplicitSpec& s) {
                 s.nodes = {sw("s0")};
                 s.links.clear();
               }),
               kAt + ".nodes");
  expect_error(with([](ExplicitSpec& s) {
                 s.routes = {ExplicitRoute{"s0", "h2", "s2"}};
               }),
               kAt + ".routes[0].next");
  expect_error(with([](ExplicitSpec& s) {
                 s.routes = {ExplicitRoute{"h0", "h2", "s0"}};
               }),
               kAt + ".routes[0].at");
  expect_error(with([](ExplicitSpec& s) {
                 s.routes = {ExplicitRoute{"s0", "s2", "s1"}};
               }),
               kAt + ".routes[0].host");
  expect_error(with([](ExplicitSpec& s) {
                 s.routes = {ExplicitRoute{"s0", "h2", "s1"}, ExplicitRoute{"s0", "h2", "s3"}};
               }),
               kAt + ".routes[1].host");
  // s0 sends h2's packets to s1, s1 sends them back: a loop.
  expect_error(with([](ExplicitSpec& s) {
                 s.routes = {ExplicitRoute{"s0", "h2", "s1"}, ExplicitRoute{"s1", "h2", "s0"}};
               }),
               kAt + ".routes");
}

}  // namespace
}  // namespace netwarp::netmodels
