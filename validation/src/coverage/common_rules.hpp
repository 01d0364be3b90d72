// Rules both cross-checks' tables share: labels and kernel settings (no effect on what is
// compared) and the topologies and placements whose routes netwarp computes itself, which a
// cross-check mirrors as fixed routes per destination.
#pragma once

#include <string>
#include <vector>

#include "netwarp/validation/field_coverage.hpp"

namespace netwarp::validation {

// name, description, emulate and every engine field but tie_order (each table judges that).
std::vector<FieldRule> label_and_kernel_rules();

// topology.{star,tree,fat_tree,torus,dragonfly,graph} and placement.*; `routes` says how the
// cross-check routes ("ns-3 gets static routes, one port per destination"), the reason ECMP
// and non-minimal dragonfly routing are refused.
std::vector<FieldRule> fixed_route_topology_rules(const std::string& routes);

}  // namespace netwarp::validation
