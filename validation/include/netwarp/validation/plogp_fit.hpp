// PlogP parameters by Kielmann's procedure (PLOGP-BR.md, "Background models"), as pure math
// on measured times (ns), and the pattern gaps g(m, C) of PlogP-BR eq (3).
//   g(0)  = burst_ns / burst_count          (n back-to-back 0-byte sends)
//   L     = RTT(0) / 2 - g(0)               (RTT(0) = 2(L + g(0)))
//   g(m)  = RTT(m, 0) - 2L - g(0)           (m bytes answered by 0 bytes: L + g(m) + L + g(0))
//   o_s(m), o_r(m): the measured send-call and receive-call times (message already there).
// The g table holds g(0) at m = 0 unless a size sample at m = 0 is given, which then wins
// (the two agree when RTT(0, 0) = RTT(0)). Throws std::invalid_argument on inconsistent
// input: no sizes, a size twice, times not > 0, L < 0 or a g(m) < 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/validation/fit_samples.hpp"
#include "netwarp/validation/plogp.hpp"

namespace netwarp::validation {

struct PlogpSizeSample {
  std::uint64_t m = 0;
  double rtt_m0_ns = 0;  // RTT of an m-byte message answered by a 0-byte one
  double send_ns = 0;    // o_s(m): the send call
  double recv_ns = 0;    // o_r(m): the receive call, message already arrived
};

struct PlogpSamples {
  std::uint64_t burst_count = 0;  // n back-to-back 0-byte sends ...
  double burst_ns = 0;            // ... took this long
  double rtt0_ns = 0;             // RTT(0)
  std::vector<PlogpSizeSample> sizes;
};

// Notes record the derived g(0) and L. No residuals: the procedure fits every point exactly.
ModelFit<PlogpParams> fit_plogp(const PlogpSamples& samples);

// One concurrent ping-pong measurement of m bytes: the largest per-node round trip with every
// pair of the pattern C at once (T_C) and with the measurement pair alone (T_Ce).
struct ConcurrentPingPong {
  std::uint64_t m = 0;
  double t_c_ns = 0;
  double t_ce_ns = 0;
};

// g(m, C) at each measured m by eq (3), with g(m, C_e) = base.g(m), L = base.L, constrained to
// g >= 0 (the least-squares solution of the constrained one-point fit: max(0, eq (3))), since
// PlogP-BR's parameter files reject a negative gap. A pattern whose pairs finish faster than L
// allows (intra-node pairs with several ranks per host) gets 0 and a note naming `pattern`
// in `notes`.
Table fit_pattern_gap(const PlogpParams& base, const std::vector<ConcurrentPingPong>& points,
                      const std::string& pattern, std::vector<std::string>& notes);

}  // namespace netwarp::validation
