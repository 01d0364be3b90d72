// DragonflyRouter: minimal routes and the port layout of the dragonfly (see the header).
#include "routing/dragonfly_router.hpp"

#include <algorithm>

namespace netwarp::netmodels {

std::uint32_t DragonflyShape::global_links(std::uint32_t i) const {
  const std::uint32_t used_slots = g - 1;
  const std::uint32_t first = i * h;
  return first >= used_slots ? 0 : std::min(h, used_slots - first);
}

std::uint32_t DragonflyShape::minimal_hops(std::uint32_t from, std::uint32_t to) const {
  if (from == to) return 0;
  const std::uint32_t from_group = from / a;
  const std::uint32_t to_group = to / a;
  if (from_group == to_group) return 1;
  const std::uint32_t owner = from_group * a + slot(from_group, to_group) / h;
  return (owner != from ? 1U : 0U) + 1 + (entry_router(from_group, to_group) != to ? 1U : 0U);
}

PortIndex DragonflyShape::port_toward_group(std::uint32_t router, std::uint32_t to) const {
  const std::uint32_t out_slot = slot(router / a, to);
  const std::uint32_t owner = out_slot / h;
  const std::uint32_t i = router % a;
  return owner == i ? global_port(out_slot) : local_port(i, owner);
}

PortIndex DragonflyRouter::next_port(NodeId switch_node, NodeId dst_host) const {
  const DragonflyShape& s = shape_;
  const std::uint32_t router = switch_node - s.hosts;
  const std::uint32_t dst_router = dst_host / s.p;
  if (dst_router == router) return static_cast<PortIndex>(dst_host % s.p);
  if (dst_router / s.a == router / s.a) return s.local_port(router % s.a, dst_router % s.a);
  return s.port_toward_group(router, dst_router / s.a);
}

// Uniform over the groups other than the source's and the destination's.
std::uint32_t DragonflyRouter::intermediate_group(const RouteQuery& query) const {
  const std::uint32_t src_group = query.src_host / shape_.p / shape_.a;
  const std::uint32_t dst_group = query.dst_host / shape_.p / shape_.a;
  std::uint32_t group = static_cast<std::uint32_t>(query.packet_key % (shape_.g - 2));
  for (const std::uint32_t skipped :
       {std::min(src_group, dst_group), std::max(src_group, dst_group)})
    if (group >= skipped) ++group;
  return group;
}

// UGAL-L: the minimal path unless its output backlog times its hops exceeds the Valiant path's
// (ties, idle ports among them, go minimal, sparing the global links).
bool DragonflyRouter::goes_nonminimal(std::uint32_t router, std::uint32_t dst_router,
                                      std::uint32_t intermediate, PortIndex minimal,
                                      const PortLoad& load) const {
  if (routing_ == DragonflyRouting::valiant) return true;
  const DragonflyShape& s = shape_;
  const std::uint32_t entry = s.entry_router(router / s.a, intermediate);
  const std::uint64_t minimal_cost =
      static_cast<std::uint64_t>(load.backlog_ps(minimal)) * s.minimal_hops(router, dst_router);
  const std::uint64_t valiant_cost =
      static_cast<std::uint64_t>(load.backlog_ps(s.port_toward_group(router, intermediate))) *
      (s.minimal_hops(router, entry) + s.minimal_hops(entry, dst_router));
  return valiant_cost < minimal_cost;
}

RouteChoice DragonflyRouter::choose(NodeId switch_node, const RouteQuery& query,
                                    const PortLoad& load) const {
  const DragonflyShape& s = shape_;
  const PortIndex minimal = next_port(switch_node, query.dst_host);
  const std::uint32_t router = switch_node - s.hosts;
  const std::uint32_t src_router = query.src_host / s.p;
  const std::uint32_t dst_router = query.dst_host / s.p;
  const std::uint32_t src_group = src_router / s.a;
  if (src_group == dst_router / s.a || router / s.a != src_group || s.g < 3)
    return {minimal, query.nonminimal};
  const std::uint32_t intermediate = intermediate_group(query);
  bool nonminimal = query.nonminimal;
  if (router == src_router && query.in_port < s.p)  // just injected: decide
    nonminimal = goes_nonminimal(router, dst_router, intermediate, minimal, load);
  if (!nonminimal) return {minimal, false};
  return {s.port_toward_group(router, intermediate), true};
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
