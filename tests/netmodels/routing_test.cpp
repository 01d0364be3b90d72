// Computed routes: for small instances of every family (several sizes, torus and mesh, several
// hosts per router, parallel uplinks, fewer dragonfly groups than global links allow), every
// (switch, host) route equals the table the builders used to fill (legacy_route_tables.hpp),
// and check_topology accepts the topology.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "legacy_route_tables.hpp"
#include "topology_test_support.hpp"

namespace netwarp::netmodels {
namespace {

const std::string kAt = "topology.x";

void expect_routes_equal(const Topology& topology, const legacy::RouteTable& expected) {
  ASSERT_EQ(expected.size(), topology.switch_count());
  EXPECT_NO_THROW(check_topology(topology));
  int mismatches = 0;
  for (std::uint32_t s = 0; s < topology.switch_count(); ++s) {
    ASSERT_EQ(expected[s].size(), topology.host_count);
    const NodeId node = topology.host_count + s;
    for (NodeId h = 0; h < topology.host_count; ++h) {
      const PortIndex port = topology.next_port(node, h);
      if (port == expected[s][h] || ++mismatches > 5) continue;
      ADD_FAILURE() << topology.nodes[node].name << " toward host" << h << ": port " << port
                    << ", table said " << expected[s][h];
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(ComputedRoutes, StarEqualsTheOldTable) {
  for (std::uint32_t hosts : {1u, 2u, 7u, 64u}) {
    SCOPED_TRACE(hosts);
    expect_routes_equal(build_star({hosts}, LinkLevels{}, kAt), legacy::star_routes({hosts}));
  }
}

TEST(ComputedRoutes, TreeEqualsTheOldTable) {
  for (const TreeSpec& spec : {TreeSpec{1, 1, 1}, TreeSpec{3, 2, 2}, TreeSpec{8, 16, 3},
                               TreeSpec{4, 5, 7}, TreeSpec{2, 3, 1}, TreeSpec{5, 4, 4}}) {
    SCOPED_TRACE(testing::Message() << spec.leaves << " x " << spec.hosts_per_leaf << ", "
                                    << spec.uplinks << " uplinks");
    expect_routes_equal(build_tree(spec, LinkLevels{}, kAt), legacy::tree_routes(spec));
  }
}

TEST(ComputedRoutes, FatTreeEqualsTheOldTable) {
  for (std::uint32_t k : {2u, 4u, 6u, 8u, 10u, 12u}) {  // 6, 10: MFS's 2p-port form, p odd
    SCOPED_TRACE(k);
    expect_routes_equal(build_fat_tree({k}, LinkLevels{}, kAt), legacy::fat_tree_routes({k}));
  }
}

TEST(ComputedRoutes, TorusAndMeshEqualTheOldTable) {
  const std::vector<std::vector<std::uint32_t>> shapes = {
      {2, 2},    {4, 4},    {3, 5},    {5, 3},    {7, 6},    {2, 9},    {2, 2, 2},
      {3, 3, 3}, {3, 4, 2}, {2, 3, 4}, {4, 3, 5}, {6, 5, 4}, {2, 2, 3}, {5, 2, 2}};
  for (const auto& dims : shapes)
    for (bool wrap : {true, false})
      for (std::uint32_t hosts_per_router : {1u, 2u, 3u}) {
        const TorusSpec spec{dims, wrap, hosts_per_router};
        testing::Message trace;
        trace << (wrap ? "torus" : "mesh");
        for (std::uint32_t size : dims) trace << " " << size;
        SCOPED_TRACE(trace << ", " << hosts_per_router << " hosts per router");
        expect_routes_equal(build_torus(spec, LinkLevels{}, kAt), legacy::torus_routes(spec));
      }
}

TEST(ComputedRoutes, DragonflyEqualsTheOldTable) {
  for (const DragonflySpec& spec :
       {DragonflySpec{4, 2, 2, 0}, DragonflySpec{1, 1, 1, 2}, DragonflySpec{3, 1, 2, 4},
        DragonflySpec{1, 2, 3, 0}, DragonflySpec{2, 1, 1, 2}, DragonflySpec{3, 2, 3, 5},
        DragonflySpec{2, 3, 2, 0}, DragonflySpec{4, 1, 1, 3}, DragonflySpec{2, 2, 4, 9}}) {
    SCOPED_TRACE(testing::Message()
                 << "a " << spec.routers_per_group << " p " << spec.hosts_per_router << " h "
                 << spec.global_per_router << " g " << spec.groups);
    expect_routes_equal(build_dragonfly(spec, LinkLevels{}, kAt), legacy::dragonfly_routes(spec));
  }
}

// The same routes through an explicit table: TableRouter answers from it, and check_topology
// walks it toward every host.
TEST(ComputedRoutes, AnExplicitTableOfTheRoutesRoutesTheSame) {
  const Topology torus = build_torus(TorusSpec{{3, 4}, true, 2}, LinkLevels{}, kAt);
  const Topology tabled =
      topology_test::with_table(torus, legacy::torus_routes(TorusSpec{{3, 4}, true, 2}));
  EXPECT_NO_THROW(check_topology(tabled));
  for (NodeId src = 0; src < torus.host_count; ++src)
    for (NodeId dst = 0; dst < torus.host_count; ++dst)
      if (src != dst) {
        EXPECT_EQ(tabled.path(src, dst), torus.path(src, dst));
      }
}

}  // namespace
}  // namespace netwarp::netmodels
