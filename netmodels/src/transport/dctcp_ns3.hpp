// DCTCP as ns-3.37's TcpDctcp runs it inside TcpSocketBase (src/internet/model/tcp-dctcp.cc,
// tcp-linux-reno.cc, tcp-socket-base.cc; DctcpReading::ns3, validation/ns3/SEMANTICS.md
// section 14). The sender of TcpRecovery::ns3_classic (tcp_ns3_recovery.cpp) calls these where
// ns-3 calls TcpDctcp's PktsAcked, GetSsThresh and TcpLinuxReno's IncreaseWindow, and where
// TcpSocketBase keeps its ECN state (ReceivedAck, EnterCwr, SendDataPacket).
#pragma once

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels::tcp_cc::dctcp_ns3 {

// TcpSocketState::EcnState_t as the sender sees it.
enum class EcnState : std::uint8_t { idle, ece_rcvd, cwr_sent };

// Stored in TcpSenderState::congestion.
struct State {
  double alpha = 1;                // m_alpha
  std::uint32_t acked_bytes = 0;   // m_ackedBytesTotal
  std::uint32_t marked_bytes = 0;  // m_ackedBytesEcn
  TcpSeq next_seq = 0;             // m_nextSeq: the window ends when an ACK reaches it
  TcpSeq next_tx = 0;              // TcpSocketState::m_nextTxSequence
  TcpSeq ecn_echo_seq = 0;         // m_ecnEchoSeq: the last ACK that carried a valid ECE
  TcpSeq ecn_cwr_seq = 0;          // m_ecnCWRSeq: the last segment sent with CWR
  std::uint32_t cwnd_count = 0;    // TcpLinuxReno::m_cWndCnt
  std::uint8_t next_seq_set = 0;   // m_nextSeqFlag
  EcnState ecn = EcnState::idle;   // m_ecnState
  std::uint8_t has_cwr_seq = 0;    // 0: m_ecnCWRSeq is still its initial 0
  std::uint8_t reserved = 0;
};

void on_open(TcpSenderState& s, const TcpConfig& config);
State load(const TcpSenderState& s);
void store(TcpSenderState& s, const State& d);

// PktsAcked(segments) with m_lastAckedSeq = `ack`: the window's bytes, alpha at its end.
void pkts_acked(TcpSenderState& s, const TcpConfig& config, std::uint32_t segments, TcpSeq ack);
// GetSsThresh: (1 - alpha / 2) cwnd, truncated to whole bytes, no floor.
std::uint64_t ssthresh(const TcpSenderState& s);
// TcpLinuxReno::IncreaseWindow: slow start up to ssthresh, else one SMSS per cwnd / SMSS
// segments acknowledged.
void increase_window(TcpSenderState& s, std::uint32_t segments);
// SendDataPacket of [seq, seq + length), `retransmission` or new: m_nextTxSequence follows
// SendPendingData (seq + length) or DoRetransmit (seq); new data carries CWR after an ECE.
void on_send(TcpSenderState& s, TcpSeq seq, std::uint32_t length, bool from_retransmit,
             bool retransmission);
// NewAck: m_nextTxSequence is at least the ACK.
void on_new_ack(TcpSenderState& s, TcpSeq ack);
// ReceivedAck's ECN step for an ACK that moved snd_una (new) or not, with or without ECE;
// returns whether TcpSocketBase would enter CWR (an ECE on new data outside CWR).
bool on_ack_ecn(TcpSenderState& s, bool is_new, bool ece, bool in_cwr);

}  // namespace netwarp::netmodels::tcp_cc::dctcp_ns3
