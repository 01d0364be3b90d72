// The platform a parameter set was fitted on, recorded in the parameter file ("platform") so
// that `netwarp predict` can say when the set is used on another one. A platform is what the
// fitted values depend on: the topology kind (not its size: a ping-pong on two hosts of a star
// stands for any star), the links, switch, NIC and transport settings and the MPI host costs
// and protocol thresholds, each as the effective scenario has it (defaults filled).
//   "platform": {"scenario": "scenarios/pingpong.pbtxt", "topology": "star",
//                "links": "rate_bps: 10000000000 latency_ns: 500 ...", "switch": "...", ...}
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::validation {

nlohmann::ordered_json platform_record(const scenarios::LoadedScenario& loaded);

// The parts ("links", "mpi.host" ...) in which `recorded` differs from the platform of
// `loaded`, in record order; empty when they agree. A part missing from `recorded` counts as
// different. Throws netmodels::InputError("platform", ...) when `recorded` is not an object.
std::vector<std::string> platform_differences(const nlohmann::ordered_json& recorded,
                                              const scenarios::LoadedScenario& loaded);

}  // namespace netwarp::validation
