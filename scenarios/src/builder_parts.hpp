// Pieces of the network builder that the MPI builder shares.
#pragma once

#include "netwarp/netmodels/workload.hpp"
#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

netmodels::PlacementSpec placement_spec(const proto::Placement& placement);

}  // namespace netwarp::scenarios
