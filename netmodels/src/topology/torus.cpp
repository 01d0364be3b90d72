// build_torus: a 2D or 3D torus (wrap) or mesh of routers "r<x>.<y>[.<z>]", numbered in
// row-major order with x fastest (router x + X * (y + Y * z)), each with `hosts_per_router`
// hosts on its first ports (host h is on router h / hosts_per_router). Router r is locality
// group r, so contiguous group ranges are spatial slabs. Cables are added dimension by
// dimension toward +1, with the wrap cable last; a torus dimension of size 2 gets one cable,
// not two (both neighbours are the same router), and routes use it both ways. Routing is
// dimension order (x, y, z): on a torus the shorter way round, ties to the positive direction.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>

#include "netwarp/netmodels/topology_builders.hpp"
#include "topology/topology_building.hpp"

namespace netwarp::netmodels {
namespace {

inline constexpr PortIndex kNoPort = ~PortIndex{0};

// Sizes, coordinates and, per router and dimension, the ports toward -1 and +1.
struct TorusShape {
  std::vector<std::uint32_t> dims;
  bool wrap = true;
  std::uint32_t hosts_per_router = 1;
  std::uint32_t routers = 0;
  std::vector<std::array<PortIndex, 6>> ports;  // [router][2 * dim + (positive ? 1 : 0)]

  std::uint32_t coordinate(std::uint32_t router, std::size_t dim) const {
    for (std::size_t d = 0; d < dim; ++d) router /= dims[d];
    return router % dims[dim];
  }
  std::uint32_t stride(std::size_t dim) const {
    std::uint32_t s = 1;
    for (std::size_t d = 0; d < dim; ++d) s *= dims[d];
    return s;
  }
};

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
  TorusShape shape{
      spec.dims, spec.wrap, spec.hosts_per_router, static_cast<std::uint32_t>(routers), {}};
  std::array<PortIndex, 6> none;
  none.fill(kNoPort);
  shape.ports.assign(shape.routers, none);
  return shape;
}

std::string router_name(const TorusShape& shape, std::uint32_t router) {
  std::vector<std::uint32_t> coordinates;
  for (std::size_t d = 0; d < shape.dims.size(); ++d)
    coordinates.push_back(shape.coordinate(router, d));
  return fmt::format("r{}", fmt::join(coordinates, "."));
}

// The cable from `router` one step toward +1 in `dim`, or to its wrap-around neighbour.
void add_positive_cable(Topology& topology, TorusShape& shape, std::uint32_t router,
                        std::size_t dim, const LinkLevels& links) {
  const std::uint32_t size = shape.dims[dim];
  const std::uint32_t coordinate = shape.coordinate(router, dim);
  const bool is_last = coordinate + 1 == size;
  if (is_last && (!shape.wrap || size == 2)) return;
  const std::uint32_t next =
      is_last ? router - coordinate * shape.stride(dim) : router + shape.stride(dim);
  const NodeId from = shape.hosts_per_router * shape.routers + router;
  const NodeId to = from - router + next;
  const PortIndex port = topology_building::add_cable(topology, from, to, 1, links);
  shape.ports[router][2 * dim + 1] = port;
  shape.ports[next][2 * dim] = static_cast<PortIndex>(topology.nodes[to].ports.size() - 1);
  if (is_last && size > 2) {  // the ring's dateline, both directions
    topology.nodes[from].ports[port].vc_step = 1;
    topology.nodes[to].ports.back().vc_step = 1;
  }
  if (shape.wrap && size == 2) {  // one cable serves both directions
    shape.ports[router][2 * dim] = port;
    shape.ports[next][2 * dim + 1] = shape.ports[next][2 * dim];
  }
}

// Output port at `router` toward the router `dst` (different from `router`).
PortIndex port_toward(const TorusShape& shape, std::uint32_t router, std::uint32_t dst) {
  for (std::size_t d = 0; d < shape.dims.size(); ++d) {
    const std::uint32_t from = shape.coordinate(router, d);
    const std::uint32_t to = shape.coordinate(dst, d);
    if (from == to) continue;
    bool positive = to > from;
    if (shape.wrap) {
      const std::uint32_t forward = (to + shape.dims[d] - from) % shape.dims[d];
      positive = forward <= shape.dims[d] - forward;
    }
    return shape.ports[router][2 * d + (positive ? 1 : 0)];
  }
  return kNoPort;
}

}  // namespace

Topology build_torus(const TorusSpec& spec, const LinkLevels& links, const std::string& at) {
  using namespace topology_building;
  TorusShape shape = validate(spec, at);
  const std::uint32_t hosts = shape.routers * shape.hosts_per_router;
  Topology topology = start_topology(spec.wrap ? "torus" : "mesh", hosts, shape.routers);
  for (std::uint32_t r = 0; r < shape.routers; ++r) {
    set_switch(topology, hosts + r, router_name(shape, r), r);
    attach_hosts(topology, hosts + r, r * shape.hosts_per_router, shape.hosts_per_router, links, r);
  }
  for (std::size_t d = 0; d < shape.dims.size(); ++d)
    for (std::uint32_t r = 0; r < shape.routers; ++r)
      add_positive_cable(topology, shape, r, d, links);
  for (std::uint32_t r = 0; r < shape.routers; ++r)
    for (std::uint32_t h = 0; h < hosts; ++h) {
      const std::uint32_t dst = h / shape.hosts_per_router;
      topology.routes[r][h] = dst == r ? static_cast<PortIndex>(h % shape.hosts_per_router)
                                       : port_toward(shape, r, dst);
    }
  return topology;
}

}  // namespace netwarp::netmodels
