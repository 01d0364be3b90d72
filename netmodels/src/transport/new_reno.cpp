// NewReno's window rules: slow start and congestion avoidance with appropriate byte counting
// (L = 1 SMSS, RFC 5681 section 3.1), ssthresh by eq. (4) on fast retransmit (RFC 6582 3.2
// step 2), on a timeout (RFC 5681 3.1, held on repeated timeouts of the same data) and on an
// ECN echo (RFC 3168 6.1.2), and the deflation that ends fast recovery (RFC 6582 3.2 step 6).
#include "transport/new_reno.hpp"

#include <algorithm>

namespace netwarp::netmodels::tcp_cc::new_reno {

std::uint64_t halved_ssthresh(std::uint64_t flight, std::uint32_t mss) {
  return std::max<std::uint64_t>(flight / 2, 2 * std::uint64_t{mss});
}

void slow_start(TcpSenderState& s, std::uint64_t acked) {
  s.cwnd += std::min<std::uint64_t>(acked, s.mss);
}

// Congestion avoidance: about one SMSS per RTT (eq. 3), at least one byte per ACK.
void grow(TcpSenderState& s, std::uint64_t acked) {
  const std::uint64_t mss = s.mss;
  if (s.cwnd < s.ssthresh) {
    slow_start(s, acked);
  } else {
    s.cwnd += std::max<std::uint64_t>(1, mss * mss / s.cwnd);
  }
}

// The sender sets cwnd = ssthresh + 3 * SMSS from this (RFC 6582 3.2 step 2).
void on_fast_retransmit(TcpSenderState& s, std::uint64_t flight) {
  s.ssthresh = halved_ssthresh(flight, s.mss);
}

void on_timeout(TcpSenderState& s, bool is_repeat, std::uint64_t flight) {
  if (!is_repeat) s.ssthresh = halved_ssthresh(flight, s.mss);
  s.cwnd = s.mss;
}

void on_ecn_echo(TcpSenderState& s, std::uint64_t flight) {
  s.ssthresh = halved_ssthresh(flight, s.mss);
  s.cwnd = s.ssthresh;
}

// Step 6 as TcpConfig::recovery_exit_cwnd says: option 1, min(ssthresh, max(FlightSize, SMSS)
// + SMSS), or option 2, ssthresh.
void on_recovery_exit(TcpSenderState& s, const TcpConfig& config) {
  const std::uint64_t mss = s.mss;
  if (config.recovery_exit_cwnd == RecoveryExitCwnd::ssthresh) {
    s.cwnd = s.ssthresh;
  } else {
    s.cwnd = std::min(s.ssthresh, std::max(flight_size(s), mss) + mss);
  }
}

}  // namespace netwarp::netmodels::tcp_cc::new_reno
