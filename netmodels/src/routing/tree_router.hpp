// TreeRouter: the two-level tree of tree.cpp. Leaf l (switch l) holds hosts
// [l * hosts_per_leaf, (l + 1) * hosts_per_leaf) on its first ports, then its `uplinks` parallel
// uplinks; the root (switch `leaves`) has leaf l's uplink u on port l * uplinks + u. Toward host
// h: its own leaf delivers, another leaf goes up uplink h % uplinks, the root comes down the
// same uplink of h's leaf. At most leaf, root, leaf: no loop.
#pragma once

#include "netwarp/netmodels/multipath.hpp"
#include "routing/computed_router.hpp"

namespace netwarp::netmodels {

struct TreeShape {
  std::uint32_t leaves = 0;
  std::uint32_t hosts_per_leaf = 0;
  std::uint32_t uplinks = 0;
  std::uint32_t hosts() const { return leaves * hosts_per_leaf; }
};

class TreeRouter final : public ComputedRouter, public EqualCostRouter {
 public:
  explicit TreeRouter(const TreeShape& shape)
      : ComputedRouter(shape.hosts(), shape.leaves + 1), shape_(shape) {}
  PortIndex next_port(NodeId switch_node, NodeId dst_host) const override;
  // Multipath: any uplink of the source leaf, and at the root any uplink of h's leaf.
  std::uint32_t path_count(NodeId switch_node, NodeId dst_host) const override;
  PortIndex path_port(NodeId switch_node, NodeId dst_host, std::uint32_t i) const override;

 private:
  std::size_t port_count(NodeId switch_node) const override;
  NodeId peer(NodeId switch_node, PortIndex port) const override;

  TreeShape shape_;
};

}  // namespace netwarp::netmodels
