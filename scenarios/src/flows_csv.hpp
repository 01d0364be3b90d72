// read_scenario_flows_csv: a scenario's workload.flows.csv_file, read and checked at its own
// file and lines (flows_csv.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/workload.hpp"
#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

// Throws ScenarioError naming `csv` (and the line) for any mistake in it.
std::vector<netmodels::FlowSpec> read_scenario_flows_csv(const std::string& csv,
                                                         const proto::Scenario& scenario,
                                                         std::uint64_t ranks);

}  // namespace netwarp::scenarios
