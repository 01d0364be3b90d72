// ComputedRouter::check: the topology has the family's node counts and every switch port leads
// where the family's layout says (ports were already found paired, so the way back holds too).
#include "routing/computed_router.hpp"

#include <stdexcept>
#include <string>

#include "netwarp/netmodels/topology.hpp"

namespace netwarp::netmodels {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::logic_error("check_topology: " + what);
}

}  // namespace

void ComputedRouter::check(const Topology& topology) const {
  if (topology.host_count != hosts_ || topology.switch_count() != switches_)
    fail(topology.kind + " router made for " + std::to_string(hosts_) + " hosts and " +
         std::to_string(switches_) + " switches, not " + std::to_string(topology.host_count) +
         " and " + std::to_string(topology.switch_count()));
  for (NodeId node = hosts_; node < topology.nodes.size(); ++node) {
    const auto& ports = topology.nodes[node].ports;
    if (ports.size() != port_count(node))
      fail(topology.nodes[node].name + " has " + std::to_string(ports.size()) + " ports, not the " +
           std::to_string(port_count(node)) + " its routes assume");
    for (std::size_t k = 0; k < ports.size(); ++k) {
      const NodeId expected = peer(node, static_cast<PortIndex>(k));
      if (ports[k].peer != expected)
        fail("port " + std::to_string(k) + " of " + topology.nodes[node].name + " leads to " +
             topology.nodes[ports[k].peer].name + ", not to the " +
             (expected < topology.nodes.size() ? topology.nodes[expected].name : "missing node") +
             " its routes assume");
    }
  }
}

}  // namespace netwarp::netmodels
