// build_torus: a 2D or 3D torus (wrap) or mesh of routers "r<x>.<y>[.<z>]", numbered in
// row-major order with x fastest (router x + X * (y + Y * z)), each with `hosts_per_router`
// hosts on its first ports (host h is on router h / hosts_per_router). Router r is locality
// group r, so contiguous group ranges are spatial slabs. Cables are added dimension by
// dimension toward +1, with the wrap cable last; a torus dimension of size 2 gets one cable,
// not two (both neighbours are the same router), and routes use it both ways. Routing
// (TorusRouter) is dimension order (x, y, z): on a torus the shorter way round, ties to the
// positive direction.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "netwarp/netmodels/topology_builders.hpp"
#include "routing/torus_router.hpp"
#include "topology/topology_building.hpp"

namespace netwarp::netmodels {
namespace {

TorusShape validate(const TorusSpec& spec, const std::string& at) {
  using namespace topology_building;
  if (spec.dims.size() != 2 && spec.dims.size() != 3)
    throw InputError(at + ".dims",
                     "must have 2 or 3 sizes, got " + std::to_string(spec.dims.size()));
  std::vector<std::uint64_t> factors;
  for (std::size_t d = 0; d < spec.dims.size(); ++d) {
    if (spec.dims[d] < 2)
      throw InputError(at + ".dims", "every size must be >= 2, got " +
                                         std::to_string(spec.dims[d]) + " in dimension " +
                                         std::to_string(d));
    factors.push_back(spec.dims[d]);
  }
  require_at_least(at + ".hosts_per_router", spec.hosts_per_router, 1);
  require_port_count(at + ".hosts_per_router",
                     std::uint64_t{spec.hosts_per_router} + 2 * spec.dims.size(), "each router");
  const std::uint64_t routers = checked_product(at + ".dims", factors, "routers");
  factors.push_back(spec.hosts_per_router);
  const std::uint64_t hosts = checked_product(at + ".hosts_per_router", factors, "hosts");
  require_node_count(at + ".hosts_per_router", hosts, routers);
  TorusShape shape;
  for (std::size_t d = 0; d < 3; ++d) shape.dims[d] = d < spec.dims.size() ? spec.dims[d] : 1;
  shape.dimensions = static_cast<std::uint32_t>(spec.dims.size());
  shape.wrap = spec.wrap;
  shape.hosts_per_router = spec.hosts_per_router;
  shape.routers = static_cast<std::uint32_t>(routers);
  return shape;
}

std::string router_name(const TorusShape& shape, std::uint32_t router) {
  std::vector<std::uint32_t> coordinates;
  for (std::uint32_t d = 0; d < shape.dimensions; ++d)
    coordinates.push_back(shape.coordinate(router, d));
  return fmt::format("r{}", fmt::join(coordinates, "."));
}

// The cable from `router` one step toward +1 in `dim`, or to its wrap-around neighbour.
void add_positive_cable(Topology& topology, const TorusShape& shape, std::uint32_t router,
                        std::uint32_t dim, const LinkLevels& links) {
  const std::uint32_t size = shape.dims[dim];
  const std::uint32_t coordinate = shape.coordinate(router, dim);
  const bool is_last = coordinate + 1 == size;
  if (is_last && (!shape.wrap || size == 2)) return;
  const std::uint32_t next =
      is_last ? router - coordinate * shape.stride(dim) : router + shape.stride(dim);
  const NodeId from = shape.hosts_per_router * shape.routers + router;
  const NodeId to = from - router + next;
  const PortIndex port = topology_building::add_cable(topology, from, to, 1, links);
  if (is_last && size > 2) {  // the ring's dateline, both directions
    topology.nodes[from].ports[port].vc_step = 1;
    topology.nodes[to].ports.back().vc_step = 1;
  }
}

}  // namespace

Topology build_torus(const TorusSpec& spec, const LinkLevels& links, const std::string& at) {
  using namespace topology_building;
  const TorusShape shape = validate(spec, at);
  const std::uint32_t hosts = shape.routers * shape.hosts_per_router;
  Topology topology = start_topology(spec.wrap ? "torus" : "mesh", hosts, shape.routers);
  for (std::uint32_t r = 0; r < shape.routers; ++r) {
    set_switch(topology, hosts + r, router_name(shape, r), r);
    attach_hosts(topology, hosts + r, r * shape.hosts_per_router, shape.hosts_per_router, links, r);
  }
  for (std::uint32_t d = 0; d < shape.dimensions; ++d)
    for (std::uint32_t r = 0; r < shape.routers; ++r)
      add_positive_cable(topology, shape, r, d, links);
  topology.router = std::make_shared<TorusRouter>(shape);
  return topology;
}

}  // namespace netwarp::netmodels
