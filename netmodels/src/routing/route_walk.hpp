// Route walks for check_topology: follow a topology's routes from every switch toward one host.
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/netmodels/topology.hpp"

namespace netwarp::netmodels {

// Per switch: not walked yet, on the current walk, or known to reach the destination.
enum class RouteReach : std::uint8_t { kUnknown, kOnWalk, kReaches };

// Follows the routes from every switch toward host `dst`, each switch once (a walk stops at a
// switch known to reach dst), so the cost is O(switches). Throws std::logic_error naming the
// first loop, missing port or route ending at another host. `reach` is scratch space.
void check_routes_toward(const Topology& topology, NodeId dst, std::vector<RouteReach>& reach);

}  // namespace netwarp::netmodels
