// FatTreeRouter: up-down routing with d-mod-k spreading on the 3-level k-ary fat tree of
// fat_tree.cpp (MFS's 2p-port form is k = 2p). With p = k / 2 and e, a, c, j in [0, p):
//   host (pod * p + e) * p + j  is on port j of edge(pod, e);
//   edge port p + a             goes to agg(pod, a), whose port e comes back;
//   agg port p + c              goes to core(a * p + c), whose port pod comes back.
// Toward host h: an edge delivers its own hosts and otherwise goes up to aggregation h % p; an
// aggregation comes down to h's edge in h's pod and otherwise goes up to its core (h / p) % p;
// a core comes down to h's pod. So a route is at most edge, agg, core, agg, edge: no loop.
// ECMP: going up, the edge picks the aggregation and the aggregation the core from a hash of
// the packet's flow key instead of from h. Every agg of the pod and every core above it
// reaches h's pod, so any choice is an up-down route of the same length.
#pragma once

#include "netwarp/netmodels/multipath.hpp"
#include "routing/computed_router.hpp"

namespace netwarp::netmodels {

// Node ids and sizes of one fat tree: switches follow the hosts pod by pod (p edges, then p
// aggregations), then the p^2 cores.
struct FatTreeShape {
  std::uint32_t k = 0;
  std::uint32_t p = 0;  // k / 2
  std::uint32_t hosts = 0;

  NodeId edge(std::uint32_t pod, std::uint32_t e) const { return hosts + pod * 2 * p + e; }
  NodeId agg(std::uint32_t pod, std::uint32_t a) const { return hosts + pod * 2 * p + p + a; }
  NodeId core(std::uint32_t i) const { return hosts + 2 * k * p + i; }
  std::uint32_t switches() const { return 2 * k * p + p * p; }
};

class FatTreeRouter final : public ComputedRouter, public EqualCostRouter {
 public:
  explicit FatTreeRouter(const FatTreeShape& shape, bool ecmp = false, std::uint64_t route_seed = 1)
      : ComputedRouter(shape.hosts, shape.switches()),
        shape_(shape),
        ecmp_(ecmp),
        salt_(route_key_mix(route_seed)) {}
  PortIndex next_port(NodeId switch_node, NodeId dst_host) const override;
  // Up to the lowest level shared with the host's edge, then down (ECMP's routes alike).
  std::optional<std::uint32_t> links_to(NodeId switch_node, NodeId dst_host) const override;
  // Multipath: going up, any aggregation (at an edge) or any core (at an aggregation).
  std::uint32_t path_count(NodeId switch_node, NodeId dst_host) const override;
  PortIndex path_port(NodeId switch_node, NodeId dst_host, std::uint32_t i) const override;
  bool per_packet() const override { return ecmp_; }
  RouteChoice choose(NodeId switch_node, const RouteQuery& query,
                     const PortLoad& load) const override;

 private:
  std::size_t port_count(NodeId) const override { return shape_.k; }
  NodeId peer(NodeId switch_node, PortIndex port) const override;

  FatTreeShape shape_;
  bool ecmp_;
  std::uint64_t salt_;
};

}  // namespace netwarp::netmodels
