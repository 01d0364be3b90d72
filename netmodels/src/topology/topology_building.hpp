// Construction helpers shared by the topology builders (star.cpp, tree.cpp, fat_tree.cpp,
// torus.cpp, dragonfly.cpp): parameter checks that throw InputError naming the field, node
// creation with names and locality groups, and cables (a pair of Ports pointing at each other).
// Builders first validate every size (so no arithmetic below can overflow), then create hosts
// and switches, add cables in an order that fixes each port index (the layout their router in
// routing/ computes routes over), and set the router.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/netmodels/topology.hpp"

namespace netwarp::netmodels::topology_building {

// Ports one node may have: every index must fit in PortIndex.
inline constexpr std::uint64_t kMaxPorts = std::uint64_t{std::numeric_limits<PortIndex>::max()} + 1;
// Nodes one topology may have: every id must fit in NodeId and differ from kNoNode.
inline constexpr std::uint64_t kMaxNodes = kNoNode;

// Throws InputError(field, "must be >= minimum, got value") when value < minimum.
inline void require_at_least(const std::string& field, std::uint64_t value, std::uint64_t minimum) {
  if (value < minimum)
    throw InputError(field,
                     "must be >= " + std::to_string(minimum) + ", got " + std::to_string(value));
}

// Throws InputError(field, ...) when a node would need more than kMaxPorts ports.
inline void require_port_count(const std::string& field, std::uint64_t ports,
                               const std::string& node_kind) {
  if (ports > kMaxPorts)
    throw InputError(field, "gives " + node_kind + " " + std::to_string(ports) +
                                " ports, more than the " + std::to_string(kMaxPorts) + " allowed");
}

// Multiplies sizes that were each checked to fit in 32 bits; throws InputError(field, ...) when
// the product passes `limit` (what the product counts is named by `what`).
inline std::uint64_t checked_product(
    const std::string& field, const std::vector<std::uint64_t>& factors, const std::string& what,
    std::uint64_t limit = std::numeric_limits<std::uint32_t>::max()) {
  std::uint64_t product = 1;
  for (std::uint64_t factor : factors) {
    if (factor != 0 && product > limit / factor)
      throw InputError(field, "gives more than " + std::to_string(limit) + " " + what);
    product *= factor;
  }
  return product;
}

// Throws InputError(field, ...) when hosts + switches would not fit in NodeId.
inline void require_node_count(const std::string& field, std::uint64_t hosts,
                               std::uint64_t switches) {
  if (hosts + switches >= kMaxNodes)
    throw InputError(field, "gives " + std::to_string(hosts + switches) + " nodes, more than the " +
                                std::to_string(kMaxNodes - 1) + " allowed");
}

// A topology of `kind` with hosts "host<i>" (group 0 until the builder sets it) and room for
// `switch_count` switches (named and grouped by the builder); no router yet.
inline Topology start_topology(std::string kind, std::uint32_t host_count,
                               std::uint32_t switch_count) {
  Topology topology;
  topology.kind = std::move(kind);
  topology.host_count = host_count;
  topology.nodes.resize(std::size_t{host_count} + switch_count);
  for (std::uint32_t h = 0; h < host_count; ++h)
    topology.nodes[h].name = "host" + std::to_string(h);
  return topology;
}

// Adds a cable between a and b at link `level`: one Port on each side, each naming the other
// as its way back. Returns the new port's index at a (the one at b is b's last port).
inline PortIndex add_cable(Topology& topology, NodeId a, NodeId b, std::uint8_t level,
                           const LinkLevels& links) {
  auto& a_ports = topology.nodes[a].ports;
  auto& b_ports = topology.nodes[b].ports;
  if (a == b || a_ports.size() >= kMaxPorts || b_ports.size() >= kMaxPorts)
    throw std::logic_error("add_cable: bad cable " + topology.nodes[a].name + " - " +
                           topology.nodes[b].name);
  const LinkSpec spec = links.at(level);
  const auto a_port = static_cast<PortIndex>(a_ports.size());
  const auto b_port = static_cast<PortIndex>(b_ports.size());
  a_ports.push_back(Port{b, b_port, level, 0, spec.rate_bps, spec.latency});
  b_ports.push_back(Port{a, a_port, level, 0, spec.rate_bps, spec.latency});
  return a_port;
}

// Attaches hosts [first, first + count) to `switch_node` (hosts' port 0, the switch's next
// `count` ports in host order) at level 0, and puts them in `group`.
inline void attach_hosts(Topology& topology, NodeId switch_node, NodeId first, std::uint32_t count,
                         const LinkLevels& links, std::uint32_t group) {
  for (NodeId h = first; h < first + count; ++h) {
    add_cable(topology, h, switch_node, 0, links);
    topology.nodes[h].group = group;
  }
}

// Names switch `node` and puts it in `group`.
inline void set_switch(Topology& topology, NodeId node, std::string name, std::uint32_t group) {
  topology.nodes[node].name = std::move(name);
  topology.nodes[node].group = group;
}

}  // namespace netwarp::netmodels::topology_building
