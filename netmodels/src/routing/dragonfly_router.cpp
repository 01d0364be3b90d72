// DragonflyRouter: minimal routes and the port layout of the dragonfly (see the header).
#include "routing/dragonfly_router.hpp"

#include <algorithm>

namespace netwarp::netmodels {

std::uint32_t DragonflyShape::global_links(std::uint32_t i) const {
  const std::uint32_t used_slots = g - 1;
  const std::uint32_t first = i * h;
  return first >= used_slots ? 0 : std::min(h, used_slots - first);
}

PortIndex DragonflyRouter::next_port(NodeId switch_node, NodeId dst_host) const {
  const DragonflyShape& s = shape_;
  const std::uint32_t router = switch_node - s.hosts;
  const std::uint32_t group = router / s.a;
  const std::uint32_t i = router % s.a;
  const std::uint32_t dst_router = dst_host / s.p;
  const std::uint32_t dst_group = dst_router / s.a;
  if (dst_router == router) return static_cast<PortIndex>(dst_host % s.p);
  if (dst_group == group) return s.local_port(i, dst_router % s.a);
  const std::uint32_t out_slot = s.slot(group, dst_group);
  const std::uint32_t owner = out_slot / s.h;
  return owner == i ? s.global_port(out_slot) : s.local_port(i, owner);
}

std::size_t DragonflyRouter::port_count(NodeId switch_node) const {
  const std::uint32_t i = (switch_node - shape_.hosts) % shape_.a;
  return std::size_t{shape_.p} + shape_.a - 1 + shape_.global_links(i);
}

NodeId DragonflyRouter::peer(NodeId switch_node, PortIndex port) const {
  const DragonflyShape& s = shape_;
  const std::uint32_t router = switch_node - s.hosts;
  const std::uint32_t group = router / s.a;
  const std::uint32_t i = router % s.a;
  if (port < s.p) return router * s.p + port;
  if (port < s.p + s.a - 1) {
    const std::uint32_t j = port - s.p;
    return s.router(group, j < i ? j : j + 1);
  }
  const std::uint32_t out_slot = i * s.h + (port - s.p - (s.a - 1));
  const std::uint32_t target = s.slot_target(group, out_slot);
  return s.router(target, s.slot(target, group) / s.h);
}

}  // namespace netwarp::netmodels
