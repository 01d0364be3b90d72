// Steps of the TCP sender (tcp_sender.cpp) shared with its SACK-based loss recovery
// (tcp_sack_recovery.cpp).
#pragma once

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels::tcp_detail {

std::uint64_t flight_size(const TcpSenderState& s);
std::uint64_t send_window(const TcpSenderState& s, const TcpConfig& config);
void restart_timer(TcpSenderState& s, SimTime now, TcpSenderActions& out);
void stop_timer(TcpSenderState& s);
// Puts [seq, seq + length) on the wire (counters, Karn's rule, RTO start).
void emit_range(TcpSenderState& s, TcpSeq seq, std::uint32_t length, SimTime now,
                TcpSenderActions& out);
// snd_una moved to `ack`: RTT sample or, per TcpConfig::rto_backoff_reset, the backoff's end.
std::int64_t update_rto_on_new_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack,
                                   SimTime now);  // returns the RTT sample, -1 if none
bool react_to_ecn(TcpSenderState& s, const TcpConfig& config, bool ece);

// tcp_sack_recovery.cpp
bool uses_scoreboard(const TcpConfig& config);
void on_ack_with_scoreboard(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, bool ece,
                            const TcpSackBlocks& sack, TcpRangeStore& scoreboard, SimTime now,
                            TcpSenderActions& out);
// tcp_sack_ns3.cpp: BytesInFlight as ns-3.37's socket counts it with SACK (0 unless
// sack_reading NS3 runs it), read before a timeout for its ssthresh.
std::uint64_t ns3_pipe_with_sack(const TcpSenderState& s, const TcpConfig& config,
                                 const TcpRangeStore& scoreboard);
// After a retransmission timeout: RFC 2018 section 8, the SACKed bits are turned off (kept
// under TcpConfig::sack_reading ns3, as ns-3.37 keeps them, with its ReTxTimeout's rules given
// `pipe_before`, ns3_pipe_with_sack before the timeout).
void forget_scoreboard(TcpSenderState& s, const TcpConfig& config, TcpRangeStore& scoreboard,
                       std::uint64_t pipe_before);

// tcp_ns3_recovery.cpp: TcpRecovery::ns3_classic.
bool uses_ns3_classic(const TcpConfig& config);
void ns3_send_pending(TcpSenderState& s, const TcpConfig& config, SimTime now,
                      TcpSenderActions& out);
void ns3_on_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, bool ece, SimTime now,
                TcpSenderActions& out);
void ns3_on_timeout(TcpSenderState& s, const TcpConfig& config, SimTime now, TcpSenderActions& out);
// TcpNewReno::IncreaseWindow (TcpCubic's with cubic_reading NS3) for `segments` acknowledged.
void ns3_increase_window(TcpSenderState& s, const TcpConfig& config, std::uint32_t segments,
                         SimTime now);
// ProcessAck's count of segments in `acked` bytes, the remainder carried to later ACKs.
std::uint32_t ns3_segments_acked(TcpSenderState& s, std::uint64_t acked);

}  // namespace netwarp::netmodels::tcp_detail
