// platform_xml: hosts, routers, one link per port with its rate and latency, and routes that
// follow netwarp's routing, checked on a star and a two-level tree.
#include "platform_xml.hpp"

#include <gtest/gtest.h>

#include "netwarp/netmodels/topology_builders.hpp"

namespace netwarp::simgrid_check {
namespace {

using netmodels::LinkLevels;
using netmodels::LinkSpec;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(PlatformXml, StarHasEveryHostTheSwitchAndOneLinkPerCableDirection) {
  LinkLevels links;
  links.defaults = LinkSpec{10'000'000'000, engine::ns(500)};
  const auto topology = netmodels::build_star({3}, links, "topology.star");
  const std::string xml = platform_xml(topology, 0, {0, 1, 2}, find_network_model("CM02"));
  for (const char* host : {"host0", "host1", "host2"})
    EXPECT_TRUE(contains(xml, std::string("<host id=\"") + host + "\"")) << host;
  EXPECT_TRUE(contains(xml, "<router id=\"sw0\"/>"));
  EXPECT_EQ(count(xml, "<link id="), 6u);  // 3 cables, two directions each
  EXPECT_TRUE(
      contains(xml, "<link id=\"sw0-p2\" bandwidth=\"10000000000bps\" latency=\"500000ps\"/>"));
  // host1 -> host2: the host's port, then the switch's port toward host2.
  EXPECT_TRUE(contains(xml,
                       "<route src=\"host1\" dst=\"host2\" symmetrical=\"NO\"><link_ctn "
                       "id=\"host1-p0\"/><link_ctn id=\"sw0-p2\"/></route>"));
  EXPECT_EQ(count(xml, "<route "), 6u);  // every ordered pair of the three hosts
  EXPECT_TRUE(contains(xml, "<prop id=\"network/model\" value=\"CM02\"/>"));
  EXPECT_TRUE(contains(xml, "<prop id=\"network/crosstraffic\" value=\"0\"/>"));
}

TEST(PlatformXml, TreeRoutesCrossTheUplinksWithTheirOwnRateAndLatency) {
  LinkLevels links;
  links.defaults = LinkSpec{1'000'000'000, engine::us(1)};
  links.overrides.push_back({1, LinkSpec{4'000'000'000, engine::us(2)}});
  const auto topology = netmodels::build_tree({2, 2, 1}, links, "topology.tree");
  const std::string xml = platform_xml(topology, 0, {0, 3}, find_network_model("CM02"));
  // host0 on leaf0 to host3 on leaf1: up leaf0's uplink (port 2), down the root's port 1 to
  // leaf1, then leaf1's port 1 (host3 is its second host).
  EXPECT_TRUE(contains(xml,
                       "<route src=\"host0\" dst=\"host3\" symmetrical=\"NO\"><link_ctn "
                       "id=\"host0-p0\"/><link_ctn id=\"leaf0-p2\"/><link_ctn id=\"root-p1\"/>"
                       "<link_ctn id=\"leaf1-p1\"/></route>"));
  EXPECT_TRUE(
      contains(xml, "<link id=\"leaf0-p2\" bandwidth=\"4000000000bps\" latency=\"2000000ps\"/>"));
  EXPECT_TRUE(
      contains(xml, "<link id=\"host0-p0\" bandwidth=\"1000000000bps\" latency=\"1000000ps\"/>"));
  EXPECT_EQ(count(xml, "<route "), 2u);  // only between the routed hosts
  EXPECT_EQ(count(xml, "<host id="), 4u);
}

TEST(PlatformXml, NicRateReplacesTheRateOfHostPortsOnly) {
  LinkLevels links;
  links.defaults = LinkSpec{10'000'000'000, engine::ns(500)};
  const auto topology = netmodels::build_star({2}, links, "topology.star");
  const std::string xml = platform_xml(topology, 2'000'000'000, {0, 1}, find_network_model("CM02"));
  EXPECT_TRUE(
      contains(xml, "<link id=\"host1-p0\" bandwidth=\"2000000000bps\" latency=\"500000ps\"/>"));
  EXPECT_TRUE(
      contains(xml, "<link id=\"sw0-p1\" bandwidth=\"10000000000bps\" latency=\"500000ps\"/>"));
}

TEST(PlatformXml, DuplicateOrEmptyNamesGetNodeIds) {
  LinkLevels links;
  auto topology = netmodels::build_star({2}, links, "topology.star");
  topology.nodes[1].name = "host0";
  const auto names = simgrid_node_names(topology);
  EXPECT_EQ(names[0], "host0");
  EXPECT_EQ(names[1], "node1");
  EXPECT_EQ(names[2], "sw0");
}

TEST(NetworkModel, UnknownNameListsTheKnownOnes) {
  try {
    find_network_model("cm02");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--network-model: unknown model 'cm02' (known: CM02, LV08, SMPI)");
  }
}

TEST(PlatformXml, SeveralRanksPerHostGetOneRoutePerHostPair) {
  LinkLevels links;
  links.defaults = LinkSpec{10'000'000'000, engine::ns(500)};
  const auto topology = netmodels::build_star({3}, links, "topology.star");
  // Ranks 0-1 on host0, 2-3 on host1 (mpi.ranks_per_host: 2): routes host0 <-> host1 only,
  // none from a host to itself (SimGrid aborts on duplicate routes).
  const std::string xml = platform_xml(topology, 0, {0, 0, 1, 1}, find_network_model("CM02"));
  EXPECT_EQ(count(xml, "<route "), 2u);
  EXPECT_FALSE(contains(xml, "src=\"host0\" dst=\"host0\""));
}

}  // namespace
}  // namespace netwarp::simgrid_check
