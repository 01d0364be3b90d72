// build_dragonfly: the dragonfly of Kim, Dally, Scott and Abts (ISCA 2008) with a routers per
// group, p hosts and h global links per router and g groups (default a h + 1). Router i of
// group G is "g<G>.r<i>", node host_count + G a + i, locality group G a + i; its ports are its
// p hosts (host (G a + i) p + j on port j), then its a - 1 local links in router order
// skipping itself, then its global links. Global links use the consecutive arrangement: group
// G's global slots s = 0 .. a h - 1 belong to router s / h (port p + a - 1 + s % h), and slot s
// leads to group s if s < G, else to group s + 1. So each pair of groups shares one cable and,
// with fewer than a h + 1 groups, the last slots stay unused. Minimal routing (DragonflyRouter):
// a local hop to the router owning the global link to the destination group, the global hop, a
// local hop.
#include <fmt/format.h>

#include <algorithm>

#include "netwarp/netmodels/topology_builders.hpp"
#include "routing/dragonfly_router.hpp"
#include "topology/topology_building.hpp"

namespace netwarp::netmodels {
namespace {

DragonflyShape validate(const DragonflySpec& spec, const std::string& at) {
  using namespace topology_building;
  require_at_least(at + ".routers_per_group", spec.routers_per_group, 1);
  require_at_least(at + ".hosts_per_router", spec.hosts_per_router, 1);
  require_at_least(at + ".global_per_router", spec.global_per_router, 1);
  const std::uint64_t max_groups =
      std::uint64_t{spec.routers_per_group} * spec.global_per_router + 1;
  const std::uint64_t groups = spec.groups == 0 ? max_groups : spec.groups;
  if (groups < 2 || groups > max_groups)
    throw InputError(at + ".groups", "must be in [2, routers_per_group * global_per_router + 1 = " +
                                         std::to_string(max_groups) + "] or 0, got " +
                                         std::to_string(spec.groups));
  if (spec.routing != DragonflyRouting::minimal && groups < 3)
    throw InputError(at + ".routing",
                     "non-minimal routing needs at least 3 groups (an "
                     "intermediate group besides the source's and the "
                     "destination's), got " +
                         std::to_string(groups));
  const std::uint32_t largest =
      std::max({spec.hosts_per_router, spec.routers_per_group, spec.global_per_router});
  const char* port_field = largest == spec.hosts_per_router    ? ".hosts_per_router"
                           : largest == spec.routers_per_group ? ".routers_per_group"
                                                               : ".global_per_router";
  require_port_count(
      at + port_field,
      std::uint64_t{spec.hosts_per_router} + spec.routers_per_group - 1 + spec.global_per_router,
      "each router");
  const std::uint64_t routers =
      checked_product(at + ".groups", {groups, spec.routers_per_group}, "routers");
  const std::uint64_t hosts =
      checked_product(at + ".hosts_per_router", {routers, spec.hosts_per_router}, "hosts");
  require_node_count(at + ".hosts_per_router", hosts, routers);
  return DragonflyShape{spec.routers_per_group, spec.hosts_per_router, spec.global_per_router,
                        static_cast<std::uint32_t>(groups), static_cast<std::uint32_t>(hosts)};
}

void add_groups(Topology& topology, const DragonflyShape& shape, const LinkLevels& links) {
  using namespace topology_building;
  for (std::uint32_t group = 0; group < shape.g; ++group)
    for (std::uint32_t i = 0; i < shape.a; ++i) {
      const std::uint32_t index = group * shape.a + i;
      set_switch(topology, shape.router(group, i), fmt::format("g{}.r{}", group, i), index);
      attach_hosts(topology, shape.router(group, i), index * shape.p, shape.p, links, index);
    }
  // Pairs (i, j) with i < j in order: router i's local ports come out in router order.
  for (std::uint32_t group = 0; group < shape.g; ++group)
    for (std::uint32_t i = 0; i < shape.a; ++i)
      for (std::uint32_t j = i + 1; j < shape.a; ++j)
        add_cable(topology, shape.router(group, i), shape.router(group, j), 1, links);
}

// Pairs (G, T) with G < T in order: every router's global ports come out in slot order.
void add_global_links(Topology& topology, const DragonflyShape& shape, const LinkLevels& links) {
  for (std::uint32_t from = 0; from < shape.g; ++from)
    for (std::uint32_t to = from + 1; to < shape.g; ++to) {
      const std::uint32_t out_slot = shape.slot(from, to);
      const std::uint32_t in_slot = shape.slot(to, from);
      const NodeId a_end = shape.router(from, out_slot / shape.h);
      const NodeId b_end = shape.router(to, in_slot / shape.h);
      const PortIndex port = topology_building::add_cable(topology, a_end, b_end, 2, links);
      topology.nodes[a_end].ports[port].vc_step = 1;  // after the global hop: the next channel
      topology.nodes[b_end].ports.back().vc_step = 1;
      if (port != shape.global_port(out_slot) ||
          topology.nodes[b_end].ports.size() - 1 != shape.global_port(in_slot))
        throw std::logic_error("build_dragonfly: global port layout broken at " +
                               topology.nodes[a_end].name);
    }
}

}  // namespace

Topology build_dragonfly(const DragonflySpec& spec, const LinkLevels& links,
                         const std::string& at) {
  const DragonflyShape shape = validate(spec, at);
  Topology topology =
      topology_building::start_topology("dragonfly", shape.hosts, shape.g * shape.a);
  add_groups(topology, shape, links);
  add_global_links(topology, shape, links);
  topology.router = std::make_shared<DragonflyRouter>(shape, spec.routing);
  return topology;
}

}  // namespace netwarp::netmodels
