// Helpers shared by the topology tests: building with default links, walking every host pair,
// counting hops by link level, and expecting an InputError on an exact field.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/netmodels/topology.hpp"
#include "netwarp/netmodels/topology_builders.hpp"

namespace netwarp::netmodels::topology_test {

// Links taken by a packet on `path` toward its last node, by level (index = level).
inline std::vector<int> hops_by_level(const Topology& topology, const std::vector<NodeId>& path) {
  std::vector<int> hops(4, 0);
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const Port& port = topology.nodes[path[i]].ports[topology.next_port(path[i], path.back())];
    ++hops.at(port.level);
  }
  return hops;
}

// Calls `check(src, dst, path)` for every ordered pair of distinct hosts.
template <typename Check>
void for_each_host_pair(const Topology& topology, Check check) {
  for (NodeId src = 0; src < topology.host_count; ++src)
    for (NodeId dst = 0; dst < topology.host_count; ++dst)
      if (src != dst) check(src, dst, topology.path(src, dst));
}

// The router's count of links from every switch to every host (Router::links_to) is the length
// of the route walked port by port.
inline void expect_links_counted_as_walked(const Topology& topology) {
  for (NodeId at = topology.host_count; at < topology.nodes.size(); ++at)
    for (NodeId dst = 0; dst < topology.host_count; ++dst) {
      std::uint32_t walked = 0;
      for (NodeId node = at; node != dst; ++walked)
        node = topology.nodes[node].ports[topology.next_port(node, dst)].peer;
      EXPECT_EQ(topology.router->links_to(at, dst), walked) << at << " -> " << dst;
    }
}

// Every pair of hosts is joined by a path that starts and ends right.
inline void expect_all_pairs_reachable(const Topology& topology) {
  for_each_host_pair(topology, [](NodeId src, NodeId dst, const std::vector<NodeId>& path) {
    ASSERT_GE(path.size(), 3u);
    EXPECT_EQ(path.front(), src);
    EXPECT_EQ(path.back(), dst);
  });
}

// The switch host `h` is cabled to.
inline NodeId switch_of(const Topology& topology, NodeId host) {
  return topology.nodes[host].ports.at(0).peer;
}

// Hosts share their switch's group, hosts on one switch are consecutive and groups are dense.
inline void expect_regular_hosts_and_dense_groups(const Topology& topology) {
  std::set<std::uint32_t> groups;
  for (const Node& node : topology.nodes) groups.insert(node.group);
  EXPECT_EQ(*groups.rbegin() + 1, groups.size()) << "groups are not dense from 0";
  std::set<NodeId> finished_switches;
  for (NodeId h = 0; h < topology.host_count; ++h) {
    const NodeId sw = switch_of(topology, h);
    EXPECT_EQ(topology.nodes[h].group, topology.nodes[sw].group) << topology.nodes[h].name;
    if (h > 0 && switch_of(topology, h - 1) != sw)
      finished_switches.insert(switch_of(topology, h - 1));
    EXPECT_EQ(finished_switches.count(sw), 0u)
        << "hosts of " << topology.nodes[sw].name << " are not consecutive";
  }
}

// The routes of `topology` as an explicit table: [switch index][host] -> output port.
inline std::vector<std::vector<PortIndex>> route_table(const Topology& topology) {
  std::vector<std::vector<PortIndex>> table(topology.switch_count(),
                                            std::vector<PortIndex>(topology.host_count));
  for (std::uint32_t s = 0; s < topology.switch_count(); ++s)
    for (NodeId h = 0; h < topology.host_count; ++h)
      table[s][h] = topology.next_port(topology.host_count + s, h);
  return table;
}

// `topology` routed by an explicit table instead of its own router.
inline Topology with_table(Topology topology, std::vector<std::vector<PortIndex>> table) {
  topology.router = std::make_shared<TableRouter>(topology.host_count, std::move(table));
  return topology;
}

// Runs `build` and expects an InputError whose field() is exactly `field`.
template <typename Build>
void expect_input_error(Build build, const std::string& field) {
  try {
    build();
    ADD_FAILURE() << "no InputError for " << field;
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), field) << error.what();
    EXPECT_FALSE(error.message().empty());
  }
}

}  // namespace netwarp::netmodels::topology_test
