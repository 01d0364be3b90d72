// LeafSpineRouter: routes and port layout of the leaf-spine topology (see the header).
#include "routing/leaf_spine_router.hpp"

namespace netwarp::netmodels {

PortIndex LeafSpineRouter::next_port(NodeId switch_node, NodeId dst_host) const {
  const std::uint32_t count = path_count(switch_node, dst_host);
  return path_port(switch_node, dst_host, dst_host % shape_.uplinks() % count);
}

std::uint32_t LeafSpineRouter::path_count(NodeId switch_node, NodeId dst_host) const {
  const std::uint32_t at = switch_node - hosts();
  if (at >= shape_.leaves) return shape_.links_per_spine;
  return at == dst_host / shape_.hosts_per_leaf ? 1 : shape_.uplinks();
}

PortIndex LeafSpineRouter::path_port(NodeId switch_node, NodeId dst_host, std::uint32_t i) const {
  const std::uint32_t at = switch_node - hosts();
  const std::uint32_t dst_leaf = dst_host / shape_.hosts_per_leaf;
  if (at >= shape_.leaves) return static_cast<PortIndex>(dst_leaf * shape_.links_per_spine + i);
  if (at == dst_leaf) return static_cast<PortIndex>(dst_host % shape_.hosts_per_leaf);
  return static_cast<PortIndex>(shape_.hosts_per_leaf + i);
}

std::size_t LeafSpineRouter::port_count(NodeId switch_node) const {
  const std::uint32_t at = switch_node - hosts();
  if (at >= shape_.leaves) return std::size_t{shape_.leaves} * shape_.links_per_spine;
  return std::size_t{shape_.hosts_per_leaf} + shape_.uplinks();
}

NodeId LeafSpineRouter::peer(NodeId switch_node, PortIndex port) const {
  const std::uint32_t at = switch_node - hosts();
  if (at >= shape_.leaves) return hosts() + port / shape_.links_per_spine;  // a leaf
  if (port < shape_.hosts_per_leaf) return at * shape_.hosts_per_leaf + port;
  return hosts() + shape_.leaves + (port - shape_.hosts_per_leaf) / shape_.links_per_spine;
}

}  // namespace netwarp::netmodels
