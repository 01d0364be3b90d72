// check_routes_toward: one memoised walk per destination (see route_walk.hpp).
#include "routing/route_walk.hpp"

#include <stdexcept>
#include <string>

namespace netwarp::netmodels {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::logic_error("check_topology: " + what);
}

// The node after `at` toward `dst`, after checking the port exists.
NodeId next_hop(const Topology& topology, NodeId at, NodeId dst) {
  const auto& ports = topology.nodes[at].ports;
  const PortIndex port = topology.next_port(at, dst);
  if (port >= ports.size())
    fail("route of " + topology.nodes[at].name + " toward " + topology.nodes[dst].name +
         " uses missing port " + std::to_string(port));
  return ports[port].peer;
}

}  // namespace

void check_routes_toward(const Topology& topology, NodeId dst, std::vector<RouteReach>& reach) {
  reach.assign(topology.switch_count(), RouteReach::kUnknown);
  std::vector<NodeId> walk;
  for (NodeId start = topology.host_count; start < topology.nodes.size(); ++start) {
    walk.clear();
    NodeId at = start;
    while (at != dst && !topology.is_host(at) &&
           reach[at - topology.host_count] != RouteReach::kReaches) {
      if (reach[at - topology.host_count] == RouteReach::kOnWalk)
        fail("routing loop toward " + topology.nodes[dst].name + " through " +
             topology.nodes[at].name + " (from " + topology.nodes[start].name + ")");
      reach[at - topology.host_count] = RouteReach::kOnWalk;
      walk.push_back(at);
      at = next_hop(topology, at, dst);
    }
    if (topology.is_host(at) && at != dst)
      fail("route from " + topology.nodes[start].name + " toward " + topology.nodes[dst].name +
           " ends at " + topology.nodes[at].name);
    for (NodeId n : walk) reach[n - topology.host_count] = RouteReach::kReaches;
  }
}

}  // namespace netwarp::netmodels
