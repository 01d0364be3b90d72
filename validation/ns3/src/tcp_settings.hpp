// What a netwarp network scenario becomes in ns-3's TCP configuration: the check that the
// scenario can run under netwarp-ns3 at all, notes on settings ns-3 applies differently, and
// the process-wide attribute defaults (ns-3's Config) every socket is created with.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/network_spec.hpp"

namespace netwarp::ns3_check {

// Choices of netwarp-ns3 itself, not in the scenario (README.md, "Choices").
struct Ns3Choices {
  // Forces ns-3's limited transmit on; otherwise it follows transport.tcp.limited_transmit.
  bool limited_transmit = false;
};

// Why the scenario cannot run under netwarp-ns3 (one sentence), or empty when it can.
std::string unsupported_reason(const netmodels::NetworkSpec& spec);

// Settings ns-3 runs differently from the scenario (reported in the JSON and on stderr with
// --verbose); never fatal.
std::vector<std::string> setting_notes(const netmodels::NetworkSpec& spec);

// The TCP segment size: tcp.mss_bytes, else the MTU's payload.
std::uint32_t segment_size(const netmodels::NetworkSpec& spec);

// Sets ns-3's attribute defaults for TCP (NewReno, classic recovery, no SACK, no timestamps,
// the scenario's windows, timers and thresholds). Call before any node exists.
void apply_tcp_defaults(const netmodels::NetworkSpec& spec, const Ns3Choices& choices);

}  // namespace netwarp::ns3_check
