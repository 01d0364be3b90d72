// NewReno's window rules (RFC 5681 section 3.1, RFC 6582 section 3.2, RFC 3168 section 6.1.2),
// also the slow start and loss response that CUBIC and DCTCP share.
#pragma once

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels::tcp_cc::new_reno {

inline std::uint64_t flight_size(const TcpSenderState& s) {
  return s.snd_nxt - s.snd_una;
}

// Equation (4) of RFC 5681: max(FlightSize / 2, 2 * SMSS).
std::uint64_t halved_ssthresh(std::uint64_t flight, std::uint32_t mss);
// RFC 5681 3.1, eq. (2): slow start adds min(acked, SMSS).
void slow_start(TcpSenderState& s, std::uint64_t acked);
// Slow start below ssthresh, else congestion avoidance (eq. 3).
void grow(TcpSenderState& s, std::uint64_t acked);
void on_fast_retransmit(TcpSenderState& s, std::uint64_t flight);
void on_timeout(TcpSenderState& s, bool is_repeat, std::uint64_t flight);
void on_ecn_echo(TcpSenderState& s, std::uint64_t flight);
void on_recovery_exit(TcpSenderState& s, const TcpConfig& config);

}  // namespace netwarp::netmodels::tcp_cc::new_reno
