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
  // Upper bounds of the flow-size buckets FCT slowdown is reported by (a last bucket above).
  std::vector<std::uint64_t> size_buckets_bytes;
  // Several traffic classes share the network: every drop is a DropRecord, so that the results
  // attribute drops to classes (off otherwise: the other runs' records stay as they were).
  bool drops_by_class = false;
  // 100 us: fine enough for a drop-tail queue at 1 Gbit/s (64 KiB drain in 0.5 ms), and
  // about 1000 rows per active port per 100 ms simulated; at 10 us a 3 s incast's run costs
  // 3.4x the CPU of an unsampled one (records and CSV), at 100 us 1.6x.
  static constexpr std::int64_t kDefaultSampleIntervalPs = 100'000'000;
};

// Fault injection: the first transmission of the data segment of `flow` starting at byte `seq`
// (or of its SYN or SYN-ACK, kind syn / syn_ack, seq unused) is dropped at the first switch it
// reaches (retransmissions, and SYN-ACKs that answer them, pass). For loss studies and tests.
struct PacketDrop {
  MessageId flow = 0;
  std::uint32_t seq = 0;
  PacketKind kind = PacketKind::data;
};

// Where NetworkModel puts LPs when the topology has fewer locality groups than ranks (a star is
// one group). together: each group on one rank and the other ranks idle, since cutting a switch
// from its hosts puts every packet across ranks, one link latency of lookahead apart (the
// 64-sender incast ran 6-30x slower than sequential on 2 ranks so). spread: contiguous blocks of
// LPs, so every rank has work (to exercise the parallel kernel on a small network).
enum class FewGroupsPlacement { together, spread };

struct NetworkSpec {
  Topology topology;
  FewGroupsPlacement few_groups = FewGroupsPlacement::spread;
  PacketFormat format;
  SwitchConfig switches;
  NicConfig nic;
  TransportConfig transport;
  // The TCP settings of workloads with a transport of their own (Message::tcp_config).
  std::vector<TcpConfig> workload_tcp;
  Workload workload;
  std::uint8_t stream_priority = 0;  // the traffic class of StreamTransport's packets (MPI)
  OutputSpec outputs;
  std::vector<PacketDrop> drops;
};

}  // namespace netwarp::netmodels
