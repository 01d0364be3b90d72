// Dragonfly: counts and names, the consecutive global-link arrangement (one cable per pair of
// groups), minimal routes (at most one global and three router-to-router hops) and errors.
#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "topology_test_support.hpp"

namespace netwarp::netmodels {
namespace {

using topology_test::expect_input_error;

const std::string kAt = "topology.dragonfly";

void expect_minimal_routes(const DragonflySpec& spec) {
  const Topology topology = build_dragonfly(spec, LinkLevels{}, kAt);
  check_topology(topology);
  const std::uint32_t routers_per_group = spec.routers_per_group;
  const std::uint32_t hpr = spec.hosts_per_router;
  topology_test::for_each_host_pair(
      topology, [&](NodeId src, NodeId dst, const std::vector<NodeId>& path) {
        const auto hops = topology_test::hops_by_level(topology, path);
        const bool same_router = src / hpr == dst / hpr;
        const bool same_group = src / hpr / routers_per_group == dst / hpr / routers_per_group;
        EXPECT_EQ(hops[0], 2);
        EXPECT_LE(hops[1] + hops[2], 3) << src << "->" << dst;
        EXPECT_EQ(hops[2], same_group ? 0 : 1) << src << "->" << dst;
        if (same_group) {
          EXPECT_EQ(hops[1], same_router ? 0 : 1) << src << "->" << dst;
        }
      });
}

TEST(Dragonfly, CountsRoutersHostsAndPorts) {
  const Topology df = build_dragonfly(DragonflySpec{4, 2, 2, 0}, LinkLevels{}, kAt);
  EXPECT_EQ(df.kind, "dragonfly");
  EXPECT_EQ(df.switch_count(), 9u * 4u);  // 4 * 2 + 1 groups
  EXPECT_EQ(df.host_count, 72u);
  for (NodeId r = df.host_count; r < df.nodes.size(); ++r)
    EXPECT_EQ(df.nodes[r].ports.size(), 2u + 3u + 2u) << df.nodes[r].name;
  EXPECT_EQ(df.nodes[df.host_count + 6].name, "g1.r2");
  EXPECT_EQ(df.nodes[13].group, 6u);  // host 13 is on router 6
  topology_test::expect_regular_hosts_and_dense_groups(df);
}

TEST(Dragonfly, JoinsEveryPairOfGroupsOnceInConsecutiveSlots) {
  const DragonflySpec spec{4, 1, 2, 0};
  const Topology df = build_dragonfly(spec, LinkLevels{}, kAt);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> cables;
  for (NodeId r = df.host_count; r < df.nodes.size(); ++r)
    for (const Port& port : df.nodes[r].ports)
      if (port.level == 2) ++cables[{(r - df.host_count) / 4, (port.peer - df.host_count) / 4}];
  EXPECT_EQ(cables.size(), 9u * 8u);
  for (const auto& [groups, count] : cables) EXPECT_EQ(count, 1);
  // Ports: 1 host, 3 local, then globals. Group 0's slot 0 (router 0) leads to group 1 and
  // its slot 3 (router 1's second global port) to group 4, arriving at group 4's slot 0
  // (router 0); group 5's slot 0 leads to group 0's slot 4 (router 2).
  const NodeId g0r0 = df.host_count;
  EXPECT_EQ(df.nodes[df.nodes[g0r0].ports[4].peer].name, "g1.r0");
  EXPECT_EQ(df.nodes[df.nodes[g0r0 + 1].ports[5].peer].name, "g4.r0");
  EXPECT_EQ(df.nodes[df.nodes[df.host_count + 20].ports[4].peer].name, "g0.r2");
}

TEST(Dragonfly, RoutesAreMinimal) {
  expect_minimal_routes(DragonflySpec{4, 2, 2, 0});
  expect_minimal_routes(DragonflySpec{3, 1, 2, 4});  // fewer groups: spare global ports
  expect_minimal_routes(DragonflySpec{1, 2, 3, 0});  // one router per group
  expect_minimal_routes(DragonflySpec{2, 1, 1, 2});
}

TEST(Dragonfly, RejectsBadParametersNamingTheField) {
  const LinkLevels links;
  expect_input_error(
      [&] {
        build_dragonfly({0, 2, 2, 0}, links, kAt);
      },
      kAt + ".routers_per_group");
  expect_input_error([&] { build_dragonfly({4, 0, 2, 0}, links, kAt); }, kAt + ".hosts_per_router");
  expect_input_error(
      [&] {
        build_dragonfly({4, 2, 0, 0}, links, kAt);
      },
      kAt + ".global_per_router");
  expect_input_error([&] { build_dragonfly({4, 2, 2, 1}, links, kAt); }, kAt + ".groups");
  expect_input_error([&] { build_dragonfly({4, 2, 2, 10}, links, kAt); }, kAt + ".groups");
  expect_input_error(
      [&] {
        build_dragonfly({4, 70000, 2, 0}, links, kAt);
      },
      kAt + ".hosts_per_router");
  expect_input_error(
      [&] {
        build_dragonfly({4, 2, 70000, 0}, links, kAt);
      },
      kAt + ".global_per_router");
  expect_input_error([&] { build_dragonfly({2000, 1, 2000, 0}, links, kAt); }, kAt + ".groups");
}

}  // namespace
}  // namespace netwarp::netmodels
