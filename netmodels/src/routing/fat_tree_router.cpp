// FatTreeRouter: up-down d-mod-k routes and the port layout of the fat tree (see the header).
#include "routing/fat_tree_router.hpp"

namespace netwarp::netmodels {

PortIndex FatTreeRouter::next_port(NodeId switch_node, NodeId dst_host) const {
  const std::uint32_t p = shape_.p;
  const std::uint32_t at = switch_node - shape_.hosts;
  const std::uint32_t dst_edge = dst_host / p;  // pod * p + edge, counted over all pods
  const std::uint32_t dst_pod = dst_edge / p;
  const std::uint32_t pod = at / (2 * p);
  if (pod >= shape_.k) return static_cast<PortIndex>(dst_pod);  // a core
  const std::uint32_t index = at % (2 * p);
  if (index < p)  // edge (pod, index)
    return static_cast<PortIndex>(pod * p + index == dst_edge ? dst_host % p : p + dst_host % p);
  return static_cast<PortIndex>(pod == dst_pod ? dst_edge % p : p + dst_edge % p);
}

std::optional<std::uint32_t> FatTreeRouter::links_to(NodeId switch_node, NodeId dst_host) const {
  const std::uint32_t p = shape_.p;
  const std::uint32_t at = switch_node - shape_.hosts;
  const std::uint32_t dst_edge = dst_host / p;
  const std::uint32_t dst_pod = dst_edge / p;
  const std::uint32_t pod = at / (2 * p);
  if (pod >= shape_.k) return 3;  // a core: aggregation, edge, host
  const std::uint32_t index = at % (2 * p);
  if (index < p) {  // an edge: its own host, or up to an aggregation (and a core) and down
    if (pod * p + index == dst_edge) return 1;
    return pod == dst_pod ? 3 : 5;
  }
  return pod == dst_pod ? 2 : 4;  // an aggregation
}

std::uint32_t FatTreeRouter::path_count(NodeId switch_node, NodeId dst_host) const {
  const bool up = next_port(switch_node, dst_host) >= shape_.p &&
                  (switch_node - shape_.hosts) / (2 * shape_.p) < shape_.k;
  return up ? shape_.p : 1;
}

PortIndex FatTreeRouter::path_port(NodeId switch_node, NodeId dst_host, std::uint32_t i) const {
  if (path_count(switch_node, dst_host) == 1) return next_port(switch_node, dst_host);
  return static_cast<PortIndex>(shape_.p + i);
}

RouteChoice FatTreeRouter::choose(NodeId switch_node, const RouteQuery& query,
                                  const PortLoad&) const {
  const PortIndex minimal = next_port(switch_node, query.dst_host);
  if (!ecmp_) return {minimal, false};
  const std::uint32_t p = shape_.p;
  const std::uint32_t at = switch_node - shape_.hosts;
  const bool at_core = at / (2 * p) >= shape_.k;
  if (at_core || minimal < p) return {minimal, false};  // going down: one way only
  // The edge and the aggregation draw from different bits, so the two choices are independent.
  const std::uint64_t hash = route_key_mix(query.flow_key ^ salt_);
  const bool at_edge = at % (2 * p) < p;
  const std::uint64_t draw = at_edge ? hash : hash >> 32;
  return {static_cast<PortIndex>(p + draw % p), false};
}

NodeId FatTreeRouter::peer(NodeId switch_node, PortIndex port) const {
  const std::uint32_t p = shape_.p;
  const std::uint32_t at = switch_node - shape_.hosts;
  const std::uint32_t pod = at / (2 * p);
  if (pod >= shape_.k) return shape_.agg(port, (at - 2 * shape_.k * p) / p);  // a core
  const std::uint32_t index = at % (2 * p);
  if (index < p)  // edge (pod, index)
    return port < p ? (pod * p + index) * p + port : shape_.agg(pod, port - p);
  return port < p ? shape_.edge(pod, port) : shape_.core((index - p) * p + port - p);
}

}  // namespace netwarp::netmodels
