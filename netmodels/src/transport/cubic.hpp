// CUBIC (RFC 9438): the window as a cubic function of the time since the congestion-avoidance
// epoch began, with a Reno-friendly floor. The pure functions work in segments and seconds, as
// the RFC does; the hooks at the bottom apply them to a sender's byte windows.
#pragma once

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels::tcp_cc::cubic {

struct Params {
  double c = 0.4;     // segments / s^3 (section 4.2)
  double beta = 0.7;  // beta_cubic (section 4.6)
};

// Stored in TcpSenderState::congestion. Windows in segments (RFC 9438 section 4.1.2).
struct State {
  double w_max = 0;        // 0: not known (no congestion event yet, or reset by a timeout)
  double cwnd_prior = 0;   // cwnd when ssthresh was last set (section 4.1.2)
  double k_s = 0;          // K of the current epoch
  double w_est = 0;        // the Reno-friendly estimate (section 4.3)
  double carry_bytes = 0;  // growth below one byte, kept for the next ACK
  std::int64_t epoch_start_ps = 0;
  std::uint8_t in_epoch = 0;  // a congestion-avoidance epoch has begun
  std::uint8_t reserved[7] = {};
};

// Figure 1 (section 4.2): W_cubic(t) = C (t - K)^3 + W_max.
double window(double t_s, double k_s, double w_max, const Params& p);
// Figure 2 (section 4.2): K = cbrt((W_max - cwnd_epoch) / C).
double k_seconds(double w_max, double cwnd_epoch, const Params& p);
// Figure 4 (section 4.3): alpha_cubic = 3 (1 - beta) / (1 + beta).
double reno_friendly_alpha(const Params& p);
// Section 4.2: W_cubic(t + RTT) clamped to [cwnd, 1.5 cwnd].
double target(double cwnd, double w_cubic_next);
// Starts an epoch at `now_ps` with cwnd_epoch = `cwnd` (sections 4.2, 4.3, 4.8, 4.10).
void start_epoch(State& c, double cwnd, std::int64_t now_ps, const Params& p);
// One ACK of `acked` segments in congestion avoidance, `t_s` into the epoch: returns the new
// cwnd (sections 4.3-4.5).
double on_ack(State& c, double cwnd, double acked, double t_s, double rtt_s, const Params& p);
// A congestion event with `cwnd` before the reduction: W_max with fast convergence (4.7),
// cwnd_prior (4.6); the next congestion-avoidance ACK starts a new epoch.
void on_congestion_event(State& c, double cwnd, const Params& p);

// Hooks on a sender (congestion_control.hpp).
void grow(TcpSenderState& s, const TcpConfig& config, std::uint64_t acked, SimTime now);
void on_fast_retransmit(TcpSenderState& s, const TcpConfig& config, std::uint64_t flight);
void on_timeout(TcpSenderState& s, const TcpConfig& config, bool is_repeat, std::uint64_t flight);
void on_ecn_echo(TcpSenderState& s, const TcpConfig& config, std::uint64_t flight);

}  // namespace netwarp::netmodels::tcp_cc::cubic
