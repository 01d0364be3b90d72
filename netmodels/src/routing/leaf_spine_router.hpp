// LeafSpineRouter: the two-level Clos of leaf_spine.cpp. With H hosts per leaf, S spines and K
// links from each leaf to each spine: leaf l holds hosts [l H, (l + 1) H) on ports 0 .. H - 1,
// then its link j to spine s on port H + s K + j; spine s has leaf l's link j on port l K + j.
// Toward host h: its own leaf delivers; another leaf goes up uplink u = h % (S K) (spine u / K,
// link u % K); a spine comes down link u % K of h's leaf. Multipath: any uplink of the source
// leaf, any of the K links of the spine to h's leaf. At most leaf, spine, leaf: no loop.
#pragma once

#include "netwarp/netmodels/multipath.hpp"
#include "routing/computed_router.hpp"

namespace netwarp::netmodels {

struct LeafSpineShape {
  std::uint32_t leaves = 0;
  std::uint32_t spines = 0;
  std::uint32_t hosts_per_leaf = 0;
  std::uint32_t links_per_spine = 1;
  std::uint32_t hosts() const { return leaves * hosts_per_leaf; }
  std::uint32_t uplinks() const { return spines * links_per_spine; }
};

class LeafSpineRouter final : public ComputedRouter, public EqualCostRouter {
 public:
  explicit LeafSpineRouter(const LeafSpineShape& shape)
      : ComputedRouter(shape.hosts(), shape.leaves + shape.spines), shape_(shape) {}
  PortIndex next_port(NodeId switch_node, NodeId dst_host) const override;
  std::uint32_t path_count(NodeId switch_node, NodeId dst_host) const override;
  PortIndex path_port(NodeId switch_node, NodeId dst_host, std::uint32_t i) const override;

 private:
  std::size_t port_count(NodeId switch_node) const override;
  NodeId peer(NodeId switch_node, PortIndex port) const override;

  LeafSpineShape shape_;
};

}  // namespace netwarp::netmodels
