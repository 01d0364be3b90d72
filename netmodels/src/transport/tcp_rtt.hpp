// RTT estimation and RTO computation of RFC 6298 (section 2), in integer picoseconds, with a
// clock granularity G of 1 ps. The sender times one segment at a time and never a retransmitted
// one (Karn's rule, RFC 6298 section 3); these helpers only turn a sample into SRTT, RTTVAR and
// RTO.
#pragma once

#include <algorithm>
#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels::tcp_detail {

inline constexpr std::int64_t kClockGranularityPs = 1;

// RTO clamped to [min_rto, max_rto] (RFC 6298 2.4 and 2.5).
inline std::int64_t clamp_rto(const TcpConfig& config, std::int64_t rto_ps) {
  return std::min(std::max(rto_ps, config.min_rto.ps()), config.max_rto.ps());
}

// RTO before any sample (RFC 6298 2.1).
inline std::int64_t initial_rto(const TcpConfig& config) {
  return clamp_rto(config, config.initial_rto.ps());
}

// RTO from the current estimate without backoff (RFC 6298 2.3), or the initial RTO (2.1)
// before any sample.
inline std::int64_t unbacked_rto(const TcpSenderState& s, const TcpConfig& config) {
  if (s.has_rtt == 0) return initial_rto(config);
  return clamp_rto(config, s.srtt_ps + std::max(kClockGranularityPs, 4 * s.rttvar_ps));
}

// Takes one RTT measurement `r_ps` (RFC 6298 2.2, 2.3); the backoff ends (RFC 6298 5.7 note).
inline void take_rtt_sample(TcpSenderState& s, const TcpConfig& config, std::int64_t r_ps) {
  if (s.has_rtt == 0) {
    s.srtt_ps = r_ps;
    s.rttvar_ps = r_ps / 2;
    s.has_rtt = 1;
  } else {
    const std::int64_t error = s.srtt_ps > r_ps ? s.srtt_ps - r_ps : r_ps - s.srtt_ps;
    s.rttvar_ps = (3 * s.rttvar_ps + error) / 4;  // RTTVAR first: it uses the old SRTT
    s.srtt_ps = (7 * s.srtt_ps + r_ps) / 8;
  }
  s.rto_ps = unbacked_rto(s, config);
  s.backoff_count = 0;
}

}  // namespace netwarp::netmodels::tcp_detail
