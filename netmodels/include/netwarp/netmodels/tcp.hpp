// TCP NewReno as pure state machines (RFC 5681 congestion control, RFC 6582 NewReno fast
// recovery, RFC 6298 retransmission timer with Karn's rule). No engine here: the host LP keeps
// the state structs in reversible storage, calls these functions on events and turns the
// actions into packets and timer events. Sequence numbers are 64-bit byte offsets from the
// start of the flow or stream (TcpSeq), so a connection carries any size; packets carry their
// low 32 bits, which wrap as RFC 793's do, and the hosts turn them back with tcp_unwrap. The
// SYN travels outside that numbering.
//
// Connection set-up (RFC 793 3.4): tcp_connect sends a SYN and data waits until the SYN-ACK
// arrives (tcp_on_syn_ack); the receiver answers every SYN with a SYN-ACK and keeps no state
// for it (a lost SYN-ACK is repaired by the SYN's retransmission). tcp_open skips the handshake.
//
// Byte ranges of any number (the receiver's out-of-order data, the sender's SACK scoreboard)
// do not fit the fixed-size states: the caller hands them in as a TcpRangeStore
// (tcp_ranges.hpp), which the LPs back with a RevMap. With SACK (RFC 2018) the receiver puts
// blocks on its ACKs, and the sender recovers by RFC 6675 or RFC 6937 (TcpConfig::recovery).
//
// Timers are lazy, so an ACK does not cost a timer event: the state holds the RTO deadline;
// an action asks for a timer event only when none is pending at or before the deadline. When a
// timer event fires (with its generation), tcp_on_timer re-arms if the deadline moved later,
// ignores it if stale, and times out otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "netwarp/engine/state_visitor.hpp"
#include "netwarp/netmodels/network_config.hpp"
#include "netwarp/netmodels/tcp_sack.hpp"

namespace netwarp::netmodels {

struct TcpSegment {
  TcpSeq seq = 0;
  std::uint32_t length = 0;  // payload bytes, > 0
  bool is_retransmission = false;
};

// Ask the host to schedule a timer event at `at` carrying `generation`.
struct TcpTimerRequest {
  bool wanted = false;
  SimTime at;
  std::uint32_t generation = 0;
};

struct TcpSenderActions {
  std::vector<TcpSegment> segments;  // to send now, in order
  TcpTimerRequest timer;
  bool completed = false;  // every byte acknowledged (set once, on the ACK that does it)
  bool cwnd_changed = false;
  bool send_syn = false;
  bool syn_is_retransmission = false;
  bool send_handshake_ack = false;  // the third segment of the handshake
  void clear() {
    segments.clear();  // keeps the capacity
    timer = TcpTimerRequest{};
    completed = false;
    cwnd_changed = false;
    send_syn = false;
    syn_is_retransmission = false;
    send_handshake_ack = false;
  }
};

// The congestion-control algorithm's own state, a union-like block of bytes that
// transport/congestion_control.cpp reads and writes as CUBIC's or DCTCP's struct. All zero
// with NewReno.
struct TcpCongestionState {
  std::uint64_t words[7] = {};
};

enum class TcpConnection : std::uint8_t { closed, syn_sent, established };

// ns-3.37's congestion states (TcpSocketState::TcpCongState_t) as TcpRecovery::ns3_classic
// keeps them (CA_CWR with TcpDctcp only, dctcp_ns3.cpp).
enum class Ns3CongState : std::uint8_t { open, disorder, recovery, loss, cwr };

// TcpRecovery::ns3_classic's view of ns-3's sent list (TcpTxBuffer without SACK). Its flags
// take three shapes only, so three offsets hold them: the Reno-SACKed items are one run that
// starts right after the head, the lost ones a run from the head (all that was sent at a
// timeout, else at most the head) and the retransmitted ones a run from the head. Offsets at or
// below snd_una mean none. With SACK under sack_reading NS3 (tcp_sack_recovery.cpp) the
// scoreboard holds the SACKed items and HighRxt the retransmitted ones; lost_end there marks
// what a timeout declared lost, and sacked_after_rtx the retransmitted bytes SACKed since.
// All zero with every other recovery.
struct TcpNs3State {
  TcpSeq sacked_end = 0;  // one past the last Reno-SACKed byte; run begins after the head
  TcpSeq lost_end = 0;    // [snd_una, lost_end) is marked lost
  TcpSeq rtx_end = 0;     // [snd_una, rtx_end) is marked retransmitted
  std::uint32_t bytes_acked_not_processed = 0;  // ProcessAck's remainder below one SMSS
  Ns3CongState state = Ns3CongState::open;
  std::uint8_t recover_active = 0;  // m_recoverActive: `recover` holds a recovery point
  std::uint8_t reserved[2] = {};
  // Bytes retransmitted and SACKed afterwards: ns-3 keeps their retransmitted flag, so
  // BytesInFlight still counts them (sent - SACKed - lost + retransmitted).
  std::uint64_t sacked_after_rtx = 0;
};

// Sender state: trivially copyable and padding-free (it is hashed and undo-logged as bytes).
struct TcpSenderState {
  std::uint64_t total_bytes = 0;
  TcpSeq snd_una = 0;  // oldest unacknowledged byte
  TcpSeq snd_nxt = 0;  // next new byte to send
  TcpSeq snd_max = 0;  // highest byte sent + 1
  TcpSeq recover = 0;  // NewReno: snd_max when fast recovery or a timeout began
  std::uint32_t mss = 0;
  std::uint8_t partial_ack_seen = 0;  // this fast recovery has had a partial ACK
  std::uint8_t reserved[3] = {};
  std::uint64_t cwnd = 0;      // bytes
  std::uint64_t ssthresh = 0;  // bytes
  std::uint32_t dupacks = 0;
  std::uint8_t in_fast_recovery = 0;
  std::uint8_t rtt_timing = 0;  // a segment is being timed (Karn: never a retransmitted one)
  std::uint8_t has_rtt = 0;     // SRTT is valid
  std::uint8_t completed = 0;
  TcpSeq rtt_seq = 0;      // the timed segment's end sequence
  TcpSeq timeout_una = 0;  // snd_una at the last timeout (repeat timeouts keep ssthresh)
  std::int64_t rtt_start_ps = 0;
  std::int64_t srtt_ps = 0;
  std::int64_t rttvar_ps = 0;
  std::int64_t rto_ps = 0;             // current RTO, backoff included
  std::int64_t rto_deadline_ps = -1;   // -1: timer off
  std::int64_t timer_pending_ps = -1;  // time of the scheduled timer event, -1: none
  std::uint32_t timer_generation = 0;
  std::uint32_t backoff_count = 0;  // consecutive timeouts
  std::uint64_t ecn_recover = 0;    // snd_max at the last ECN reduction
  // Counters.
  std::uint64_t segments_sent = 0;
  std::uint64_t retransmitted_segments = 0;
  std::uint64_t duplicate_acks = 0;
  std::uint64_t fast_retransmits = 0;
  std::uint64_t timeouts = 0;
  // Connection set-up (RFC 793 3.4) and limited transmit (RFC 3042).
  std::uint32_t limited_transmit_bytes = 0;  // sent by limited transmit since the last new ACK
  TcpConnection connection = TcpConnection::closed;
  std::uint8_t reserved2[3] = {};
  std::int64_t syn_sent_ps = 0;  // when the first SYN left
  std::uint64_t syns_sent = 0;
  std::uint64_t syn_retransmissions = 0;
  std::uint64_t limited_transmits = 0;  // segments sent by limited transmit
  TcpCongestionState congestion;        // the congestion control's (all zero: NewReno)
  TcpScoreboardState scoreboard;        // RFC 6675 / RFC 6937 (recovery sack_6675 and prr)
  TcpNs3State ns3;                      // recovery ns3_classic

  // Hashes every field, in the layout of 32-bit offsets (TcpLegacyBytes), except that an
  // all-zero congestion block (NewReno) and an all-zero ns3 block (every recovery but
  // ns3_classic) are left out: runs that do not use them keep the digests they had before the
  // blocks existed (transport/tcp_state_digest.cpp).
  void visit_bytes(engine::StateVisitor& v) const;
  template <class Block>
  static bool is_all_zero(const Block& b) {
    const auto* p = reinterpret_cast<const std::byte*>(&b);
    for (std::size_t i = 0; i < sizeof(Block); ++i)
      if (p[i] != std::byte{0}) return false;
    return true;
  }
};
static_assert(std::is_trivially_copyable_v<TcpSenderState> &&
              std::has_unique_object_representations_v<TcpSenderState>);

// Opens a connection with a SYN; data given by tcp_append waits for the SYN-ACK.
TcpSenderState tcp_connect(const TcpConfig& config, std::uint32_t mss, SimTime now,
                           TcpSenderActions& out);
// The SYN-ACK arrived: the connection is up (sends the handshake ACK and any waiting data).
void tcp_on_syn_ack(TcpSenderState& s, const TcpConfig& config, SimTime now, TcpSenderActions& out);
// Opens a flow of `bytes` (> 0) without a handshake and sends the initial window.
TcpSenderState tcp_open(const TcpConfig& config, std::uint64_t bytes, std::uint32_t mss,
                        SimTime now, TcpSenderActions& out);
// Stream use (a connection that lives across messages): `bytes` more to send on an open flow,
// sent as the window allows. The flow is complete again once they are all acknowledged.
void tcp_append(TcpSenderState& s, const TcpConfig& config, std::uint64_t bytes, SimTime now,
                TcpSenderActions& out);
// A cumulative ACK arrived (ece: the receiver echoes congestion).
void tcp_on_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, bool ece, SimTime now,
                TcpSenderActions& out);
// A timer event with `generation` fired.
void tcp_on_timer(TcpSenderState& s, const TcpConfig& config, std::uint32_t generation, SimTime now,
                  TcpSenderActions& out);
// The same with SACK: the ACK's blocks and the connection's scoreboard of SACKed ranges
// (used when config.recovery is sack_6675 or prr; may be null otherwise).
void tcp_on_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, bool ece,
                const TcpSackBlocks& sack, TcpRangeStore* scoreboard, SimTime now,
                TcpSenderActions& out);
void tcp_on_timer(TcpSenderState& s, const TcpConfig& config, std::uint32_t generation,
                  TcpRangeStore* scoreboard, SimTime now, TcpSenderActions& out);

struct TcpReceiverActions {
  bool send_ack = false;
  TcpSeq ack = 0;               // cumulative: next expected byte
  bool ece = false;             // echo congestion (a CE-marked segment arrived)
  std::uint64_t delivered = 0;  // bytes newly delivered in order to the application
  TcpTimerRequest timer;        // delayed-ACK timer
  TcpSackBlocks sack;           // config.sack: the ACK's SACK blocks (RFC 2018 section 4)
  // DelayedAckReading::ns3 with DCTCP: TcpDctcp's ACK of the previous CE state, sent before
  // the ACK above (both may go out).
  bool send_prior_ack = false;
  bool prior_ece = false;
  TcpSeq prior_ack = 0;
  TcpSackBlocks prior_sack;
  void clear() { *this = TcpReceiverActions{}; }
};

// Receiver state. Out-of-order data lives in a TcpRangeStore handed to each call (any number
// of ranges unless config.max_ooo_ranges caps them; a segment that would need one more range
// than the cap is discarded and counted, and the sender retransmits it).
struct TcpReceiverState {
  std::uint64_t total_bytes = 0;
  TcpSeq rcv_nxt = 0;
  std::uint32_t range_count = 0;       // out-of-order ranges held in the store
  std::uint32_t unacked_segments = 0;  // delayed ACK: in-order segments not yet acknowledged
  std::uint32_t timer_generation = 0;
  std::uint32_t reported_count = 0;  // SACK blocks of the last ACK
  std::int64_t timer_pending_ps = -1;
  std::int64_t ack_deadline_ps = -1;  // delayed ACK due, -1: none pending
  std::uint8_t ce_pending = 0;
  std::uint8_t dctcp_ce = 0;  // DCTCP.CE: the latest data segment was CE-marked (RFC 8257 3.2)
  // DelayedAckReading::ns3: an ACK has been sent since the connection opened (until then
  // ns-3's m_delAckCount is m_delAckMaxCount), and TcpDctcp's m_delayedAckReserved.
  std::uint8_t ns3_acked = 0;
  std::uint8_t ns3_ack_reserved = 0;
  // DctcpReading::ns3: ns-3's m_ecnCESeq, the highest (ns-3) sequence number whose CE counted;
  // a CE mark on a segment at or below it counts as none.
  std::uint32_t ce_seq = 0;
  // ... in the order they were sent; with sack_reading NS3, ns-3's SACK list (TcpRxBuffer)
  TcpRange reported[kMaxSackBlocks] = {};
  std::uint64_t discarded_segments = 0;  // out-of-order segments dropped by max_ooo_ranges
  // DelayedAckReading::ns3 with DCTCP: TcpDctcp's m_priorRcvNxt, rcv_nxt when the previous
  // segment (or the handshake's ACK) arrived, before it was taken in.
  TcpSeq ns3_prior_rcv_nxt = 0;

  void visit_bytes(engine::StateVisitor& v) const;  // as TcpSenderState's
};
static_assert(std::is_trivially_copyable_v<TcpReceiverState> &&
              std::has_unique_object_representations_v<TcpReceiverState>);

TcpReceiverState tcp_accept(std::uint64_t total_bytes);
// A data segment arrived (ce: it carries a congestion-experienced mark); `ooo` holds this
// connection's out-of-order ranges.
void tcp_on_segment(TcpReceiverState& r, const TcpConfig& config, TcpRangeStore& ooo, TcpSeq seq,
                    std::uint32_t length, bool ce, SimTime now, TcpReceiverActions& out);
// The handshake's final ACK arrived, CE-marked or not. Returns whether `r` changed: with
// dctcp_reading NS3 a CE mark on it counts as ns-3's m_ecnCESeq = 1 (the ACK's sequence
// number), so a CE mark on the first data segment then counts as none.
bool tcp_on_handshake_ack(TcpReceiverState& r, const TcpConfig& config, bool ce);
void tcp_on_delayed_ack_timer(TcpReceiverState& r, const TcpConfig& config,
                              std::uint32_t generation, SimTime now, TcpReceiverActions& out);

// The stream offset whose low 32 bits are the wire's sequence number `wire`, taken as the one
// nearest `near` (an offset the connection already knows: snd_una for ACKs, rcv_nxt for data).
// RFC 793 section 3.3 compares sequence numbers modulo 2^32 the same way; segments in flight
// are far closer than 2^31 bytes to either reference.
// DCTCP as ns-3.37 runs it (DctcpReading::ns3) marks every segment ECT, pure ACKs and the
// handshake too (TcpSocketBase::AddSocketTags, SendEmptyPacket in DctcpEcn mode), so a RED
// port marks them where it would drop what is not ECN-capable; otherwise only data is.
inline bool tcp_control_is_ect(const TcpConfig& config) {
  return config.congestion_control == CongestionControl::dctcp &&
         config.dctcp_reading == DctcpReading::ns3;
}

inline TcpSeq tcp_unwrap(std::uint32_t wire, TcpSeq near) {
  const auto delta = static_cast<std::int32_t>(wire - static_cast<std::uint32_t>(near));
  if (delta < 0 && static_cast<std::uint64_t>(-static_cast<std::int64_t>(delta)) > near)
    return wire;  // would lie before the stream's first byte: not a number this side sent
  return near + static_cast<std::uint64_t>(static_cast<std::int64_t>(delta));
}

// tcp_unwrap of every block's edges.
inline TcpSackBlocks tcp_unwrap(const TcpSackBlocks& wire, TcpSeq near) {
  TcpSackBlocks blocks = wire;
  for (std::uint32_t i = 0; i < blocks.count && i < kMaxSackBlocks; ++i) {
    blocks.block[i].begin = tcp_unwrap(static_cast<std::uint32_t>(wire.block[i].begin), near);
    blocks.block[i].end = tcp_unwrap(static_cast<std::uint32_t>(wire.block[i].end), near);
  }
  return blocks;
}

}  // namespace netwarp::netmodels
