// The leaf-spine topology: sizes, names, link levels, static routes, and its equal-cost next
// hops (every choice a shortest path), counted with no events run.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <vector>

#include "netwarp/netmodels/multipath.hpp"
#include "topology_test_support.hpp"

namespace netwarp::netmodels {
namespace {

Topology small_leaf_spine() {
  return build_leaf_spine(LeafSpineSpec{4, 3, 2, 2}, LinkLevels{}, "topology.leaf_spine");
}

const EqualCostRouter& equal_cost(const Topology& t) {
  return dynamic_cast<const EqualCostRouter&>(*t.router);
}

NodeId named(const Topology& t, const std::string& name) {
  for (NodeId n = 0; n < t.nodes.size(); ++n)
    if (t.nodes[n].name == name) return n;
  ADD_FAILURE() << "no node " << name;
  return 0;
}

TEST(LeafSpine, HasItsSizesNamesAndLevels) {
  const Topology t = small_leaf_spine();
  EXPECT_NO_THROW(check_topology(t));
  EXPECT_EQ(t.kind, "leaf_spine");
  EXPECT_EQ(t.host_count, 8u);
  EXPECT_EQ(t.switch_count(), 7u);
  const NodeId leaf3 = named(t, "leaf3");
  const NodeId spine2 = named(t, "spine2");
  EXPECT_EQ(t.nodes[leaf3].ports.size(), 2u + 3 * 2);  // hosts, then 2 links to each spine
  EXPECT_EQ(t.nodes[spine2].ports.size(), 4u * 2);
  EXPECT_EQ(t.nodes[leaf3].ports[2 + 2 * 2 + 1].peer, spine2);
  EXPECT_EQ(t.nodes[leaf3].ports[0].level, 0);
  EXPECT_EQ(t.nodes[spine2].ports[0].level, 1);
  EXPECT_EQ(t.nodes[7].ports[0].peer, leaf3);
}

TEST(LeafSpine, StaticRoutesAreShortest) {
  const Topology t = small_leaf_spine();
  topology_test::for_each_host_pair(t, [&](NodeId src, NodeId dst, const std::vector<NodeId>& p) {
    EXPECT_EQ(p.size(), src / 2 == dst / 2 ? 3u : 5u) << src << " -> " << dst;
  });
}

// Every sequence of equal-cost choices, from src's leaf toward dst.
void walk_all(const Topology& t, NodeId at, NodeId dst, int switches, std::set<NodeId>& spines,
              int& paths) {
  if (t.is_host(at)) {
    EXPECT_EQ(at, dst);
    ++paths;
    return;
  }
  ASSERT_LE(switches, 3);
  const std::uint32_t count = equal_cost(t).path_count(at, dst);
  bool has_static = false;
  for (std::uint32_t i = 0; i < count; ++i) {
    const PortIndex port = equal_cost(t).path_port(at, dst, i);
    has_static |= port == t.next_port(at, dst);
    if (at >= t.host_count + 4) spines.insert(at);
    walk_all(t, t.nodes[at].ports[port].peer, dst, switches + 1, spines, paths);
  }
  EXPECT_TRUE(has_static) << "the static route is one of the equal-cost ones";
}

TEST(LeafSpine, EveryEqualCostChoiceIsAShortestPathThroughAnySpineAndLink) {
  const Topology t = small_leaf_spine();
  std::set<NodeId> spines;
  int paths = 0;
  walk_all(t, t.nodes[0].ports[0].peer, 7, 1, spines, paths);
  EXPECT_EQ(paths, 3 * 2 * 2);  // an uplink (spine and link), then one of 2 links down
  EXPECT_EQ(spines.size(), 3u);
  paths = 0;
  walk_all(t, t.nodes[0].ports[0].peer, 1, 1, spines, paths);
  EXPECT_EQ(paths, 1);  // same leaf: delivered
}

TEST(LeafSpine, RefusesBadSizesByField) {
  topology_test::expect_input_error(
      [] {
        build_leaf_spine(LeafSpineSpec{1, 2, 2, 1}, LinkLevels{}, "ls");
      },
      "ls.leaves");
  topology_test::expect_input_error(
      [] {
        build_leaf_spine(LeafSpineSpec{2, 0, 2, 1}, LinkLevels{}, "ls");
      },
      "ls.spines");
  topology_test::expect_input_error(
      [] {
        build_leaf_spine(LeafSpineSpec{2, 40000, 1, 2}, LinkLevels{}, "ls");
      },
      "ls.spines");
}

TEST(ExplicitGraph, KeepsEveryShortestNextHopForMultipath) {
  // a diamond: s0 reaches h1 through s1 or s2.
  ExplicitSpec spec;
  spec.nodes = {{"h0", false}, {"h1", false}, {"s0", true},
                {"s1", true},  {"s2", true},  {"s3", true}};
  spec.links = {{"h0", "s0", {}, {}}, {"s0", "s1", {}, {}}, {"s0", "s2", {}, {}},
                {"s1", "s3", {}, {}}, {"s2", "s3", {}, {}}, {"s3", "h1", {}, {}}};
  const Topology single = build_explicit(spec, LinkLevels{}, "g");
  EXPECT_EQ(dynamic_cast<const EqualCostRouter*>(single.router.get()), nullptr);
  spec.equal_cost_paths = true;
  const Topology t = build_explicit(spec, LinkLevels{}, "g");
  ASSERT_EQ(equal_cost(t).path_count(2, 1), 2u);
  EXPECT_EQ(equal_cost(t).path_port(2, 1, 0), 1);
  EXPECT_EQ(equal_cost(t).path_port(2, 1, 1), 2);
  EXPECT_EQ(equal_cost(t).path_count(5, 0), 2u);
  EXPECT_EQ(equal_cost(t).path_count(3, 1), 1u);
  spec.routes = {{"s0", "h1", "s2"}};
  topology_test::expect_input_error([&] { build_explicit(spec, LinkLevels{}, "g"); }, "g.routes");
}

}  // namespace
}  // namespace netwarp::netmodels
