// RoCEv2 reliable connection settings (transport.kind ROCE): the NIC paces each message's MTU
// packets at the rate its congestion control (DCQCN, Zhu et al., SIGCOMM 2015) sets, numbers
// them (PSNs), and the receiver answers with ACKs and NACKs; lost packets are sent again by
// go-back-N. Defaults and their sources are in scenarios/proto/scenario.proto (Roce, Dcqcn).
#pragma once

#include <cstdint>

#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {

// DCQCN's reaction point (sender) and notification point (receiver); switches are the
// congestion point (ECN marking).
struct DcqcnConfig {
  bool enabled = true;
  double g = 1.0 / 256;                  // alpha's gain
  SimTime alpha_timer = engine::us(55);  // K: alpha decays once per period without a CNP
  SimTime rate_timer = engine::us(55);   // T: a rate increase step per period
  std::uint64_t byte_counter_bytes = 10 * 1024 * 1024;  // B: a rate increase step per B sent
  std::uint32_t fast_recovery_steps = 5;                // F
  std::uint64_t rai_bps = 40'000'000;                   // additive increase of the target rate
  std::uint64_t rhai_bps = 400'000'000;                 // hyper increase
  SimTime cnp_interval = engine::us(50);                // N: at most one CNP per flow per N
  std::uint64_t min_rate_bps = 10'000'000;              // the rate is never cut below this
};

struct RoceConfig {
  SimTime timeout = engine::us(4000);  // go back to the first unacknowledged packet
  std::uint32_t ack_interval_packets = 1;
  DcqcnConfig dcqcn;
};

}  // namespace netwarp::netmodels
