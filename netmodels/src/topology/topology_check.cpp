// check_topology: the invariants every builder keeps, checked in order (ports paired both ways,
// hosts on exactly one switch port, route table complete, every switch-to-host route reaching
// its host without a loop). Throws std::logic_error naming the first broken node, port or route.
// The route walk memoises per destination host, so it costs O(switches * hosts) in total.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "netwarp/netmodels/topology.hpp"

namespace netwarp::netmodels {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::logic_error("check_topology: " + what);
}

std::string port_name(const Topology& topology, NodeId node, std::size_t port) {
  return "port " + std::to_string(port) + " of " + topology.nodes[node].name;
}

void check_port_pairing(const Topology& topology, NodeId node) {
  const auto& ports = topology.nodes[node].ports;
  for (std::size_t k = 0; k < ports.size(); ++k) {
    const Port& port = ports[k];
    if (port.peer >= topology.nodes.size()) fail(port_name(topology, node, k) + " has no peer");
    const auto& peer_ports = topology.nodes[port.peer].ports;
    if (port.peer_port >= peer_ports.size())
      fail(port_name(topology, node, k) + " names missing " +
           port_name(topology, port.peer, port.peer_port));
    const Port& back = peer_ports[port.peer_port];
    if (back.peer != node || back.peer_port != k)
      fail(port_name(topology, node, k) + " is not paired: its peer " +
           port_name(topology, port.peer, port.peer_port) + " does not point back");
  }
}

void check_host_ports(const Topology& topology, NodeId host) {
  const auto& ports = topology.nodes[host].ports;
  if (ports.size() != 1)
    fail(topology.nodes[host].name + " has " + std::to_string(ports.size()) +
         " ports, not exactly 1");
  if (topology.is_host(ports[0].peer))
    fail(topology.nodes[host].name + " is cabled to host " + topology.nodes[ports[0].peer].name +
         ", not to a switch");
}

void check_route_table(const Topology& topology) {
  if (topology.routes.size() != topology.switch_count())
    fail("route table has " + std::to_string(topology.routes.size()) + " rows for " +
         std::to_string(topology.switch_count()) + " switches");
  for (std::uint32_t s = 0; s < topology.switch_count(); ++s) {
    const NodeId node = topology.host_count + s;
    const auto& row = topology.routes[s];
    if (row.size() != topology.host_count)
      fail("routes of " + topology.nodes[node].name + " have " + std::to_string(row.size()) +
           " entries for " + std::to_string(topology.host_count) + " hosts");
    for (std::uint32_t h = 0; h < row.size(); ++h)
      if (row[h] >= topology.nodes[node].ports.size())
        fail("route of " + topology.nodes[node].name + " toward host" + std::to_string(h) +
             " uses missing port " + std::to_string(row[h]));
  }
}

enum class Reach : std::uint8_t { kUnknown, kOnWalk, kReaches };

// Follows routes from every switch toward `dst`; `reach` is scratch space, one per switch.
void check_routes_toward(const Topology& topology, NodeId dst, std::vector<Reach>& reach) {
  reach.assign(topology.switch_count(), Reach::kUnknown);
  std::vector<NodeId> walk;
  for (NodeId start = topology.host_count; start < topology.nodes.size(); ++start) {
    walk.clear();
    NodeId at = start;
    while (at != dst && !(topology.is_host(at)) &&
           reach[at - topology.host_count] != Reach::kReaches) {
      if (reach[at - topology.host_count] == Reach::kOnWalk)
        fail("routing loop toward " + topology.nodes[dst].name + " through " +
             topology.nodes[at].name + " (from " + topology.nodes[start].name + ")");
      reach[at - topology.host_count] = Reach::kOnWalk;
      walk.push_back(at);
      at = topology.nodes[at].ports[topology.next_port(at, dst)].peer;
    }
    if (topology.is_host(at) && at != dst)
      fail("route from " + topology.nodes[start].name + " toward " + topology.nodes[dst].name +
           " ends at " + topology.nodes[at].name);
    for (NodeId n : walk) reach[n - topology.host_count] = Reach::kReaches;
  }
}

}  // namespace

void check_topology(const Topology& topology) {
  if (topology.nodes.size() < topology.host_count)
    fail("topology has " + std::to_string(topology.nodes.size()) + " nodes for " +
         std::to_string(topology.host_count) + " hosts");
  for (NodeId n = 0; n < topology.nodes.size(); ++n) check_port_pairing(topology, n);
  for (NodeId h = 0; h < topology.host_count; ++h) check_host_ports(topology, h);
  check_route_table(topology);
  std::vector<Reach> reach;
  for (NodeId h = 0; h < topology.host_count; ++h) check_routes_toward(topology, h, reach);
}

}  // namespace netwarp::netmodels
