// Topology basics: check_topology on every builder and on hand-broken topologies, the star and
// the two-level tree (counts, routes, link levels, parameter errors). Fat tree, torus and
// dragonfly have their own files.
#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>

#include "topology_test_support.hpp"

namespace netwarp::netmodels {
namespace {

using topology_test::expect_all_pairs_reachable;
using topology_test::expect_input_error;
using topology_test::expect_regular_hosts_and_dense_groups;
using topology_test::route_table;
using topology_test::with_table;

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

TEST(CheckTopology, CatchesAMissingRouter) {
  Topology topology = small_tree();
  topology.router.reset();
  EXPECT_THROW(check_topology(topology), std::logic_error);
}

TEST(CheckTopology, PassesTheTreeAsAnExplicitTable) {
  const Topology topology = small_tree();
  EXPECT_NO_THROW(check_topology(with_table(topology, route_table(topology))));
}

TEST(CheckTopology, CatchesAMissingRoute) {
  const Topology topology = small_tree();
  auto table = route_table(topology);
  table[1].pop_back();
  EXPECT_THROW(check_topology(with_table(topology, table)), std::logic_error);
  table = route_table(topology);
  table.pop_back();
  EXPECT_THROW(check_topology(with_table(topology, table)), std::logic_error);
}

TEST(CheckTopology, CatchesARouteThroughAMissingPort) {
  const Topology topology = small_tree();
  auto table = route_table(topology);
  table[0][5] = 4;  // leaf 0 has ports 0..3
  EXPECT_THROW(check_topology(with_table(topology, table)), std::logic_error);
}

TEST(CheckTopology, CatchesARoutingLoop) {
  const Topology topology = small_tree();  // leaves are switches 0..2, the root is switch 3
  auto table = route_table(topology);
  table[3][0] = 2;  // root sends host 0's packets to leaf 1, which sends them up
  try {
    check_topology(with_table(topology, table));
    ADD_FAILURE() << "no loop found";
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("loop toward host0"), std::string::npos)
        << error.what();
  }
}

TEST(CheckTopology, CatchesARouteToTheWrongHost) {
  const Topology topology = small_tree();
  auto table = route_table(topology);
  table[0][0] = 1;  // leaf 0 hands host 0's packets to host 1
  EXPECT_THROW(check_topology(with_table(topology, table)), std::logic_error);
}

// Swaps the far ends of the cables on ports `a` and `b` of `node`, keeping every port paired.
void swap_cables(Topology& topology, NodeId node, PortIndex a, PortIndex b) {
  Port& port_a = topology.nodes[node].ports[a];
  Port& port_b = topology.nodes[node].ports[b];
  std::swap(port_a.peer, port_b.peer);
  std::swap(port_a.peer_port, port_b.peer_port);
  topology.nodes[port_a.peer].ports[port_a.peer_port].peer_port = a;
  topology.nodes[port_b.peer].ports[port_b.peer_port].peer_port = b;
}

// A computed router's rule holds only over its family's layout: recabling is caught.
TEST(CheckTopology, CatchesCablingThatAComputedRouterDoesNotAssume) {
  const LinkLevels links;
  Topology torus = build_torus(TorusSpec{{4, 4}, true, 1}, links, kAt);
  swap_cables(torus, torus.host_count + 5, 1, 2);  // r1.1's -x and +x cables
  EXPECT_THROW(check_topology(torus), std::logic_error);
  Topology fat_tree = build_fat_tree({4}, links, kAt);
  swap_cables(fat_tree, fat_tree.host_count, 2, 3);  // edge0.0's two uplinks
  EXPECT_THROW(check_topology(fat_tree), std::logic_error);
  Topology dragonfly = build_dragonfly(DragonflySpec{4, 2, 2, 0}, links, kAt);
  swap_cables(dragonfly, dragonfly.host_count, 2, 5);  // g0.r0: a local and a global cable
  EXPECT_THROW(check_topology(dragonfly), std::logic_error);
  Topology tree = small_tree();
  swap_cables(tree, tree.host_count, 0, 1);  // leaf0's two hosts
  EXPECT_THROW(check_topology(tree), std::logic_error);
  Topology star = build_star({4}, links, kAt);
  swap_cables(star, star.host_count, 0, 3);
  EXPECT_THROW(check_topology(star), std::logic_error);
}

// Each computed router rejects a topology with other counts than it was made for.
TEST(CheckTopology, CatchesARouterOfAnotherSize) {
  const LinkLevels links;
  Topology torus = build_torus(TorusSpec{{4, 4}, true, 1}, links, kAt);
  torus.router = build_torus(TorusSpec{{4, 4}, true, 2}, links, kAt).router;
  EXPECT_THROW(check_topology(torus), std::logic_error);
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
  const NodeId leaf0 = 6;
  const NodeId root = 9;
  // Leaf 0 toward host 5 (on leaf 2): uplink 5 % 2 = 1, port 2 + 1.
  EXPECT_EQ(tree.next_port(leaf0, 5), 3);
  // Root toward host 5: uplink 1 of leaf 2, root port 2 * 2 + 1.
  EXPECT_EQ(tree.next_port(root, 5), 5);
  EXPECT_EQ(tree.next_port(root, 4), 4);
  EXPECT_EQ(tree.next_port(leaf0, 1), 1);  // own host: its host port
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
