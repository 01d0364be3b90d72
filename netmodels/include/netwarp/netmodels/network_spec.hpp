// NetworkSpec: everything a packet-network run needs, built and validated: the topology, the
// devices' settings, the transport, the placed workload and what to trace. The scenario
// builder fills it; NetworkModel turns it into LPs.
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/netmodels/network_config.hpp"
#include "netwarp/netmodels/topology.hpp"
#include "netwarp/netmodels/workload.hpp"

namespace netwarp::netmodels {

struct PortRef {
  NodeId node = 0;
  PortIndex port = 0;
};

struct OutputSpec {
  std::vector<NodeId> pcap_nodes;    // hosts or switches whose packets are traced
  std::vector<PortRef> queue_ports;  // ports whose occupancy is traced
  bool cwnd_trace = false;
};

struct NetworkSpec {
  Topology topology;
  PacketFormat format;
  SwitchConfig switches;
  NicConfig nic;
  TransportConfig transport;
  Workload workload;
  OutputSpec outputs;
};

}  // namespace netwarp::netmodels
