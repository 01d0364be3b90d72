// The route tables the topology builders filled before routing was computed (kept here only to
// prove the routers compute the same routes): legacy_routes(spec)[s][h] is the output port of
// switch host_count + s toward host h. Each function is the old builder's fill step, taking the
// port numbers from the old cabling order (the torus replays its cable loop to count ports).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "netwarp/netmodels/topology_builders.hpp"

namespace netwarp::netmodels::legacy {

using RouteTable = std::vector<std::vector<PortIndex>>;

inline RouteTable star_routes(const StarSpec& spec) {
  RouteTable routes(1, std::vector<PortIndex>(spec.hosts));
  for (std::uint32_t h = 0; h < spec.hosts; ++h) routes[0][h] = static_cast<PortIndex>(h);
  return routes;
}

inline RouteTable tree_routes(const TreeSpec& spec) {
  const std::uint32_t hosts = spec.leaves * spec.hosts_per_leaf;
  RouteTable routes(spec.leaves + 1, std::vector<PortIndex>(hosts));
  const std::uint32_t root = spec.leaves;
  for (std::uint32_t h = 0; h < hosts; ++h) {
    const std::uint32_t dst_leaf = h / spec.hosts_per_leaf;
    const std::uint32_t uplink = h % spec.uplinks;
    for (std::uint32_t l = 0; l < spec.leaves; ++l)
      routes[l][h] = static_cast<PortIndex>(l == dst_leaf ? h % spec.hosts_per_leaf
                                                          : spec.hosts_per_leaf + uplink);
    routes[root][h] = static_cast<PortIndex>(dst_leaf * spec.uplinks + uplink);
  }
  return routes;
}

inline RouteTable fat_tree_routes(const FatTreeSpec& spec) {
  const std::uint32_t k = spec.k;
  const std::uint32_t p = k / 2;
  const std::uint32_t hosts = k * p * p;
  RouteTable routes(2 * k * p + p * p, std::vector<PortIndex>(hosts));
  auto edge = [&](std::uint32_t pod, std::uint32_t e) { return pod * 2 * p + e; };
  auto agg = [&](std::uint32_t pod, std::uint32_t a) { return pod * 2 * p + p + a; };
  auto core = [&](std::uint32_t i) { return 2 * k * p + i; };
  for (std::uint32_t h = 0; h < hosts; ++h) {
    const std::uint32_t dst_edge_global = h / p;
    const std::uint32_t dst_pod = dst_edge_global / p;
    const auto up_to_agg = static_cast<PortIndex>(p + h % p);
    const auto up_to_core = static_cast<PortIndex>(p + (h / p) % p);
    for (std::uint32_t pod = 0; pod < k; ++pod)
      for (std::uint32_t i = 0; i < p; ++i) {
        const bool is_dst_edge = pod * p + i == dst_edge_global;
        routes[edge(pod, i)][h] = is_dst_edge ? static_cast<PortIndex>(h % p) : up_to_agg;
        routes[agg(pod, i)][h] =
            pod == dst_pod ? static_cast<PortIndex>(dst_edge_global % p) : up_to_core;
      }
    for (std::uint32_t i = 0; i < p * p; ++i) routes[core(i)][h] = static_cast<PortIndex>(dst_pod);
  }
  return routes;
}

// The old torus builder's port bookkeeping: ports[router][2 * dim + (positive ? 1 : 0)].
struct LegacyTorus {
  std::vector<std::uint32_t> dims;
  bool wrap = true;
  std::uint32_t hosts_per_router = 1;
  std::uint32_t routers = 1;
  std::vector<std::array<PortIndex, 6>> ports;
  std::vector<PortIndex> next_free;  // per router: the index its next cable gets

  std::uint32_t coordinate(std::uint32_t router, std::size_t dim) const {
    for (std::size_t d = 0; d < dim; ++d) router /= dims[d];
    return router % dims[dim];
  }
  std::uint32_t stride(std::size_t dim) const {
    std::uint32_t s = 1;
    for (std::size_t d = 0; d < dim; ++d) s *= dims[d];
    return s;
  }
  void add_positive_cable(std::uint32_t router, std::size_t dim) {
    const std::uint32_t size = dims[dim];
    const std::uint32_t c = coordinate(router, dim);
    const bool is_last = c + 1 == size;
    if (is_last && (!wrap || size == 2)) return;
    const std::uint32_t next = is_last ? router - c * stride(dim) : router + stride(dim);
    const PortIndex port = next_free[router]++;
    ports[router][2 * dim + 1] = port;
    ports[next][2 * dim] = next_free[next]++;
    if (wrap && size == 2) {
      ports[router][2 * dim] = port;
      ports[next][2 * dim + 1] = ports[next][2 * dim];
    }
  }
  PortIndex port_toward(std::uint32_t router, std::uint32_t dst) const {
    for (std::size_t d = 0; d < dims.size(); ++d) {
      const std::uint32_t from = coordinate(router, d);
      const std::uint32_t to = coordinate(dst, d);
      if (from == to) continue;
      bool positive = to > from;
      if (wrap) {
        const std::uint32_t forward = (to + dims[d] - from) % dims[d];
        positive = forward <= dims[d] - forward;
      }
      return ports[router][2 * d + (positive ? 1 : 0)];
    }
    return ~PortIndex{0};
  }
};

inline RouteTable torus_routes(const TorusSpec& spec) {
  LegacyTorus torus{spec.dims, spec.wrap, spec.hosts_per_router, 1, {}, {}};
  for (std::uint32_t size : spec.dims) torus.routers *= size;
  std::array<PortIndex, 6> none;
  none.fill(~PortIndex{0});
  torus.ports.assign(torus.routers, none);
  torus.next_free.assign(torus.routers, static_cast<PortIndex>(spec.hosts_per_router));
  for (std::size_t d = 0; d < spec.dims.size(); ++d)
    for (std::uint32_t r = 0; r < torus.routers; ++r) torus.add_positive_cable(r, d);
  const std::uint32_t hosts = torus.routers * spec.hosts_per_router;
  RouteTable routes(torus.routers, std::vector<PortIndex>(hosts));
  for (std::uint32_t r = 0; r < torus.routers; ++r)
    for (std::uint32_t h = 0; h < hosts; ++h) {
      const std::uint32_t dst = h / spec.hosts_per_router;
      routes[r][h] =
          dst == r ? static_cast<PortIndex>(h % spec.hosts_per_router) : torus.port_toward(r, dst);
    }
  return routes;
}

inline RouteTable dragonfly_routes(const DragonflySpec& spec) {
  const std::uint32_t a = spec.routers_per_group;
  const std::uint32_t p = spec.hosts_per_router;
  const std::uint32_t h = spec.global_per_router;
  const std::uint32_t g = spec.groups == 0 ? a * h + 1 : spec.groups;
  auto slot = [](std::uint32_t from, std::uint32_t to) { return to < from ? to : to - 1; };
  auto local_port = [&](std::uint32_t i, std::uint32_t j) {
    return static_cast<PortIndex>(p + (j < i ? j : j - 1));
  };
  auto global_port = [&](std::uint32_t s) { return static_cast<PortIndex>(p + a - 1 + s % h); };
  auto route_from = [&](std::uint32_t group, std::uint32_t i, std::uint32_t dst_host) {
    const std::uint32_t dst_router = dst_host / p;
    const std::uint32_t dst_group = dst_router / a;
    if (dst_router == group * a + i) return static_cast<PortIndex>(dst_host % p);
    if (dst_group == group) return local_port(i, dst_router % a);
    const std::uint32_t out_slot = slot(group, dst_group);
    const std::uint32_t owner = out_slot / h;
    return owner == i ? global_port(out_slot) : local_port(i, owner);
  };
  const std::uint32_t hosts = g * a * p;
  RouteTable routes(g * a, std::vector<PortIndex>(hosts));
  for (std::uint32_t group = 0; group < g; ++group)
    for (std::uint32_t i = 0; i < a; ++i)
      for (std::uint32_t dst = 0; dst < hosts; ++dst)
        routes[group * a + i][dst] = route_from(group, i, dst);
  return routes;
}

}  // namespace netwarp::netmodels::legacy
