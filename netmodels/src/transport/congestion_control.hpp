// Congestion control behind one interface: the TCP sender (tcp_sender.cpp) calls these hooks
// for every window decision, and each dispatches on TcpConfig::congestion_control to NewReno
// (RFC 5681, RFC 6582), CUBIC (RFC 9438) or DCTCP (RFC 8257). The algorithm's own state lives
// in TcpSenderState::congestion; cwnd and ssthresh stay in the sender state, in bytes. Loss
// detection, recovery and the timer stay in the sender, which calls these hooks at the
// decision points only.
#pragma once

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels::tcp_cc {

// An ACK that acknowledges new data.
struct AckedData {
  std::uint64_t bytes = 0;          // newly acknowledged
  bool ece = false;                 // the ACK echoes congestion
  SimTime now;                      // its arrival
  std::int64_t rtt_sample_ps = -1;  // the RTT it measured, -1: none (Karn); CUBIC uses SRTT
};

// A new flow: the algorithm's initial state.
void on_open(TcpSenderState& s, const TcpConfig& config);
// Every ACK of new data, before any window change (DCTCP's congestion estimate).
void on_data_acked(TcpSenderState& s, const TcpConfig& config, const AckedData& ack);
// Window growth on an ACK of new data, outside loss recovery and not on an ECN reduction.
void grow(TcpSenderState& s, const TcpConfig& config, const AckedData& ack);
// `flight`: the FlightSize the sender's policy reduces (TcpConfig::ssthresh_base, limited
// transmit; RFC 6675 recovery: FlightSize itself).
// Loss detected by duplicate ACKs: sets ssthresh and cwnd; the sender then inflates cwnd by
// the duplicate ACKs (RFC 6582 3.2 step 2) or sets cwnd = ssthresh (RFC 6675 4.2).
void on_fast_retransmit(TcpSenderState& s, const TcpConfig& config, std::uint64_t flight);
// The retransmission timer expired; `is_repeat`: snd_una has timed out before.
void on_timeout(TcpSenderState& s, const TcpConfig& config, bool is_repeat, std::uint64_t flight);
// Whether ECN echoes reduce the window at all (RFC 3168 6.1.2 with `ecn`, always for DCTCP).
bool reacts_to_ecn(const TcpConfig& config);
// An ECN echo the sender acts on (at most once per window of data, RFC 3168 6.1.2).
void on_ecn_echo(TcpSenderState& s, const TcpConfig& config, std::uint64_t flight);
// A full ACK ends fast recovery (RFC 6582 3.2 step 6).
void on_recovery_exit(TcpSenderState& s, const TcpConfig& config);

}  // namespace netwarp::netmodels::tcp_cc
