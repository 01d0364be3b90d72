// Pieces of the network builder that the MPI builder shares.
#pragma once

#include <string>

#include "netwarp/netmodels/network_config.hpp"
#include "netwarp/netmodels/workload.hpp"
#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

netmodels::PlacementSpec placement_spec(const proto::Placement& placement);
// A file named in a scenario: relative paths are taken from the scenario's folder.
std::string beside_scenario(const std::string& scenario_path, const std::string& file);
// The hosts a host set names, in order (random: a seeded draw of distinct hosts).
std::vector<netmodels::NodeId> host_set_hosts(const proto::HostSet& set, std::uint32_t host_count,
                                              const std::string& at);
// transport.tcp's congestion control and its parameters (settings.cpp).
void set_congestion_control(const proto::Tcp& tcp, netmodels::TcpConfig& config);

}  // namespace netwarp::scenarios
