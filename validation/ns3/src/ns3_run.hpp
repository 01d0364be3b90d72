// One ns-3 run of a netwarp network workload: set TCP defaults, build the network, install a
// sender per message and a sink per receiving host, run until every message is acknowledged
// and delivered, and collect per-flow and per-port counters.
//
//   Ns3RunResult r = run_ns3(spec, {.pcap_dir = "out/pcap"});
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "message_apps.hpp"
#include "netwarp/netmodels/network_spec.hpp"
#include "tcp_settings.hpp"

namespace netwarp::ns3_check {

struct Ns3RunSettings {
  std::string pcap_dir;  // empty: no pcap
  // The scenario's end_time_ns: stop there, finished or not; -1: when every message is.
  std::int64_t end_ps = -1;
  Ns3Choices choices;
};

struct PortOutcome {
  netmodels::NodeId node = 0;
  netmodels::PortIndex port = 0;
  netmodels::NodeId peer = 0;
  std::uint64_t packets_sent = 0;  // admitted to the device queue (all of them leave)
  std::uint64_t bytes_sent = 0;    // ns-3 frame bytes: IP packet + 2 B PPP header
  std::uint64_t packets_dropped = 0;
  std::uint64_t bytes_dropped = 0;
};

struct Ns3RunResult {
  std::string ns3_version;         // "3.37"
  std::vector<FlowOutcome> flows;  // by message id
  std::vector<PortOutcome> ports;  // every port, node by node
  std::int64_t end_ps = 0;         // when the simulation stopped
};

// ns-3's simulator is a process-wide singleton: call once per process. Throws
// std::invalid_argument when the topology has no ns-3 counterpart.
Ns3RunResult run_ns3(const netmodels::NetworkSpec& spec, const Ns3RunSettings& settings);

}  // namespace netwarp::ns3_check
