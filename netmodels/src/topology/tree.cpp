// build_tree: two-level tree. Leaf l ("leaf<l>", node host_count + l) holds hosts
// [l * hosts_per_leaf, (l + 1) * hosts_per_leaf) on ports 0..hosts_per_leaf-1, then its
// `uplinks` parallel uplinks to "root" on the next ports; the root's port l * uplinks + u is
// uplink u of leaf l. A packet for host h uses uplink h % uplinks both ways (up at the source
// leaf, down at the root), so one destination's traffic stays on one link. Groups: leaf l and
// its hosts are group l, the root is group `leaves`.
#include "netwarp/netmodels/topology_builders.hpp"
#include "routing/tree_router.hpp"
#include "topology/topology_building.hpp"

namespace netwarp::netmodels {
namespace {

void validate(const TreeSpec& spec, const std::string& at) {
  using namespace topology_building;
  require_at_least(at + ".leaves", spec.leaves, 1);
  require_at_least(at + ".hosts_per_leaf", spec.hosts_per_leaf, 1);
  require_at_least(at + ".uplinks", spec.uplinks, 1);
  require_port_count(at + (spec.uplinks > spec.hosts_per_leaf ? ".uplinks" : ".hosts_per_leaf"),
                     std::uint64_t{spec.hosts_per_leaf} + spec.uplinks, "each leaf");
  require_port_count(at + (spec.uplinks > spec.leaves ? ".uplinks" : ".leaves"),
                     std::uint64_t{spec.leaves} * spec.uplinks, "the root");
  const std::uint64_t hosts =
      checked_product(at + ".hosts_per_leaf", {spec.leaves, spec.hosts_per_leaf}, "hosts");
  require_node_count(at + ".hosts_per_leaf", hosts, std::uint64_t{spec.leaves} + 1);
}

}  // namespace

Topology build_tree(const TreeSpec& spec, const LinkLevels& links, const std::string& at) {
  using namespace topology_building;
  validate(spec, at);
  Topology topology = start_topology("tree", spec.leaves * spec.hosts_per_leaf, spec.leaves + 1);
  const NodeId root = topology.host_count + spec.leaves;
  set_switch(topology, root, "root", spec.leaves);
  for (std::uint32_t l = 0; l < spec.leaves; ++l) {
    const NodeId leaf = topology.host_count + l;
    set_switch(topology, leaf, "leaf" + std::to_string(l), l);
    attach_hosts(topology, leaf, l * spec.hosts_per_leaf, spec.hosts_per_leaf, links, l);
    for (std::uint32_t u = 0; u < spec.uplinks; ++u) add_cable(topology, leaf, root, 1, links);
  }
  topology.router =
      std::make_shared<TreeRouter>(TreeShape{spec.leaves, spec.hosts_per_leaf, spec.uplinks});
  return topology;
}

}  // namespace netwarp::netmodels
