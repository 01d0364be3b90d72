// Outputs of a run resolved against the built topology: node names to NodeIds ("all_hosts"
// expands to every host), queue ports given by node + port or toward a host to PortRefs.
// Unknown names and ports out of range throw netmodels::InputError naming the field.
#pragma once

#include "netwarp/netmodels/network_spec.hpp"
#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

netmodels::OutputSpec resolve_outputs(const proto::Outputs& outputs,
                                      const netmodels::Topology& topology);

}  // namespace netwarp::scenarios
