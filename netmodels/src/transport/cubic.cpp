// CUBIC congestion control, RFC 9438 section 4: the cubic window function and K (4.2), the
// Reno-friendly region (4.3), growth toward the target in the concave and convex regions (4.4,
// 4.5), multiplicative decrease by beta_cubic (4.6), fast convergence (4.7), the timeout (4.8)
// and standard slow start (4.10). t runs from the first congestion-avoidance ACK of an epoch,
// in SimTime. Floating point is deterministic here (the same operations in every kernel); the
// state is stored as the doubles' bytes.
#include "transport/cubic.hpp"

#include <algorithm>
#include <cmath>

#include "transport/congestion_state.hpp"
#include "transport/new_reno.hpp"

namespace netwarp::netmodels::tcp_cc::cubic {
namespace {

constexpr double kSecondsPerPs = 1e-12;

Params params(const TcpConfig& config) {
  return Params{config.cubic_c, config.cubic_beta};
}

double in_segments(std::uint64_t bytes, std::uint32_t mss) {
  return static_cast<double>(bytes) / mss;
}

// Section 4.6: ssthresh = flight_size * beta_cubic (at least 2 SMSS, below).
std::uint64_t reduced_window(std::uint64_t flight, const TcpConfig& config) {
  return static_cast<std::uint64_t>(static_cast<double>(flight) * config.cubic_beta);
}

void reduce(TcpSenderState& s, const TcpConfig& config, std::uint64_t flight,
            std::uint64_t min_cwnd_segments) {
  State c = load_state<State>(s.congestion);
  on_congestion_event(c, in_segments(s.cwnd, s.mss), params(config));
  store_state(s.congestion, c);
  const std::uint64_t window = reduced_window(flight, config);
  const std::uint64_t mss = s.mss;
  s.ssthresh = std::max(window, 2 * mss);
  s.cwnd = std::max(window, min_cwnd_segments * mss);
}

}  // namespace

double window(double t_s, double k_s, double w_max, const Params& p) {
  const double d = t_s - k_s;
  return p.c * d * d * d + w_max;
}

double k_seconds(double w_max, double cwnd_epoch, const Params& p) {
  return std::cbrt((w_max - cwnd_epoch) / p.c);
}

double reno_friendly_alpha(const Params& p) {
  return 3 * (1 - p.beta) / (1 + p.beta);
}

double target(double cwnd, double w_cubic_next) {
  return std::clamp(w_cubic_next, cwnd, 1.5 * cwnd);
}

// W_max unknown: K = 0 and W_max = cwnd_epoch (4.8 after a timeout, 4.10 with no loss yet).
void start_epoch(State& c, double cwnd, std::int64_t now_ps, const Params& p) {
  c.in_epoch = 1;
  c.epoch_start_ps = now_ps;
  if (c.w_max <= 0) {
    c.w_max = cwnd;
    c.k_s = 0;
  } else {
    c.k_s = k_seconds(c.w_max, cwnd, p);
  }
  if (c.cwnd_prior <= 0) c.cwnd_prior = cwnd;  // 4.10: cwnd_prior = cwnd without a loss
  c.w_est = cwnd;                              // 4.3: W_est starts at cwnd_epoch
  c.carry_bytes = 0;
}

// Section 4.3: W_est grows by alpha_cubic per window of ACKs, by 1 once it reaches cwnd_prior;
// where W_cubic(t) is below it, cwnd follows W_est. Otherwise (concave, 4.4, or convex, 4.5)
// cwnd += (target - cwnd) / cwnd per acknowledged segment.
double on_ack(State& c, double cwnd, double acked, double t_s, double rtt_s, const Params& p) {
  const double alpha = c.w_est >= c.cwnd_prior ? 1.0 : reno_friendly_alpha(p);
  c.w_est += alpha * acked / cwnd;
  if (window(t_s, c.k_s, c.w_max, p) < c.w_est) return std::max(cwnd, c.w_est);
  const double goal = target(cwnd, window(t_s + rtt_s, c.k_s, c.w_max, p));
  return cwnd + (goal - cwnd) / cwnd * acked;
}

void on_congestion_event(State& c, double cwnd, const Params& p) {
  c.w_max = cwnd < c.w_max ? cwnd * (1 + p.beta) / 2 : cwnd;
  c.cwnd_prior = cwnd;
  c.in_epoch = 0;
}

// Below ssthresh: standard slow start (4.10). RTT is the smoothed RTT (4.2), 0 before a sample.
void grow(TcpSenderState& s, const TcpConfig& config, std::uint64_t acked, SimTime now) {
  if (s.cwnd < s.ssthresh) return new_reno::slow_start(s, acked);
  const Params p = params(config);
  State c = load_state<State>(s.congestion);
  const double cwnd = in_segments(s.cwnd, s.mss);
  if (c.in_epoch == 0) start_epoch(c, cwnd, now.ps(), p);
  const double t_s = static_cast<double>(now.ps() - c.epoch_start_ps) * kSecondsPerPs;
  const double rtt_s = s.has_rtt != 0 ? static_cast<double>(s.srtt_ps) * kSecondsPerPs : 0;
  const double next = on_ack(c, cwnd, in_segments(acked, s.mss), t_s, rtt_s, p);
  const double grown_bytes = (next - cwnd) * s.mss + c.carry_bytes;
  const double whole_bytes = std::floor(grown_bytes);
  s.cwnd += static_cast<std::uint64_t>(whole_bytes);
  c.carry_bytes = grown_bytes - whole_bytes;
  store_state(s.congestion, c);
}

// Section 4.6, loss: cwnd = max(ssthresh, 2 SMSS), before RFC 6582's inflation.
void on_fast_retransmit(TcpSenderState& s, const TcpConfig& config, std::uint64_t flight) {
  reduce(s, config, flight, 2);
}

// Section 4.6, ECE: cwnd may go down to 1 SMSS.
void on_ecn_echo(TcpSenderState& s, const TcpConfig& config, std::uint64_t flight) {
  reduce(s, config, flight, 1);
}

// Section 4.8: cwnd as Reno (1 SMSS), ssthresh by beta_cubic (held on a repeated timeout of
// the same data, as NewReno), and the next epoch has K = 0 and W_max = cwnd_epoch.
void on_timeout(TcpSenderState& s, const TcpConfig& config, bool is_repeat, std::uint64_t flight) {
  State c = load_state<State>(s.congestion);
  if (!is_repeat) {
    c.cwnd_prior = in_segments(s.cwnd, s.mss);
    s.ssthresh = std::max(reduced_window(flight, config), 2 * std::uint64_t{s.mss});
  }
  c.w_max = 0;
  c.in_epoch = 0;
  store_state(s.congestion, c);
  s.cwnd = s.mss;
}

}  // namespace netwarp::netmodels::tcp_cc::cubic
