// build_star: one switch "sw0" with every host on it; host i on switch port i. Routing is
// trivial (StarRouter: the port toward host i is port i) and everything is one locality group.
#include "netwarp/netmodels/topology_builders.hpp"
#include "routing/star_router.hpp"
#include "topology/topology_building.hpp"

namespace netwarp::netmodels {

Topology build_star(const StarSpec& spec, const LinkLevels& links, const std::string& at) {
  using namespace topology_building;
  require_at_least(at + ".hosts", spec.hosts, 1);
  require_port_count(at + ".hosts", spec.hosts, "the switch");
  Topology topology = start_topology("star", spec.hosts, 1);
  const NodeId switch_node = spec.hosts;
  set_switch(topology, switch_node, "sw0", 0);
  attach_hosts(topology, switch_node, 0, spec.hosts, links, 0);
  topology.router = std::make_shared<StarRouter>(spec.hosts);
  return topology;
}

}  // namespace netwarp::netmodels
