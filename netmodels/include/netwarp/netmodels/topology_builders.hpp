// Topology builders: pure functions from a spec to a sealed Topology. Each validates its
// parameters and throws InputError naming the field under `at` (e.g. "topology.fat_tree").
#pragma once

#include <string>
#include <vector>

#include "netwarp/netmodels/topology.hpp"

namespace netwarp::netmodels {

// One switch, `hosts` hosts on it. Levels: 0.
struct StarSpec {
  std::uint32_t hosts = 2;
};
Topology build_star(const StarSpec& spec, const LinkLevels& links, const std::string& at);

// Two-level tree: `leaves` leaf switches with `hosts_per_leaf` hosts each, each leaf joined to
// one root switch by `uplinks` parallel links (traffic spread over them by destination host).
// Uplink rate: level 1 of `links` (set it to oversubscribe). 8 x 16 hosts is seed 004's cluster.
struct TreeSpec {
  std::uint32_t leaves = 8;
  std::uint32_t hosts_per_leaf = 16;
  std::uint32_t uplinks = 1;
};
Topology build_tree(const TreeSpec& spec, const LinkLevels& links, const std::string& at);

// Full-bisection 3-level fat tree of k-port switches (k even): k pods of k/2 edge and k/2
// aggregation switches, (k/2)^2 core switches, k^3/4 hosts. MFS's 2p-port form is k = 2p,
// Nnode = 2 p^3. Up-down routing spreading by destination (d-mod-k): routes are shortest.
// Levels: 0 host-edge, 1 edge-aggregation, 2 aggregation-core.
struct FatTreeSpec {
  std::uint32_t k = 4;
};
Topology build_fat_tree(const FatTreeSpec& spec, const LinkLevels& links, const std::string& at);

// 2D or 3D torus (wrap = true) or mesh (wrap = false) of routers, one host per router (or
// `hosts_per_router`). Dimension-order routing (x, then y, then z), shorter way round on a
// torus, ties to the positive direction. Levels: 0 host-router, 1 router-router.
struct TorusSpec {
  std::vector<std::uint32_t> dims = {4, 4};
  bool wrap = true;
  std::uint32_t hosts_per_router = 1;
};
Topology build_torus(const TorusSpec& spec, const LinkLevels& links, const std::string& at);

// Dragonfly: `groups` groups of `routers_per_group` routers, all-to-all inside a group, each
// router with `hosts_per_router` hosts and `global_per_router` global links; groups default to
// routers_per_group * global_per_router + 1 (one global link between every pair of groups).
// Minimal routing: local hop, global hop, local hop. Levels: 0 host, 1 local, 2 global.
struct DragonflySpec {
  std::uint32_t routers_per_group = 4;
  std::uint32_t hosts_per_router = 2;
  std::uint32_t global_per_router = 2;
  std::uint32_t groups = 0;  // 0: routers_per_group * global_per_router + 1
};
Topology build_dragonfly(const DragonflySpec& spec, const LinkLevels& links, const std::string& at);

}  // namespace netwarp::netmodels
