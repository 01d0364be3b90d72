// The ns-3 twin of a netwarp topology: one ns-3 node per netwarp node (same index), one
// point-to-point link per cable with each port's rate and the cable's latency, byte-mode (or
// packet-mode) DropTail device queues and no queue discs but a RedQueueDisc step marker on the
// switch ports where the scenario marks (before a one-packet device queue), IPv4 with static
// routes copied from netwarp's own routes, so every packet takes the path it takes in netwarp.
//
//   Ns3Network net = build_ns3_network(spec);   // after apply_tcp_defaults
//   net.host_address[h]                         // where to connect to host h
#pragma once

#include <string>
#include <vector>

#include "netwarp/netmodels/network_spec.hpp"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ptr.h"

namespace netwarp::ns3_check {

struct Ns3Network {
  ns3::NodeContainer nodes;  // index = netwarp NodeId
  // devices[node][port]: the device that sends on netwarp's port `port` of `node`.
  std::vector<std::vector<ns3::Ptr<ns3::PointToPointNetDevice>>> devices;
  std::vector<ns3::Ipv4Address> host_address;  // the address of each host's port 0
};

// Throws std::invalid_argument when the topology has no ns-3 counterpart (a cable whose two
// directions have different latencies: an ns-3 channel has one delay).
Ns3Network build_ns3_network(const netmodels::NetworkSpec& spec);

// ns-3's own pcap of every device, one file per netwarp port: DIR/<node name>-p<port>.pcap
// (link type PPP: each frame starts with the 2 B PPP header).
void enable_pcap(const netmodels::NetworkSpec& spec, const Ns3Network& net, const std::string& dir);

}  // namespace netwarp::ns3_check
