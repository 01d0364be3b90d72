// Nodes of a built topology by the names its builder gave them ("host3", "leaf0", "root",
// "edge1.2", "r3.4", "g0.r1"). An unknown name is answered with the known ones, switches first
// (there are few, and they are the names a person cannot guess), then hosts, in node order.
#pragma once

#include <string>

#include "netwarp/netmodels/topology.hpp"

namespace netwarp::scenarios {

// "switches: leaf0, leaf1, root; hosts: host0, host1, host2, host3, ... (12 more)".
std::string known_node_names(const netmodels::Topology& topology);

// The node named `name`; throws netmodels::InputError(field, "unknown node ...") listing the
// known names, with `extra` (e.g. "all_hosts") first when it is not empty.
netmodels::NodeId find_node(const netmodels::Topology& topology, const std::string& name,
                            const std::string& field, const std::string& extra = "");

}  // namespace netwarp::scenarios
