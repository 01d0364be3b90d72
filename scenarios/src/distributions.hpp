// Flow-size distributions of datacenter workloads (scenario.proto, Datacenter.distribution).
#pragma once

#include <string>

#include "netwarp/netmodels/empirical_cdf.hpp"

namespace netwarp::scenarios {

// The file a distribution name stands for: scenarios/distributions/NAME.cdf for a shipped one,
// else NAME relative to the scenario's folder.
std::string distribution_path(const std::string& name, const std::string& scenario_path);
// Read and checked: InputError at `field` for an unknown name, FileInputError inside the file.
netmodels::EmpiricalCdf load_distribution(const std::string& name, const std::string& field,
                                          const std::string& scenario_path);

}  // namespace netwarp::scenarios
