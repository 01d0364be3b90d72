// Defaults of a scenario, filled in before validation so that checks, the builder and the
// effective scenario text all see one value per field. Only fields whose comment in
// scenario.proto names a default are filled: absent `optional` fields, and 0 where 0 means the
// default. Explicit values are never changed.
#pragma once

#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

void fill_defaults(proto::Scenario& scenario);

}  // namespace netwarp::scenarios
