// DCTCP (RFC 8257): the sender estimates the fraction of its bytes that met a marked queue and
// shrinks cwnd in proportion to it. Slow start, congestion avoidance and the loss response
// are NewReno's (RFC 8257 section 3.4).
#pragma once

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels::tcp_cc::dctcp {

// Stored in TcpSenderState::congestion (the RFC's DCTCP.* variables, section 3.3).
struct State {
  double alpha = 1;  // the congestion estimate, 0..1 (TcpConfig::dctcp_initial_alpha at first)
  std::uint64_t bytes_acked = 0;
  std::uint64_t bytes_marked = 0;
  TcpSeq window_end = 0;  // the observation window ends when snd_una passes it
};

// Section 3.3 steps 5 and 6: alpha = (1 - g) alpha + g M, M = marked / acked.
double updated_alpha(double alpha, std::uint64_t bytes_marked, std::uint64_t bytes_acked, double g);
// Section 3.3 steps 1-8, on an ACK of `acked` new bytes up to `ack`, with snd_nxt now `snd_nxt`.
void observe_ack(State& d, std::uint64_t acked, bool ece, TcpSeq ack, TcpSeq snd_nxt, double g);
// Section 3.3: cwnd (1 - alpha / 2), at least 2 SMSS.
std::uint64_t reduced_cwnd(std::uint64_t cwnd, double alpha, std::uint32_t mss);

double alpha(const TcpSenderState& s);

// Hooks on a sender (congestion_control.hpp).
void on_open(TcpSenderState& s, const TcpConfig& config);
void on_data_acked(TcpSenderState& s, const TcpConfig& config, std::uint64_t acked, bool ece);
void on_ecn_echo(TcpSenderState& s);

}  // namespace netwarp::netmodels::tcp_cc::dctcp
