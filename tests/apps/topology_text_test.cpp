// `netwarp topology`'s views of a built topology: the port table names every port's peer, the
// route is the one the Router gives a packet, hop by hop with both ends' port numbers, a large
// topology is summarised, and the DOT text is one well-formed undirected graph.
#include "topology_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "netwarp/netmodels/topology_builders.hpp"

namespace netwarp::apps {
namespace {

using netmodels::NodeId;
using netmodels::Topology;

Topology small_tree(std::uint32_t uplinks = 1) {
  netmodels::LinkLevels links{{netmodels::gbps(10), engine::ns(500)}, {}};
  links.overrides.push_back({1, {netmodels::gbps(1), engine::us(2)}});
  return netmodels::build_tree({2, 2, uplinks}, links, "topology.tree");
}

Topology fat_tree(std::uint32_t k) {
  return netmodels::build_fat_tree({k}, netmodels::LinkLevels{}, "topology.fat_tree");
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has_line(const std::string& text, const std::string& line) {
  const auto lines = lines_of(text);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

NodeId node_named(const Topology& topology, const std::string& name) {
  for (NodeId n = 0; n < topology.nodes.size(); ++n)
    if (topology.nodes[n].name == name) return n;
  ADD_FAILURE() << "no node " << name;
  return 0;
}

TEST(TopologyText, UnitsReadAsAPersonWritesThem) {
  EXPECT_EQ(rate_text(netmodels::gbps(1)), "1 Gbit/s");
  EXPECT_EQ(rate_text(2'500'000'000), "2.5 Gbit/s");
  EXPECT_EQ(rate_text(netmodels::mbps(100)), "100 Mbit/s");
  EXPECT_EQ(rate_text(64), "64 bit/s");
  EXPECT_EQ(latency_text(engine::us(1)), "1 us");
  EXPECT_EQ(latency_text(engine::ns(500)), "500 ns");
  EXPECT_EQ(latency_text(engine::ns(1250)), "1.25 us");
  EXPECT_EQ(latency_text(engine::us(2000)), "2 ms");
  EXPECT_EQ(latency_text(engine::SimTime{}), "0 ns");
}

TEST(TopologyText, SmallTreeListsEveryPortWithItsPeerRateAndLatency) {
  const std::string listing = topology_listing(small_tree(), false);
  EXPECT_TRUE(listing.starts_with("tree: 4 hosts, 3 switches, 12 ports (6 cables)\n")) << listing;
  EXPECT_TRUE(has_line(listing, "  link level 0: 4 cables, 10 Gbit/s, 500 ns")) << listing;
  EXPECT_TRUE(has_line(listing, "  link level 1: 2 cables, 1 Gbit/s, 2 us")) << listing;
  EXPECT_TRUE(has_line(listing, "host3     0  leaf1          1      0     10 Gbit/s      500 ns"))
      << listing;
  EXPECT_TRUE(has_line(listing, "leaf0     2  root           0      1      1 Gbit/s        2 us"))
      << listing;
  EXPECT_TRUE(has_line(listing, "root      1  leaf1          2      1      1 Gbit/s        2 us"))
      << listing;
  EXPECT_EQ(lines_of(port_table(small_tree())).size(), 1u + 12u);  // header + one per port
}

TEST(TopologyText, TreeRouteGoesUpTheUplinkOfTheDestinationAndDownAgain) {
  // Two uplinks per leaf: a packet for host3 takes uplink 3 % 2 = 1 (leaf0 port 3, root port 1)
  // up and the same index down (root port 3, leaf1 port 3).
  const Topology tree = small_tree(2);
  const std::vector<RouteHop> hops = route(tree, 0, 3);
  const NodeId leaf0 = node_named(tree, "leaf0"), leaf1 = node_named(tree, "leaf1");
  const NodeId root = node_named(tree, "root");
  ASSERT_EQ(hops.size(), 4u);
  EXPECT_EQ((std::vector<NodeId>{hops[0].from, hops[0].out_port, hops[0].to, hops[0].in_port}),
            (std::vector<NodeId>{0, 0, leaf0, 0}));
  EXPECT_EQ((std::vector<NodeId>{hops[1].from, hops[1].out_port, hops[1].to, hops[1].in_port}),
            (std::vector<NodeId>{leaf0, 3, root, 1}));
  EXPECT_EQ((std::vector<NodeId>{hops[2].from, hops[2].out_port, hops[2].to, hops[2].in_port}),
            (std::vector<NodeId>{root, 3, leaf1, 3}));
  EXPECT_EQ((std::vector<NodeId>{hops[3].from, hops[3].out_port, hops[3].to, hops[3].in_port}),
            (std::vector<NodeId>{leaf1, 1, 3, 0}));
  const std::string text = route_text(tree, 0, 3);
  EXPECT_TRUE(text.starts_with("route host0 -> host3: 4 links\n")) << text;
  EXPECT_TRUE(has_line(text, "  leaf0 port 3 -> root port 1  (level 1, 1 Gbit/s, 2 us)")) << text;
}

// Every hop leaves on the port the router names and arrives where that port's cable ends, and
// the nodes visited are Topology::path's, the path packets take in a run.
void expect_route_is_the_routers(const Topology& topology, NodeId src, NodeId dst) {
  const std::vector<RouteHop> hops = route(topology, src, dst);
  std::vector<NodeId> visited{src};
  for (const RouteHop& hop : hops) {
    EXPECT_EQ(hop.out_port, topology.next_port(hop.from, dst));
    const netmodels::Port& port = topology.nodes[hop.from].ports[hop.out_port];
    EXPECT_EQ(port.peer, hop.to);
    EXPECT_EQ(port.peer_port, hop.in_port);
    EXPECT_EQ(topology.nodes[hop.to].ports[hop.in_port].peer, hop.from);
    visited.push_back(hop.to);
  }
  EXPECT_EQ(visited, topology.path(src, dst));
}

TEST(TopologyText, FatTreeRoutesAreTheRoutersAndShortest) {
  const Topology tree = fat_tree(4);
  for (NodeId src = 0; src < tree.host_count; ++src)
    for (NodeId dst = 0; dst < tree.host_count; ++dst) expect_route_is_the_routers(tree, src, dst);
  EXPECT_EQ(route(tree, 0, 1).size(), 2u);   // same edge switch
  EXPECT_EQ(route(tree, 0, 2).size(), 4u);   // same pod
  EXPECT_EQ(route(tree, 0, 15).size(), 6u);  // another pod, through a core switch
  const std::string text = route_text(tree, 0, 15);
  EXPECT_TRUE(text.starts_with("route host0 -> host15: 6 links\n  host0 port 0 -> edge0.0 port 0"))
      << text;
  EXPECT_NE(text.find("-> core"), std::string::npos) << text;
}

TEST(TopologyText, FatTreeListingNamesEdgeAggregationAndCoreSwitches) {
  const std::string listing = topology_listing(fat_tree(4), false);
  EXPECT_TRUE(listing.starts_with("fat_tree: 16 hosts, 20 switches, 96 ports (48 cables)\n"))
      << listing;
  for (const char* name : {"edge0.0", "agg3.1", "core3"})
    EXPECT_NE(listing.find(std::string("\n") + name + " "), std::string::npos) << name;
}

TEST(TopologyText, LargeTopologyIsSummarisedUnlessAllIsAsked) {
  const Topology tree = fat_tree(8);  // 128 hosts, 80 switches, 768 ports
  const std::string summary = topology_listing(tree, false);
  EXPECT_TRUE(summary.starts_with("fat_tree: 128 hosts, 80 switches, 768 ports")) << summary;
  EXPECT_NE(summary.find("core15"), std::string::npos);
  EXPECT_EQ(summary.find("host127"), std::string::npos);
  EXPECT_NE(summary.find("--all lists all 768 ports"), std::string::npos);
  EXPECT_LT(lines_of(summary).size(), 20u);
  // The first line, one per link level, a blank line, the header and one line per port.
  EXPECT_EQ(lines_of(topology_listing(tree, true)).size(), 1u + 3u + 1u + 1u + 768u);
}

TEST(TopologyText, DotIsOneUndirectedGraphWithEveryNodeAndEachCableOnce) {
  const Topology tree = small_tree(2);
  const std::string dot = topology_dot(tree);
  const auto lines = lines_of(dot);
  EXPECT_EQ(lines.front(), "graph \"tree\" {");
  EXPECT_EQ(lines.back(), "}");
  EXPECT_EQ(std::count(dot.begin(), dot.end(), '{'), 1);
  EXPECT_EQ(std::count(dot.begin(), dot.end(), '}'), 1);
  std::size_t node_lines = 0, edge_lines = 0;
  for (const std::string& line : lines) {
    if (line.starts_with("  //") || line == lines.front() || line == lines.back()) continue;
    EXPECT_TRUE(line.ends_with("];")) << line;
    EXPECT_EQ(line.find("->"), std::string::npos) << "an undirected graph uses --: " << line;
    (line.find(" -- ") != std::string::npos ? edge_lines : node_lines) += 1;
  }
  EXPECT_EQ(node_lines, tree.nodes.size());
  EXPECT_EQ(edge_lines, 8u);  // 4 host cables, 2 leaves x 2 uplinks
  EXPECT_TRUE(has_line(dot, "  \"leaf0\" [shape=box];"));
  EXPECT_TRUE(has_line(dot, "  \"host0\" [shape=ellipse];"));
  EXPECT_TRUE(has_line(
      dot, "  \"leaf0\" -- \"root\" [taillabel=\"3\", headlabel=\"1\", label=\"1 Gbit/s, 2 us\"];"))
      << dot;
}

}  // namespace
}  // namespace netwarp::apps
