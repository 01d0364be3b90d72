// TorusRouter: dimension-order routing on the 2D/3D torus or mesh of torus.cpp. Router r (switch
// r) has coordinates x + X * (y + Y * z) = r and holds hosts [r * hosts_per_router, (r + 1) *
// hosts_per_router) on its first ports. Its router-to-router ports follow, dimension by
// dimension, in the order the builder cables them (each dimension toward +1, router by router,
// the wrap cable last):
//   mesh:          the port toward -1 (unless at 0), then toward +1 (unless at the end);
//   torus, size 2: one port, toward the one neighbour both ways;
//   torus:         at 0, toward +1 then toward -1 (the wrap cable comes later); else -1, +1.
// Toward a host on another router: correct the first dimension (x, then y, then z) in which
// the routers differ by one step, on a torus the shorter way round (ties: +1). Every hop brings
// the packet one step closer to its router, so it arrives after at most the diameter: no loop.
#pragma once

#include <array>

#include "routing/computed_router.hpp"

namespace netwarp::netmodels {

struct TorusShape {
  std::array<std::uint32_t, 3> dims{};  // routers per dimension; unused dimensions: 1
  std::uint32_t dimensions = 0;         // 2 or 3
  bool wrap = true;
  std::uint32_t hosts_per_router = 1;
  std::uint32_t routers = 0;

  std::uint32_t hosts() const { return routers * hosts_per_router; }
  std::uint32_t coordinate(std::uint32_t router, std::uint32_t dim) const;
  std::uint32_t stride(std::uint32_t dim) const;
  // Router-to-router ports of a router at `coordinate` in dimension `dim`.
  std::uint32_t ports_in_dimension(std::uint32_t dim, std::uint32_t coordinate) const;
  // Offset, among those ports, of the one toward +1 (positive) or -1.
  std::uint32_t direction_offset(std::uint32_t dim, std::uint32_t coordinate, bool positive) const;
  // The router one step from `router` in `dim`, toward +1 (positive) or -1, wrapping on a torus.
  std::uint32_t neighbour(std::uint32_t router, std::uint32_t dim, bool positive) const;
};

class TorusRouter final : public ComputedRouter {
 public:
  explicit TorusRouter(const TorusShape& shape)
      : ComputedRouter(shape.hosts(), shape.routers), shape_(shape) {}
  PortIndex next_port(NodeId switch_node, NodeId dst_host) const override;
  // The distance in each dimension (on a torus the shorter way round), and the host's link.
  std::optional<std::uint32_t> links_to(NodeId switch_node, NodeId dst_host) const override;

 private:
  std::size_t port_count(NodeId switch_node) const override;
  NodeId peer(NodeId switch_node, PortIndex port) const override;

  TorusShape shape_;
};

}  // namespace netwarp::netmodels
