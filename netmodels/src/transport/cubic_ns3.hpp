// CUBIC as ns-3.37's TcpCubic runs it (src/internet/model/tcp-cubic.cc; CubicReading::ns3,
// validation/ns3/SEMANTICS.md section 12): Linux's cubic in whole segments, with no
// Reno-friendly region and no HyStart (netwarp-ns3 turns HyStart off). The sender of
// TcpRecovery::ns3_classic (tcp_ns3_recovery.cpp) calls these where ns-3's TcpSocketBase calls
// the congestion control's PktsAcked, IncreaseWindow, GetSsThresh and CongestionStateSet.
#pragma once

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels::tcp_cc::cubic_ns3 {

// Stored in TcpSenderState::congestion; all zero is TcpCubic's state when constructed.
struct State {
  std::int64_t delay_min_ps = 0;    // m_delayMin: the least smoothed RTT passed to PktsAcked
  std::int64_t epoch_start_ps = 0;  // m_epochStart
  double k_s = 0;                   // m_bicK
  std::uint32_t cwnd_count = 0;     // m_cWndCnt: segments acknowledged toward the next SMSS
  std::uint32_t last_max_cwnd = 0;  // m_lastMaxCwnd (segments)
  std::uint32_t origin = 0;         // m_bicOriginPoint (segments)
  std::uint8_t has_delay_min = 0;   // 0: m_delayMin is Time::Min() (none yet)
  std::uint8_t in_epoch = 0;        // 0: m_epochStart is Time::Min() (no epoch)
  std::uint8_t reserved[2] = {};
};

// TcpCubic's attributes that netwarp-ns3 leaves at their defaults.
inline constexpr std::int64_t kCubicDeltaPs = 10'000'000'000;  // CubicDelta: 10 ms
inline constexpr std::uint32_t kCntClamp = 20;                 // CntClamp

// TcpCubic::Update: the number of acknowledged segments after which cwnd grows by one SMSS,
// for cwnd `segments` at `now_ps` (starts an epoch if none is running).
std::uint32_t update(State& c, std::uint32_t cwnd_segments, std::int64_t now_ps, double cubic_c);
// TcpCubic::GetSsThresh for cwnd `cwnd_segments`: W_max (fast convergence on) and the epoch's
// end; returns ssthresh in segments.
std::uint32_t ssthresh_segments(State& c, std::uint32_t cwnd_segments, double beta);

// The hooks on a sender.
// PktsAcked: every ACK ns-3 passes to the congestion control (duplicates included) updates
// the least RTT, except within CubicDelta of an epoch's start.
void pkts_acked(TcpSenderState& s, SimTime now);
// IncreaseWindow with `segments` acknowledged: slow start by whole segments, else one SMSS
// every `update` segments.
void increase_window(TcpSenderState& s, const TcpConfig& config, std::uint32_t segments,
                     SimTime now);
// GetSsThresh: ssthresh from cwnd (not from the bytes in flight).
std::uint64_t ssthresh(TcpSenderState& s, const TcpConfig& config);
// CongestionStateSet(CA_LOSS), at a timeout: CubicReset forgets W_max and the least RTT.
void on_loss(TcpSenderState& s);

}  // namespace netwarp::netmodels::tcp_cc::cubic_ns3
