// Topology basics: check_topology on every builder and on hand-broken topologies, the star and
// the two-level tree (counts, routes, link levels, parameter errors). Fat tree, torus and
// dragonfly have their own files.
#include <gtest/gtest.h>

#include <stdexcept>

#include "topology_test_support.hpp"

namespace netwarp::netmodels {
namespace {

using topology_test::expect_all_pairs_reachable;
using topology_test::expect_input_error;
using topology_test::expect_regular_hosts_and_dense_groups;

const std::string kAt = "topology.x";

Topology small_tree() {
  return build_tree(TreeSpec{3, 2, 2}, LinkLevels{}, kAt);
}

TEST(CheckTopology, PassesForEveryBuilderAtSeveralSizes) {
  const LinkLevels links;
  for (std::uint32_t n : {1u, 2u, 7u}) EXPECT_NO_THROW(check_topology(build_star({n}, links, kAt)));
  for (const TreeSpec& spec : {TreeSpec{1, 1, 1}, TreeSpec{3, 2, 2}, TreeSpec{8, 16, 3}})
    EXPECT_NO_THROW(check_topology(build_tree(spec, links, kAt)));
  for (std::uint32_t k : {2u, 4u, 6u, 8u})
    EXPECT_NO_THROW(check_topology(build_fat_tree({k}, links, kAt)));
  for (const TorusSpec& spec :
       {TorusSpec{{2, 2}, true, 1}, TorusSpec{{4, 4}, true, 1}, TorusSpec{{3, 5}, false, 2},
        TorusSpec{{3, 4, 2}, true, 1}, TorusSpec{{2, 3, 4}, false, 1}})
    EXPECT_NO_THROW(check_topology(build_torus(spec, links, kAt)));
  for (const DragonflySpec& spec :
       {DragonflySpec{4, 2, 2, 0}, DragonflySpec{1, 1, 1, 2}, DragonflySpec{3, 1, 2, 4}})
    EXPECT_NO_THROW(check_topology(build_dragonfly(spec, links, kAt)));
}

TEST(CheckTopology, CatchesAnUnpairedPort) {
  Topology topology = small_tree();
  topology.nodes[topology.host_count].ports[0].peer_port = 1;
  EXPECT_THROW(check_topology(topology), std::logic_error);
}

TEST(CheckTopology, CatchesAHostWithTwoPorts) {
  Topology topology = small_tree();
  topology.nodes[0].ports.push_back(topology.nodes[0].ports[0]);
  EXPECT_THROW(check_topology(topology), std::logic_error);
}

TEST(CheckTopology, CatchesAMissingRoute) {
  Topology topology = small_tree();
  topology.routes[1].pop_back();
  EXPECT_THROW(check_topology(topology), std::logic_error);
  topology = small_tree();
  topology.routes.pop_back();
  EXPECT_THROW(check_topology(topology), std::logic_error);
}

TEST(CheckTopology, CatchesARoutingLoop) {
  Topology topology = small_tree();  // leaves are switches 0..2, the root is switch 3
  topology.routes[3][0] = 2;         // root sends host 0's packets to leaf 1, which sends them up
  try {
    check_topology(topology);
    ADD_FAILURE() << "no loop found";
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("loop toward host0"), std::string::npos)
        << error.what();
  }
}

TEST(CheckTopology, CatchesARouteToTheWrongHost) {
  Topology topology = small_tree();
  topology.routes[0][0] = 1;  // leaf 0 hands host 0's packets to host 1
  EXPECT_THROW(check_topology(topology), std::logic_error);
}

TEST(Star, PutsEveryHostOnOneSwitch) {
  const Topology star = build_star({5}, LinkLevels{}, kAt);
  EXPECT_EQ(star.kind, "star");
  EXPECT_EQ(star.host_count, 5u);
  EXPECT_EQ(star.switch_count(), 1u);
  EXPECT_EQ(star.nodes[5].name, "sw0");
  EXPECT_EQ(star.nodes[5].ports.size(), 5u);
  expect_all_pairs_reachable(star);
  expect_regular_hosts_and_dense_groups(star);
  EXPECT_EQ(star.path(1, 4), (std::vector<NodeId>{1, 5, 4}));
}

TEST(Star, RejectsZeroAndTooManyHosts) {
  expect_input_error([] { build_star({0}, LinkLevels{}, "topology.star"); }, "topology.star.hosts");
  expect_input_error([] { build_star({70000}, LinkLevels{}, "topology.star"); },
                     "topology.star.hosts");
}

TEST(Tree, CountsHostsSwitchesAndPorts) {
  const Topology tree = build_tree(TreeSpec{8, 16, 2}, LinkLevels{}, kAt);
  EXPECT_EQ(tree.kind, "tree");
  EXPECT_EQ(tree.host_count, 128u);
  EXPECT_EQ(tree.switch_count(), 9u);
  EXPECT_EQ(tree.nodes[128].name, "leaf0");
  EXPECT_EQ(tree.nodes[136].name, "root");
  EXPECT_EQ(tree.nodes[128].ports.size(), 18u);
  EXPECT_EQ(tree.nodes[136].ports.size(), 16u);
  expect_all_pairs_reachable(tree);
  expect_regular_hosts_and_dense_groups(tree);
}

TEST(Tree, SpreadsUplinksByDestinationHost) {
  const Topology tree = build_tree(TreeSpec{3, 2, 2}, LinkLevels{}, kAt);  // hosts 0..5
  // Leaf 0 (switch 0) toward host 5 (on leaf 2): uplink 5 % 2 = 1, port 2 + 1.
  EXPECT_EQ(tree.routes[0][5], 3);
  // Root toward host 5: uplink 1 of leaf 2, root port 2 * 2 + 1.
  EXPECT_EQ(tree.routes[3][5], 5);
  EXPECT_EQ(tree.routes[3][4], 4);
  EXPECT_EQ(tree.routes[0][1], 1);  // own host: its host port
  EXPECT_EQ(tree.path(0, 5), (std::vector<NodeId>{0, 6, 9, 8, 5}));
}

TEST(Tree, TakesUplinkRateFromLevelOne) {
  LinkLevels links;
  links.defaults = LinkSpec{gbps(10), engine::us(1)};
  links.overrides = {{1, LinkSpec{gbps(40), engine::ns(500)}}};
  const Topology tree = build_tree(TreeSpec{2, 4, 1}, links, kAt);
  const Node& leaf = tree.nodes[tree.host_count];
  EXPECT_EQ(leaf.ports[0].rate_bps, gbps(10));
  EXPECT_EQ(leaf.ports[0].level, 0);
  EXPECT_EQ(leaf.ports[4].rate_bps, gbps(40));
  EXPECT_EQ(leaf.ports[4].latency, engine::ns(500));
  EXPECT_EQ(leaf.ports[4].level, 1);
  EXPECT_EQ(tree.nodes[0].ports[0].rate_bps, gbps(10));
  for (const Port& port : tree.nodes.back().ports) EXPECT_EQ(port.rate_bps, gbps(40));
}

TEST(Tree, RejectsBadParametersNamingTheField) {
  const std::string at = "topology.tree";
  const LinkLevels links;
  expect_input_error([&] { build_tree({0, 4, 1}, links, at); }, at + ".leaves");
  expect_input_error([&] { build_tree({2, 0, 1}, links, at); }, at + ".hosts_per_leaf");
  expect_input_error([&] { build_tree({2, 4, 0}, links, at); }, at + ".uplinks");
  expect_input_error([&] { build_tree({2, 4, 70000}, links, at); }, at + ".uplinks");
  expect_input_error([&] { build_tree({2, 70000, 1}, links, at); }, at + ".hosts_per_leaf");
  expect_input_error([&] { build_tree({70000, 2, 1}, links, at); }, at + ".leaves");
  // 65536 x 65535 hosts fit in 32 bits, but not with the 65537 switches.
  expect_input_error([&] { build_tree({65536, 65535, 1}, links, at); }, at + ".hosts_per_leaf");
}

}  // namespace
}  // namespace netwarp::netmodels
