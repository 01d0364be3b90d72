// NetworkSpec: everything a packet-network run needs, built and validated: the topology, the
// devices' settings, the transport, the placed workload and what to trace. The scenario
// builder fills it; NetworkModel turns it into LPs.
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/netmodels/network_config.hpp"
#include "netwarp/netmodels/packet.hpp"
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
  std::vector<PortRef> pcap_ports;   // ports whose departures are traced (port mirrors)
  bool cwnd_trace = false;
  // Time series (ports_timeseries.csv, flows_timeseries.csv): the sampling interval; 0: none.
  std::int64_t sample_interval_ps = kDefaultSampleIntervalPs;
  static constexpr std::int64_t kDefaultSampleIntervalPs = 10'000'000;  // 10 us
};

// Fault injection: the first transmission of the data segment of `flow` starting at byte `seq`
// (or of its SYN or SYN-ACK, kind syn / syn_ack, seq unused) is dropped at the first switch it
// reaches (retransmissions, and SYN-ACKs that answer them, pass). For loss studies and tests.
struct PacketDrop {
  MessageId flow = 0;
  std::uint32_t seq = 0;
  PacketKind kind = PacketKind::data;
};

struct NetworkSpec {
  Topology topology;
  PacketFormat format;
  SwitchConfig switches;
  NicConfig nic;
  TransportConfig transport;
  Workload workload;
  OutputSpec outputs;
  std::vector<PacketDrop> drops;
};

}  // namespace netwarp::netmodels
