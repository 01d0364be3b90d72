// TreeRouter: routes and port layout of the two-level tree (see tree_router.hpp).
#include "routing/tree_router.hpp"

namespace netwarp::netmodels {

PortIndex TreeRouter::next_port(NodeId switch_node, NodeId dst_host) const {
  const std::uint32_t at = switch_node - hosts();
  const std::uint32_t dst_leaf = dst_host / shape_.hosts_per_leaf;
  const std::uint32_t uplink = dst_host % shape_.uplinks;
  if (at == shape_.leaves) return static_cast<PortIndex>(dst_leaf * shape_.uplinks + uplink);
  if (at == dst_leaf) return static_cast<PortIndex>(dst_host % shape_.hosts_per_leaf);
  return static_cast<PortIndex>(shape_.hosts_per_leaf + uplink);
}

std::uint32_t TreeRouter::path_count(NodeId switch_node, NodeId dst_host) const {
  const std::uint32_t at = switch_node - hosts();
  return at == dst_host / shape_.hosts_per_leaf ? 1 : shape_.uplinks;
}

PortIndex TreeRouter::path_port(NodeId switch_node, NodeId dst_host, std::uint32_t i) const {
  const std::uint32_t at = switch_node - hosts();
  const std::uint32_t dst_leaf = dst_host / shape_.hosts_per_leaf;
  if (at == shape_.leaves) return static_cast<PortIndex>(dst_leaf * shape_.uplinks + i);
  if (at == dst_leaf) return static_cast<PortIndex>(dst_host % shape_.hosts_per_leaf);
  return static_cast<PortIndex>(shape_.hosts_per_leaf + i);
}

std::size_t TreeRouter::port_count(NodeId switch_node) const {
  const std::uint32_t at = switch_node - hosts();
  if (at == shape_.leaves) return std::size_t{shape_.leaves} * shape_.uplinks;
  return std::size_t{shape_.hosts_per_leaf} + shape_.uplinks;
}

NodeId TreeRouter::peer(NodeId switch_node, PortIndex port) const {
  const std::uint32_t at = switch_node - hosts();
  if (at == shape_.leaves) return hosts() + port / shape_.uplinks;  // the leaf of that uplink
  if (port < shape_.hosts_per_leaf) return at * shape_.hosts_per_leaf + port;
  return hosts() + shape_.leaves;  // the root
}

}  // namespace netwarp::netmodels
