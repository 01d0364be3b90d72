// Steps of the SACK sender (tcp_sack_recovery.cpp) shared with its reading of ns-3.37's socket
// (tcp_sack_ns3.cpp).
#pragma once

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels {

// SACKed, and not SACKed, bytes of [begin, end) (0 when it is empty; tcp_scoreboard.cpp).
std::uint64_t tcp_sacked_within(const TcpRangeStore& sacked, TcpSeq begin, TcpSeq end);
std::uint64_t tcp_unsacked_within(const TcpRangeStore& sacked, TcpSeq begin, TcpSeq end);

}  // namespace netwarp::netmodels

namespace netwarp::netmodels::tcp_detail {

// What an ACK changed: snd_una before it, the bytes it SACKed anew, RFC 6937's DeliveredData.
struct AckInRecovery {
  TcpSeq una_before = 0;
  std::uint64_t newly_sacked = 0;
  std::uint64_t delivered = 0;
};

// TcpConfig::sack_reading ns3.
bool reads_as_ns3(const TcpConfig& config);
TcpScoreboardView view_of(const TcpSenderState& s, const TcpConfig& config,
                          const TcpRangeStore& scoreboard);
// NextSeg() rule 2's condition: unsent data that the receive window allows.
bool may_send_new(const TcpSenderState& s, const TcpConfig& config);
// (C.2)-(C.3): sends the segment `next` (a NextSeg() answer); returns its length.
std::uint32_t send_segment(TcpSenderState& s, TcpNextSegment next, SimTime now,
                           TcpSenderActions& out);
// ns-3.37's partial ACK in recovery: unless the new head was retransmitted already, NextSeg()'s
// lost segment, else new data, else the head, whatever cwnd says.
void retransmit_on_partial_ack(TcpSenderState& s, const TcpConfig& config,
                               const TcpRangeStore& scoreboard, SimTime now, TcpSenderActions& out);
// RFC 6937 section 3 (ns-3.37's reading under sack_reading ns3): cwnd = pipe + sndcnt.
void set_prr_cwnd(TcpSenderState& s, const TcpConfig& config, std::uint64_t pipe,
                  std::uint64_t delivered, bool retransmitted_acked);
// RFC 6675 section 5 step (4) up to the fast retransmit; then (4.4)-(4.5) if `then_send`.
void enter_recovery(TcpSenderState& s, const TcpConfig& config, const TcpRangeStore& scoreboard,
                    std::uint64_t delivered, SimTime now, TcpSenderActions& out,
                    bool then_send = true);

// tcp_sack_ns3.cpp: ns-3.37's TcpSocketBase with SACK and TcpNewReno.
bool runs_ns3_socket(const TcpConfig& config);
// ReceivedAck: the scoreboard, DupAck, the cumulative part, SendPendingData.
void ns3_on_ack_with_sack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack,
                          const TcpSackBlocks& sack, TcpRangeStore& scoreboard, SimTime now,
                          TcpSenderActions& out);
// ReTxTimeout's rules after the native timeout ran, given BytesInFlight before it.
void ns3_after_timeout_with_sack(TcpSenderState& s, std::uint64_t pipe_before);

}  // namespace netwarp::netmodels::tcp_detail
