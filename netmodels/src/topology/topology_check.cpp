// check_topology: the invariants every builder keeps, checked in order (ports paired both ways,
// hosts on exactly one switch port, routes reaching every host from every switch without a
// loop). Throws std::logic_error naming the first broken node, port or route. The routes are
// the router's to prove (Router::check: a computed router compares the cabling with its
// family's layout in O(nodes + links), an explicit table is walked toward every host); the
// walk toward a few sampled hosts from every switch, O(switches) each, double-checks the rule.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "netwarp/netmodels/topology.hpp"
#include "routing/route_walk.hpp"

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

// A few destinations spread over the hosts (first, last and between), at most kSampledHosts.
std::vector<NodeId> sampled_hosts(std::uint32_t host_count) {
  constexpr std::uint32_t kSampledHosts = 4;
  std::vector<NodeId> hosts;
  for (std::uint32_t i = 0; i < kSampledHosts && host_count > 0; ++i) {
    const auto h = static_cast<NodeId>(std::uint64_t{host_count - 1} * i / (kSampledHosts - 1));
    if (hosts.empty() || hosts.back() != h) hosts.push_back(h);
  }
  return hosts;
}

}  // namespace

void check_topology(const Topology& topology) {
  if (topology.nodes.size() < topology.host_count)
    fail("topology has " + std::to_string(topology.nodes.size()) + " nodes for " +
         std::to_string(topology.host_count) + " hosts");
  for (NodeId n = 0; n < topology.nodes.size(); ++n) check_port_pairing(topology, n);
  for (NodeId h = 0; h < topology.host_count; ++h) check_host_ports(topology, h);
  if (!topology.router) fail("topology has no router");
  topology.router->check(topology);
  std::vector<RouteReach> reach;
  for (NodeId h : sampled_hosts(topology.host_count)) check_routes_toward(topology, h, reach);
}

}  // namespace netwarp::netmodels
