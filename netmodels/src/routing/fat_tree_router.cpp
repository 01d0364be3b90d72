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
