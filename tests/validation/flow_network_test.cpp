// FlowNetwork from the packet network's topologies: one link per directed port at rate / 8
// bytes per second, routes along the packet routes (injection and ejection links included).
#include <gtest/gtest.h>

#include <stdexcept>

#include "netwarp/netmodels/topology_builders.hpp"
#include "netwarp/validation/flow_network.hpp"

namespace netwarp::validation {
namespace {

using netmodels::LinkLevels;
using netmodels::LinkSpec;

LinkLevels gbps_links(std::uint64_t gbps, std::int64_t latency_ns) {
  return LinkLevels{LinkSpec{netmodels::gbps(gbps), engine::ns(latency_ns)}, {}};
}

TEST(FlowNetwork, StarHasOneLinkPerPortAndRoutesThroughTheSwitch) {
  const auto topology = netmodels::build_star({3}, gbps_links(8, 100), "t");
  const FlowNetwork net = FlowNetwork::from_topology(topology);
  EXPECT_EQ(net.link_count(), 6u);  // 3 host ports + 3 switch ports
  EXPECT_EQ(net.host_count(), 3u);
  EXPECT_DOUBLE_EQ(net.link(0).bytes_per_second, 1e9);
  // Host 0 injects on its port (link 0); the switch (node 3, links 3..5) ejects on port 2.
  EXPECT_EQ(net.route(0, 2), (std::vector<FlowLinkId>{0, 5}));
  EXPECT_EQ(net.link_of(3, 2), 5u);
  EXPECT_DOUBLE_EQ(net.route_latency_s(0, 2), 200e-9);
}

TEST(FlowNetwork, HostRateReplacesInjectionLinksOnly) {
  const auto topology = netmodels::build_star({2}, gbps_links(8, 0), "t");
  const FlowNetwork net = FlowNetwork::from_topology(topology, netmodels::gbps(4));
  EXPECT_DOUBLE_EQ(net.link(net.link_of(0, 0)).bytes_per_second, 0.5e9);
  EXPECT_DOUBLE_EQ(net.link(net.link_of(2, 1)).bytes_per_second, 1e9);
}

TEST(FlowNetwork, FatTreeRoutesAreTwoFourOrSixLinks) {
  // k = 4: 4 hosts per pod, 2 per edge switch.
  const auto topology = netmodels::build_fat_tree({4}, gbps_links(8, 0), "t");
  const FlowNetwork net = FlowNetwork::from_topology(topology);
  std::size_t ports = 0;
  for (const auto& node : topology.nodes) ports += node.ports.size();
  EXPECT_EQ(net.link_count(), ports);
  EXPECT_EQ(net.route(0, 1).size(), 2u);   // same edge switch
  EXPECT_EQ(net.route(0, 2).size(), 4u);   // same pod
  EXPECT_EQ(net.route(0, 15).size(), 6u);  // through a core switch
  // The route is the packet path: each link leaves the node the previous one reached.
  const auto nodes = topology.path(0, 15);
  const auto links = net.route(0, 15);
  for (std::size_t h = 0; h < links.size(); ++h) EXPECT_EQ(net.link(links[h]).node, nodes[h]);
}

TEST(FlowNetwork, TorusRouteFollowsDimensionOrder) {
  const auto topology = netmodels::build_torus({{4, 4}, true, 1}, gbps_links(8, 100), "t");
  const FlowNetwork net = FlowNetwork::from_topology(topology);
  // Host 0 (router 0,0) to host 10 (router 2,2): 2 hops in x, 2 in y, plus both host links.
  EXPECT_EQ(net.route(0, 10).size(), 6u);
  EXPECT_DOUBLE_EQ(net.route_latency_s(0, 10), 600e-9);
}

TEST(FlowNetwork, RejectsBadRoutes) {
  const auto topology = netmodels::build_star({2}, gbps_links(1, 0), "t");
  const FlowNetwork net = FlowNetwork::from_topology(topology);
  EXPECT_THROW(net.route(0, 0), std::invalid_argument);
  EXPECT_THROW(net.route(0, 2), std::invalid_argument);  // node 2 is the switch
  const FlowNetwork bare({FlowLink{1, 0, netmodels::kNoNode, 0}});
  EXPECT_THROW(bare.route(0, 1), std::invalid_argument);
  EXPECT_THROW(FlowNetwork({FlowLink{0, 0, netmodels::kNoNode, 0}}), std::invalid_argument);
}

}  // namespace
}  // namespace netwarp::validation
