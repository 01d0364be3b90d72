// What a netwarp network scenario becomes in ns-3's TCP configuration: the check that the
// built network can run under netwarp-ns3 at all (rules that span fields), and the
// process-wide attribute defaults (ns-3's Config) every socket is created with.
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

// Why the built network cannot run under netwarp-ns3 (one sentence), or empty when it can:
// the rules that span fields. Each field on its own is judged by the scenario's field table
// (validation/src/coverage/ns3_fields.cpp) before this.
std::string unsupported_reason(const netmodels::NetworkSpec& spec);

// What ns-3 runs, in its own names: "TcpNewReno, Sack on, TcpPrrRecovery (SSRB)".
std::string tcp_variant(const netmodels::TcpConfig& tcp);

// The TCP segment size: tcp.mss_bytes, else the MTU's payload.
std::uint32_t segment_size(const netmodels::NetworkSpec& spec);

// Sets ns-3's attribute defaults for TCP (NewReno; SACK and classic or PRR recovery as the
// scenario says; no timestamps; the scenario's windows, timers and thresholds). Call before any
// node exists.
void apply_tcp_defaults(const netmodels::NetworkSpec& spec, const Ns3Choices& choices);

}  // namespace netwarp::ns3_check
