// Torus and mesh: row-major router numbering, dimension-order routes whose hop counts are the
// (wrap-around) Manhattan distance, the size-2 single-cable rule, and parameter errors.
#include <gtest/gtest.h>

#include <cstdlib>

#include "topology_test_support.hpp"

namespace netwarp::netmodels {
namespace {

using topology_test::expect_input_error;

const std::string kAt = "topology.torus";

std::vector<std::uint32_t> coordinates(const std::vector<std::uint32_t>& dims,
                                       std::uint32_t router) {
  std::vector<std::uint32_t> c;
  for (std::uint32_t size : dims) {
    c.push_back(router % size);
    router /= size;
  }
  return c;
}

std::size_t expected_hops(const TorusSpec& spec, std::uint32_t a, std::uint32_t b) {
  const auto ca = coordinates(spec.dims, a);
  const auto cb = coordinates(spec.dims, b);
  std::size_t hops = 0;
  for (std::size_t d = 0; d < spec.dims.size(); ++d) {
    const std::uint32_t diff = ca[d] > cb[d] ? ca[d] - cb[d] : cb[d] - ca[d];
    hops += spec.wrap ? std::min(diff, spec.dims[d] - diff) : diff;
  }
  return hops;
}

// Router-to-router hops equal the distance and dimensions are finished in order x, y, z.
void expect_dimension_order_routes(const TorusSpec& spec) {
  const Topology topology = build_torus(spec, LinkLevels{}, kAt);
  const std::uint32_t hpr = spec.hosts_per_router;
  topology_test::for_each_host_pair(
      topology, [&](NodeId src, NodeId dst, const std::vector<NodeId>& path) {
        EXPECT_EQ(path.size() - 3, expected_hops(spec, src / hpr, dst / hpr)) << src << "->" << dst;
        std::size_t finished_dims = 0;
        for (std::size_t i = 2; i + 1 < path.size(); ++i) {
          const auto before = coordinates(spec.dims, path[i - 1] - topology.host_count);
          const auto after = coordinates(spec.dims, path[i] - topology.host_count);
          std::size_t moved = 0;
          while (before[moved] == after[moved]) ++moved;
          EXPECT_GE(moved, finished_dims) << "not dimension order: " << src << "->" << dst;
          finished_dims = moved;
        }
      });
}

// Odd and even sizes (an even ring's far router is as near both ways), size 2 (one cable),
// meshes, several hosts a router.
TEST(Torus, CountsTheLinksOfARouteWithoutWalkingIt) {
  for (const TorusSpec& spec :
       {TorusSpec{{4, 3}, true, 1}, TorusSpec{{2, 3, 4}, true, 2}, TorusSpec{{5, 4}, false, 1},
        TorusSpec{{3, 2, 2}, false, 3}, TorusSpec{{6, 6}, true, 1}}) {
    SCOPED_TRACE(std::to_string(spec.dims.size()) + " dimensions, wrap " +
                 std::to_string(spec.wrap));
    topology_test::expect_links_counted_as_walked(build_torus(spec, LinkLevels{}, kAt));
  }
}

TEST(Torus, NumbersRoutersRowMajorXFastest) {
  const Topology torus = build_torus(TorusSpec{{4, 3}, true, 1}, LinkLevels{}, kAt);
  EXPECT_EQ(torus.kind, "torus");
  EXPECT_EQ(torus.host_count, 12u);
  EXPECT_EQ(torus.switch_count(), 12u);
  EXPECT_EQ(torus.nodes[torus.host_count + 6].name, "r2.1");
  EXPECT_EQ(torus.nodes[topology_test::switch_of(torus, 6)].name, "r2.1");
  EXPECT_EQ(torus.nodes[6].group, 6u);
  for (NodeId r = torus.host_count; r < torus.nodes.size(); ++r)
    EXPECT_EQ(torus.nodes[r].ports.size(), 5u);
  topology_test::expect_regular_hosts_and_dense_groups(torus);
  const Topology cube = build_torus(TorusSpec{{2, 3, 4}, false, 2}, LinkLevels{}, kAt);
  EXPECT_EQ(cube.kind, "mesh");
  EXPECT_EQ(cube.host_count, 48u);
  EXPECT_EQ(cube.nodes[cube.host_count + 23].name, "r1.2.3");
  EXPECT_EQ(topology_test::switch_of(cube, 47), cube.host_count + 23);
  topology_test::expect_regular_hosts_and_dense_groups(cube);
}

TEST(Torus, GoesTheShortWayRoundWithTiesPositive) {
  const Topology torus = build_torus(TorusSpec{{4, 4}, true, 1}, LinkLevels{}, kAt);
  const NodeId r = torus.host_count;                                          // router 0
  EXPECT_EQ(torus.path(0, 3), (std::vector<NodeId>{0, r, r + 3, 3}));         // -x, one hop
  EXPECT_EQ(torus.path(0, 2), (std::vector<NodeId>{0, r, r + 1, r + 2, 2}));  // tie: +x
  EXPECT_EQ(torus.path(0, 12), (std::vector<NodeId>{0, r, r + 12, 12}));      // -y, one hop
  EXPECT_EQ(torus.path(5, 0), (std::vector<NodeId>{5, r + 5, r + 4, r, 0}));  // x, then y
}

TEST(Torus, HopCountsAreWrapAroundManhattanDistance) {
  expect_dimension_order_routes(TorusSpec{{4, 4}, true, 1});
  expect_dimension_order_routes(TorusSpec{{5, 3}, true, 2});
  expect_dimension_order_routes(TorusSpec{{3, 4, 5}, true, 1});
  expect_dimension_order_routes(TorusSpec{{2, 2, 3}, true, 1});
}

TEST(Mesh, HopCountsAreManhattanDistance) {
  expect_dimension_order_routes(TorusSpec{{4, 4}, false, 1});
  expect_dimension_order_routes(TorusSpec{{2, 5}, false, 3});
  expect_dimension_order_routes(TorusSpec{{3, 2, 4}, false, 1});
  const Topology mesh = build_torus(TorusSpec{{4, 4}, false, 1}, LinkLevels{}, kAt);
  EXPECT_EQ(mesh.path(0, 3).size(), 6u);                    // straight, no wrap
  EXPECT_EQ(mesh.nodes[mesh.host_count].ports.size(), 3u);  // corner: host, +x, +y
}

TEST(Torus, JoinsSizeTwoNeighboursWithOneCable) {
  const Topology torus = build_torus(TorusSpec{{2, 4}, true, 1}, LinkLevels{}, kAt);
  for (NodeId r = torus.host_count; r < torus.nodes.size(); ++r)
    EXPECT_EQ(torus.nodes[r].ports.size(), 4u) << torus.nodes[r].name;  // host, x, -y, +y
  check_topology(torus);
  EXPECT_EQ(torus.path(1, 0).size(), 4u);
}

TEST(Torus, UsesLevelOneBetweenRouters) {
  const Topology torus = build_torus(TorusSpec{{3, 3}, true, 1}, LinkLevels{}, kAt);
  const auto hops = topology_test::hops_by_level(torus, torus.path(0, 4));
  EXPECT_EQ(hops[0], 2);
  EXPECT_EQ(hops[1], 2);
}

TEST(Torus, RejectsBadParametersNamingTheField) {
  const LinkLevels links;
  expect_input_error([&] { build_torus(TorusSpec{{4}, true, 1}, links, kAt); }, kAt + ".dims");
  expect_input_error(
      [&] {
        build_torus(TorusSpec{{2, 2, 2, 2}, true, 1}, links, kAt);
      },
      kAt + ".dims");
  expect_input_error([&] { build_torus(TorusSpec{{4, 1}, false, 1}, links, kAt); }, kAt + ".dims");
  expect_input_error(
      [&] {
        build_torus(TorusSpec{{4, 0, 3}, true, 1}, links, kAt);
      },
      kAt + ".dims");
  expect_input_error(
      [&] {
        build_torus(TorusSpec{{4, 4}, true, 0}, links, kAt);
      },
      kAt + ".hosts_per_router");
  expect_input_error(
      [&] {
        build_torus(TorusSpec{{4, 4}, true, 65535}, links, kAt);
      },
      kAt + ".hosts_per_router");
  expect_input_error(
      [&] {
        build_torus(TorusSpec{{70000, 70000}, true, 1}, links, kAt);
      },
      kAt + ".dims");
}

}  // namespace
}  // namespace netwarp::netmodels
