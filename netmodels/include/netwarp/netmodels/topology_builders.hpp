// Topology builders: pure functions from a spec to a sealed Topology. Each validates its
// parameters and throws InputError naming the field under `at` (e.g. "topology.fat_tree").
#pragma once

#include <optional>
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
// Locality groups: leaf l with its hosts is group l, the root is group `leaves`.
struct TreeSpec {
  std::uint32_t leaves = 8;
  std::uint32_t hosts_per_leaf = 16;
  std::uint32_t uplinks = 1;
};
Topology build_tree(const TreeSpec& spec, const LinkLevels& links, const std::string& at);

// Leaf-spine (two-level Clos): `leaves` leaf switches "leaf<l>" with `hosts_per_leaf` hosts
// each, every leaf joined to every spine "spine<s>" by `links_per_spine` parallel links.
// Levels: 0 host-leaf, 1 leaf-spine (oversubscribe by a slower level 1 or fewer spines).
// Static route toward host h: uplink h % (spines x links_per_spine) of the source leaf and the
// same link down; topology.multipath spreads over every uplink. Locality groups: leaf l with its
// hosts is group l, spine s is group s % leaves (spines spread over the leaves' ranks).
struct LeafSpineSpec {
  std::uint32_t leaves = 2;
  std::uint32_t spines = 2;
  std::uint32_t hosts_per_leaf = 2;
  std::uint32_t links_per_spine = 1;
};
Topology build_leaf_spine(const LeafSpineSpec& spec, const LinkLevels& links,
                          const std::string& at);

// Full-bisection 3-level fat tree of k-port switches (k even): k pods of k/2 edge and k/2
// aggregation switches, (k/2)^2 core switches, k^3/4 hosts. MFS's 2p-port form is k = 2p,
// Nnode = 2 p^3. Up-down routing spreading by destination (d-mod-k): routes are shortest.
// Levels: 0 host-edge, 1 edge-aggregation, 2 aggregation-core. Locality groups: one per edge
// switch (with its hosts and the pod's aggregation switch of the same index); core i joins 2 i.
// ECMP instead hashes each transport connection (and direction) onto one of the equal-cost
// up paths, salted by `route_seed`: per-flow, so one connection never reorders.
enum class FatTreeRouting : std::uint8_t { d_mod_k, ecmp };
struct FatTreeSpec {
  std::uint32_t k = 4;
  FatTreeRouting routing = FatTreeRouting::d_mod_k;
  std::uint64_t route_seed = 1;
};
Topology build_fat_tree(const FatTreeSpec& spec, const LinkLevels& links, const std::string& at);

// 2D or 3D torus (wrap = true) or mesh (wrap = false) of routers, one host per router (or
// `hosts_per_router`). Dimension-order routing (x, then y, then z), shorter way round on a
// torus, ties to the positive direction. Levels: 0 host-router, 1 router-router.
// Routers "r<x>.<y>[.<z>]" are numbered row-major, x fastest; router r holds hosts
// [r * hosts_per_router, (r + 1) * hosts_per_router) and is locality group r. Every size must be
// >= 2; a wrapped dimension of size 2 has one cable between its two routers, not two.
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
// Global links are arranged consecutively: group G's global slot s (0 .. a h - 1, a routers, h
// global links each) belongs to its router s / h and leads to group s if s < G, else s + 1;
// with fewer groups than a h + 1, the last slots stay unused. Router "g<G>.r<i>" is
// locality group G a + i.
// Valiant sends every packet between two groups through a random third group (minimal within
// it); UGAL (local, Kim et al. 2008 section 4.2) chooses per packet at its source router
// between the minimal path and a Valiant path, by output backlog x hops. Both need 3 groups.
enum class DragonflyRouting : std::uint8_t { minimal, valiant, ugal };
struct DragonflySpec {
  std::uint32_t routers_per_group = 4;
  std::uint32_t hosts_per_router = 2;
  std::uint32_t global_per_router = 2;
  std::uint32_t groups = 0;  // 0: routers_per_group * global_per_router + 1
  DragonflyRouting routing = DragonflyRouting::minimal;
};
Topology build_dragonfly(const DragonflySpec& spec, const LinkLevels& links, const std::string& at);

// Explicit graph: named hosts and switches (hosts numbered in the order listed, switches too),
// cables between them, and optional routes. A link's rate and latency default to `links` at its
// level: 0 for a host's link, 1 between switches. Every host has exactly one link, to a switch.
// A route sends packets for host `host` arriving at switch `at` to its neighbour `next`; every
// (switch, host) pair without one takes a shortest path (fewest links, hosts never in transit;
// among equal ones the lowest port). Routes live in an explicit switches x hosts table
// (TableRouter), so this is for networks of modest size. Locality groups: switch i is group i,
// hosts join their switch's. Errors name the field under `at` ("topology.graph.links[2].b").
struct ExplicitNode {
  std::string name;
  bool is_switch = false;
};
struct ExplicitLink {
  std::string a;
  std::string b;
  std::optional<std::uint64_t> rate_bps;  // default: links.at(level).rate_bps
  std::optional<SimTime> latency;         // default: links.at(level).latency
};
struct ExplicitRoute {
  std::string at;    // a switch
  std::string host;  // the destination host
  std::string next;  // a neighbour of `at`
};
struct ExplicitSpec {
  std::vector<ExplicitNode> nodes;
  std::vector<ExplicitLink> links;
  std::vector<ExplicitRoute> routes;
  // Keep every shortest next hop per (switch, host) for multipath routing (then `routes` must
  // be empty: a given route fixes one path).
  bool equal_cost_paths = false;
};
Topology build_explicit(const ExplicitSpec& spec, const LinkLevels& links, const std::string& at);

}  // namespace netwarp::netmodels
