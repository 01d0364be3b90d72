// EqualCostTableRouter: an explicit graph's routes with every shortest next hop kept, for
// multipath switching (build_explicit with equal_cost_paths). Static routes are the table's
// (each group's first port); entry s * hosts + h of group_start opens switch s's ports toward
// host h in group_ports, and one more entry closes the last group.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "netwarp/netmodels/multipath.hpp"

namespace netwarp::netmodels {

class EqualCostTableRouter final : public Router, public EqualCostRouter {
 public:
  EqualCostTableRouter(TableRouter table, std::vector<std::uint32_t> group_start,
                       std::vector<PortIndex> group_ports, std::uint32_t host_count)
      : table_(std::move(table)),
        group_start_(std::move(group_start)),
        group_ports_(std::move(group_ports)),
        host_count_(host_count) {}
  PortIndex next_port(NodeId switch_node, NodeId dst_host) const override {
    return table_.next_port(switch_node, dst_host);
  }
  void check(const Topology& topology) const override { table_.check(topology); }
  std::uint32_t path_count(NodeId switch_node, NodeId dst_host) const override {
    const std::size_t g = group(switch_node, dst_host);
    return group_start_[g + 1] - group_start_[g];
  }
  PortIndex path_port(NodeId switch_node, NodeId dst_host, std::uint32_t i) const override {
    return group_ports_[group_start_[group(switch_node, dst_host)] + i];
  }

 private:
  std::size_t group(NodeId switch_node, NodeId dst_host) const {
    return std::size_t{switch_node - host_count_} * host_count_ + dst_host;
  }
  TableRouter table_;
  std::vector<std::uint32_t> group_start_;
  std::vector<PortIndex> group_ports_;
  std::uint32_t host_count_;
};

}  // namespace netwarp::netmodels
