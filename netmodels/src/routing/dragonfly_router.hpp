// DragonflyRouter: minimal routing on the dragonfly of dragonfly.cpp (Kim, Dally, Scott and
// Abts, ISCA 2008): `a` routers per group, `p` hosts and `h` global links per router, `g`
// groups. Router i of group G (switch G a + i) has its p hosts on ports 0 .. p - 1 (host
// (G a + i) p + j on port j), then its a - 1 local links in router order skipping itself,
// then its global links. Group G's global slot s (0 .. a h - 1) belongs to router s / h (port
// p + a - 1 + s % h) and leads to group s if s < G, else s + 1; slots past g - 2 are unused.
// Toward a host: its own router delivers; in its group, one local hop; elsewhere the router
// owning the global link to the destination group takes it, any other router first hops
// locally to that owner. So at most local, global, local: no loop.
// Valiant and UGAL (per packet, at its source router): a packet between groups may be sent
// minimally to an intermediate group drawn from its packet key (neither the source's nor the
// destination's) and marked non-minimal; routers of the source group forward such a packet
// toward the intermediate group, every other router minimally. So at most local, global,
// local, global, local, each segment loop-free; the two global hops raise the virtual
// channel twice (vc_step), which keeps credit flow control free of deadlock.
#pragma once

#include "netwarp/netmodels/topology_builders.hpp"
#include "routing/computed_router.hpp"

namespace netwarp::netmodels {

struct DragonflyShape {
  std::uint32_t a = 0;  // routers per group
  std::uint32_t p = 0;  // hosts per router
  std::uint32_t h = 0;  // global links per router
  std::uint32_t g = 0;  // groups
  std::uint32_t hosts = 0;

  NodeId router(std::uint32_t group, std::uint32_t i) const { return hosts + group * a + i; }
  // Group `from`'s global slot that leads to group `to`.
  std::uint32_t slot(std::uint32_t from, std::uint32_t to) const { return to < from ? to : to - 1; }
  // The group global slot `slot_index` of group `from` leads to.
  std::uint32_t slot_target(std::uint32_t from, std::uint32_t slot_index) const {
    return slot_index < from ? slot_index : slot_index + 1;
  }
  PortIndex local_port(std::uint32_t i, std::uint32_t j) const {
    return static_cast<PortIndex>(p + (j < i ? j : j - 1));
  }
  PortIndex global_port(std::uint32_t slot_index) const {
    return static_cast<PortIndex>(p + a - 1 + slot_index % h);
  }
  // Global links router i of any group has: its slots that lead to a group (the first g - 1).
  std::uint32_t global_links(std::uint32_t i) const;
  // The router (index over all groups) where the link from group `from` enters group `to`.
  std::uint32_t entry_router(std::uint32_t from, std::uint32_t to) const {
    return to * a + slot(to, from) / h;
  }
  // Router-to-router links on the minimal route between two routers (indexes over all groups).
  std::uint32_t minimal_hops(std::uint32_t from, std::uint32_t to) const;
  // Router `router`'s port on its minimal route toward group `to` (another group).
  PortIndex port_toward_group(std::uint32_t router, std::uint32_t to) const;
};

class DragonflyRouter final : public ComputedRouter {
 public:
  explicit DragonflyRouter(const DragonflyShape& shape,
                           DragonflyRouting routing = DragonflyRouting::minimal)
      : ComputedRouter(shape.hosts, shape.g * shape.a), shape_(shape), routing_(routing) {}
  PortIndex next_port(NodeId switch_node, NodeId dst_host) const override;
  bool per_packet() const override { return routing_ != DragonflyRouting::minimal; }
  RouteChoice choose(NodeId switch_node, const RouteQuery& query,
                     const PortLoad& load) const override;
  // Non-minimal routing (Valiant, UGAL): the groups a packet from `src_host` to `dst_host` may
  // go through (none within a group), and the links between routers of the route through
  // `group`, as the switches forward a packet marked non-minimal: fn(switch_node, port) each.
  bool per_packet_groups(NodeId src_host, NodeId dst_host) const {
    return per_packet() && shape_.g >= 3 &&
           src_host / shape_.p / shape_.a != dst_host / shape_.p / shape_.a;
  }
  std::uint32_t groups() const { return shape_.g; }
  template <class Fn>
  void for_each_link_through(NodeId src_host, NodeId dst_host, std::uint32_t group,
                             const Topology& topology, Fn&& fn) const {
    NodeId at = shape_.router(0, 0) + src_host / shape_.p;
    const NodeId dst_router = shape_.router(0, 0) + dst_host / shape_.p;
    while ((at - shape_.hosts) / shape_.a != group) {
      const PortIndex port = shape_.port_toward_group(at - shape_.hosts, group);
      fn(at, port);
      at = topology.nodes[at].ports[port].peer;
    }
    while (at != dst_router) {
      const PortIndex port = next_port(at, dst_host);
      fn(at, port);
      at = topology.nodes[at].ports[port].peer;
    }
  }

 private:
  std::size_t port_count(NodeId switch_node) const override;
  NodeId peer(NodeId switch_node, PortIndex port) const override;

  // Whether a packet leaving its source router goes through `intermediate` (UGAL's choice).
  bool goes_nonminimal(std::uint32_t router, std::uint32_t dst_router, std::uint32_t intermediate,
                       PortIndex minimal, const PortLoad& load) const;
  std::uint32_t intermediate_group(const RouteQuery& query) const;

  DragonflyShape shape_;
  DragonflyRouting routing_;
};

}  // namespace netwarp::netmodels
