// ns-3.37's TcpCubic, rule by rule (cubic_ns3.hpp). Its integer types are kept: windows are
// whole segments in 32 bits, the target wraps as ns-3's uint32_t arithmetic does, and a
// double becomes a uint32_t as ns-3's build (gcc, x86-64) converts it: through a 64-bit integer.
#include "transport/cubic_ns3.hpp"

#include <algorithm>
#include <cmath>

#include "transport/congestion_state.hpp"

namespace netwarp::netmodels::tcp_cc::cubic_ns3 {
namespace {

static_assert(sizeof(State) == 40);

constexpr double kPsPerSecond = 1e12;

std::uint32_t to_uint32(double x) {
  if (!(x < 9.2e18 && x > -9.2e18)) return 0;  // beyond any window this model reaches
  return static_cast<std::uint32_t>(static_cast<std::int64_t>(x));
}

std::uint32_t cwnd_in_segments(const TcpSenderState& s) {
  return static_cast<std::uint32_t>(s.cwnd / s.mss);
}

}  // namespace

std::uint32_t update(State& c, std::uint32_t cwnd_segments, std::int64_t now_ps, double cubic_c) {
  if (c.in_epoch == 0) {
    c.in_epoch = 1;
    c.epoch_start_ps = now_ps;
    if (c.last_max_cwnd <= cwnd_segments) {
      c.k_s = 0;
      c.origin = cwnd_segments;
    } else {
      c.k_s = std::pow((c.last_max_cwnd - cwnd_segments) / cubic_c, 1 / 3.);
      c.origin = c.last_max_cwnd;
    }
  }
  // Time::Min() stands for "no least RTT yet"; PktsAcked always sets one before this runs.
  const std::int64_t delay_min = c.has_delay_min != 0 ? c.delay_min_ps : 0;
  const double t_s = static_cast<double>(now_ps + delay_min - c.epoch_start_ps) / kPsPerSecond;
  const double offs = t_s < c.k_s ? c.k_s - t_s : t_s - c.k_s;
  const std::uint32_t delta = to_uint32(cubic_c * std::pow(offs, 3));
  const std::uint32_t target = t_s < c.k_s ? c.origin - delta : c.origin + delta;
  std::uint32_t cnt =
      target > cwnd_segments ? cwnd_segments / (target - cwnd_segments) : 100 * cwnd_segments;
  if (c.last_max_cwnd == 0 && cnt > kCntClamp) cnt = kCntClamp;
  return std::max(cnt, 2U);
}

std::uint32_t ssthresh_segments(State& c, std::uint32_t cwnd_segments, double beta) {
  if (cwnd_segments < c.last_max_cwnd) {
    c.last_max_cwnd = to_uint32((cwnd_segments * (1 + beta)) / 2);
  } else {
    c.last_max_cwnd = cwnd_segments;
  }
  c.in_epoch = 0;
  return std::max(to_uint32(cwnd_segments * beta), 2U);
}

void pkts_acked(TcpSenderState& s, SimTime now) {
  State c = load_state<State>(s.congestion);
  if (c.in_epoch != 0 && now.ps() - c.epoch_start_ps < kCubicDeltaPs) return;
  // m_lastRtt: the estimator's smoothed RTT after its latest sample, zero before any.
  const std::int64_t rtt = s.has_rtt != 0 ? s.srtt_ps : 0;
  if (c.has_delay_min == 0 || c.delay_min_ps > rtt) {
    c.delay_min_ps = rtt;
    c.has_delay_min = 1;
  }
  store_state(s.congestion, c);
}

void increase_window(TcpSenderState& s, const TcpConfig& config, std::uint32_t segments,
                     SimTime now) {
  if (s.cwnd < s.ssthresh) {
    s.cwnd += std::uint64_t{segments} * s.mss;
    segments = 0;
  }
  if (s.cwnd < s.ssthresh || segments == 0) return;
  State c = load_state<State>(s.congestion);
  c.cwnd_count += segments;
  const std::uint32_t cnt = update(c, cwnd_in_segments(s), now.ps(), config.cubic_c);
  if (c.cwnd_count >= cnt) {
    s.cwnd += s.mss;
    c.cwnd_count -= cnt;
  }
  store_state(s.congestion, c);
}

std::uint64_t ssthresh(TcpSenderState& s, const TcpConfig& config) {
  State c = load_state<State>(s.congestion);
  const std::uint32_t segments = ssthresh_segments(c, cwnd_in_segments(s), config.cubic_beta);
  store_state(s.congestion, c);
  return std::uint64_t{segments} * s.mss;
}

void on_loss(TcpSenderState& s) {
  State c = load_state<State>(s.congestion);
  c.last_max_cwnd = 0;
  c.origin = 0;
  c.k_s = 0;
  c.has_delay_min = 0;
  c.delay_min_ps = 0;
  store_state(s.congestion, c);
}

}  // namespace netwarp::netmodels::tcp_cc::cubic_ns3
