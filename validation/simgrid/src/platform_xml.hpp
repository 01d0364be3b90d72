// A SimGrid platform (XML, DTD version 4.1) from a netwarp Topology: every host a SimGrid host,
// every switch a router, every port (one direction of a cable) a link of its own with the
// port's rate and propagation latency, so the two directions of a cable are shared
// independently, as in the packet network. One Full-routing zone holds an explicit route for
// every ordered pair of routed hosts: the links of the path netwarp's routes take.
//
//   std::string xml = platform_xml(topology, 0, rank_hosts, find_network_model("CM02"));
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/topology.hpp"
#include "network_model.hpp"

namespace netwarp::simgrid_check {

// SimGrid names of the nodes: the topology's names ("host3", "edge1.2"), or "node<id>" where a
// name is empty or taken.
std::vector<std::string> simgrid_node_names(const netmodels::Topology& topology);

// The link of `port` of `node`: "<node name>-p<port>".
std::string link_name(const std::vector<std::string>& node_names, netmodels::NodeId node,
                      netmodels::PortIndex port);

// `nic_rate_bps` (NicConfig::rate_bps; 0: the link's rate) replaces the rate of every host's own
// port, as the packet network's NIC does. Routes are written between every two distinct hosts
// of `routed_hosts` (the hosts that run a rank; routes between the others are never used).
// `model` gives the <config> block.
std::string platform_xml(const netmodels::Topology& topology, std::uint64_t nic_rate_bps,
                         const std::vector<netmodels::NodeId>& routed_hosts,
                         const NetworkModelChoice& model);

}  // namespace netwarp::simgrid_check
