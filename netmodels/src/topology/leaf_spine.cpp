// build_leaf_spine: a two-level Clos (see topology_builders.hpp). Leaf l ("leaf<l>", node
// host_count + l) holds hosts [l * hosts_per_leaf, (l + 1) * hosts_per_leaf) on its first ports,
// then links_per_spine links to each spine in spine order; spine s ("spine<s>", node host_count
// + leaves + s) has leaf l's links on ports l * links_per_spine ... (LeafSpineRouter).
#include "netwarp/netmodels/topology_builders.hpp"
#include "routing/leaf_spine_router.hpp"
#include "topology/topology_building.hpp"

namespace netwarp::netmodels {
namespace {

void validate(const LeafSpineSpec& spec, const std::string& at) {
  using namespace topology_building;
  require_at_least(at + ".leaves", spec.leaves, 2);
  require_at_least(at + ".spines", spec.spines, 1);
  require_at_least(at + ".hosts_per_leaf", spec.hosts_per_leaf, 1);
  require_at_least(at + ".links_per_spine", spec.links_per_spine, 1);
  const std::uint64_t uplinks =
      checked_product(at + ".links_per_spine", {spec.spines, spec.links_per_spine}, "uplinks");
  require_port_count(at + ".spines", std::uint64_t{spec.hosts_per_leaf} + uplinks, "each leaf");
  require_port_count(at + ".leaves", std::uint64_t{spec.leaves} * spec.links_per_spine,
                     "each spine");
  const std::uint64_t hosts =
      checked_product(at + ".hosts_per_leaf", {spec.leaves, spec.hosts_per_leaf}, "hosts");
  require_node_count(at + ".leaves", hosts, std::uint64_t{spec.leaves} + spec.spines);
}

}  // namespace

Topology build_leaf_spine(const LeafSpineSpec& spec, const LinkLevels& links,
                          const std::string& at) {
  using namespace topology_building;
  validate(spec, at);
  Topology topology =
      start_topology("leaf_spine", spec.leaves * spec.hosts_per_leaf, spec.leaves + spec.spines);
  const NodeId first_spine = topology.host_count + spec.leaves;
  for (std::uint32_t s = 0; s < spec.spines; ++s)
    set_switch(topology, first_spine + s, "spine" + std::to_string(s), s % spec.leaves);
  for (std::uint32_t l = 0; l < spec.leaves; ++l) {
    const NodeId leaf = topology.host_count + l;
    set_switch(topology, leaf, "leaf" + std::to_string(l), l);
    attach_hosts(topology, leaf, l * spec.hosts_per_leaf, spec.hosts_per_leaf, links, l);
    for (std::uint32_t s = 0; s < spec.spines; ++s)
      for (std::uint32_t j = 0; j < spec.links_per_spine; ++j)
        add_cable(topology, leaf, first_spine + s, 1, links);
  }
  topology.router = std::make_shared<LeafSpineRouter>(
      LeafSpineShape{spec.leaves, spec.spines, spec.hosts_per_leaf, spec.links_per_spine});
  return topology;
}

}  // namespace netwarp::netmodels
