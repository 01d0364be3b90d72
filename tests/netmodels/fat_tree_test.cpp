// Fat tree: counts (k^3 / 4 hosts, 5 k^2 / 4 switches), names and groups, reachability, and
// up-down routes that are shortest (2, 4 or 6 links) and spread over the cores.
#include <gtest/gtest.h>

#include <set>

#include "topology_test_support.hpp"

namespace netwarp::netmodels {
namespace {

using topology_test::expect_input_error;

const std::string kAt = "topology.fat_tree";

TEST(FatTree, CountsHostsAndSwitches) {
  const Topology k4 = build_fat_tree({4}, LinkLevels{}, kAt);
  EXPECT_EQ(k4.kind, "fat_tree");
  EXPECT_EQ(k4.host_count, 16u);
  EXPECT_EQ(k4.switch_count(), 20u);
  const Topology k6 = build_fat_tree({6}, LinkLevels{}, kAt);  // MFS: p = 3, 2 p^3 hosts
  EXPECT_EQ(k6.host_count, 54u);
  EXPECT_EQ(k6.switch_count(), 45u);
  for (NodeId n = k6.host_count; n < k6.nodes.size(); ++n)
    EXPECT_EQ(k6.nodes[n].ports.size(), 6u) << k6.nodes[n].name;
}

TEST(FatTree, NamesSwitchesByPodAndGroupsByEdge) {
  const Topology k4 = build_fat_tree({4}, LinkLevels{}, kAt);
  EXPECT_EQ(k4.nodes[16].name, "edge0.0");
  EXPECT_EQ(k4.nodes[18].name, "agg0.0");
  EXPECT_EQ(k4.nodes[21].name, "edge1.1");
  EXPECT_EQ(k4.nodes[35].name, "core3");
  EXPECT_EQ(k4.nodes[5].group, 2u);  // host 5 is on edge1.0, the third edge switch
  topology_test::expect_regular_hosts_and_dense_groups(k4);
}

TEST(FatTree, RoutesAreShortest) {
  for (std::uint32_t k : {2u, 4u, 6u}) {
    const Topology topology = build_fat_tree({k}, LinkLevels{}, kAt);
    const std::uint32_t p = k / 2;
    topology_test::for_each_host_pair(
        topology, [&](NodeId src, NodeId dst, const std::vector<NodeId>& path) {
          std::size_t expected = 7;
          if (src / p == dst / p)
            expected = 3;
          else if (src / (p * p) == dst / (p * p))
            expected = 5;
          EXPECT_EQ(path.size(), expected) << src << " -> " << dst << " k=" << k;
        });
  }
}

TEST(FatTree, CountsTheLinksOfARouteWithoutWalkingIt) {
  for (std::uint32_t k : {2u, 4u, 6u}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    topology_test::expect_links_counted_as_walked(build_fat_tree({k}, LinkLevels{}, kAt));
  }
}

TEST(FatTree, GivesEachDestinationOfAPodItsOwnCore) {
  const Topology k4 = build_fat_tree({4}, LinkLevels{}, kAt);
  std::set<NodeId> cores;
  for (NodeId dst = 0; dst < 4; ++dst) cores.insert(k4.path(15, dst)[3]);  // pod 3 -> pod 0
  EXPECT_EQ(cores.size(), 4u);
}

TEST(FatTree, UsesLinkLevelsUpward) {
  const Topology k4 = build_fat_tree({4}, LinkLevels{}, kAt);
  const auto hops = topology_test::hops_by_level(k4, k4.path(0, 15));
  EXPECT_EQ(hops[0], 2);
  EXPECT_EQ(hops[1], 2);
  EXPECT_EQ(hops[2], 2);
}

TEST(FatTree, RejectsOddOrSmallK) {
  for (std::uint32_t k : {0u, 1u, 5u}) {
    expect_input_error([&] { build_fat_tree({k}, LinkLevels{}, kAt); }, kAt + ".k");
  }
  try {
    build_fat_tree({5}, LinkLevels{}, kAt);
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "topology.fat_tree.k: must be even and >= 2, got 5");
  }
  expect_input_error([&] { build_fat_tree({4000}, LinkLevels{}, kAt); }, kAt + ".k");
}

}  // namespace
}  // namespace netwarp::netmodels
