// TcpRecovery::ns3_classic: the TCP sender as ns-3.37 runs it without SACK, so that
// `emulate: NS3` repeats ns-3's retransmissions. ns-3 keeps a SACK-style scoreboard even
// without SACK (src/internet/model/tcp-tx-buffer.cc): each duplicate ACK in recovery "SACKs"
// the next item after the head (AddRenoSack), the head is marked lost on entering recovery and
// on partial ACKs (MarkHeadAsLost), a timeout marks everything sent lost (SetSentListLost), and
// the sender sends while cwnd exceeds BytesInFlight = sent - SACKed - lost + retransmitted,
// choosing lost items first (NextSeg rule 1) and new data next (rule 2; rule 3 needs SACK).
// The socket's rules (tcp-socket-base.cc: ProcessAck, DupAck, EnterRecovery, ReTxTimeout,
// NewAck; tcp-congestion-ops.cc: TcpNewReno; tcp-recovery-ops.cc: TcpClassicRecovery) are
// validation/ns3/SEMANTICS.md sections 5 to 8. Items are the segments sent: one SMSS each from
// snd_una, the last one shorter, which is ns-3's sent list whenever data was handed over in
// whole segments (a connection carrying one message, or messages of whole segments).
#include <algorithm>
#include <cstdint>

#include "netwarp/engine/check.hpp"
#include "netwarp/netmodels/tcp.hpp"
#include "transport/cubic_ns3.hpp"
#include "transport/dctcp_ns3.hpp"
#include "transport/tcp_rtt.hpp"
#include "transport/tcp_sender_steps.hpp"

namespace netwarp::netmodels::tcp_detail {
namespace {

// One past the sent item that starts at `seq`.
TcpSeq item_end(const TcpSenderState& s, TcpSeq seq) {
  return std::min<TcpSeq>(seq + s.mss, s.snd_max);
}

TcpSeq head_end(const TcpSenderState& s) {
  return item_end(s, s.snd_una);
}

std::uint64_t bytes_above_una(const TcpSenderState& s, TcpSeq end) {
  return end > s.snd_una ? end - s.snd_una : 0;
}

std::uint64_t sacked_out(const TcpSenderState& s) {
  const TcpSeq first = head_end(s);
  return s.ns3.sacked_end > first ? s.ns3.sacked_end - first : 0;
}

// TcpTxBuffer::BytesInFlight: sent and not acknowledged, less SACKed and lost, plus
// retransmitted.
std::uint64_t pipe(const TcpSenderState& s) {
  const std::uint64_t sent = s.snd_max - s.snd_una;
  const std::uint64_t left_out = sacked_out(s) + bytes_above_una(s, s.ns3.lost_end);
  return sent - std::min(sent, left_out) + bytes_above_una(s, s.ns3.rtx_end);
}

// AddRenoSack: the first item after the head that is not SACKed becomes SACKed.
void add_reno_sack(TcpSenderState& s) {
  const TcpSeq next = std::max(head_end(s), s.ns3.sacked_end);
  if (next < s.snd_max) s.ns3.sacked_end = item_end(s, next);
}

// MarkHeadAsLost: the head is lost and no longer counts as retransmitted (the SACKed run
// never holds the head).
void mark_head_as_lost(TcpSenderState& s) {
  if (s.snd_una == s.snd_max) return;
  if (s.ns3.rtx_end > s.snd_una) s.ns3.rtx_end = s.snd_una;
  s.ns3.lost_end = std::max(s.ns3.lost_end, head_end(s));
}

// DiscardUpTo(ack), after snd_una moved from `old_una`: a Reno-SACKed item that became the
// head was a wrong guess: it is un-SACKed, another item SACKed and the head marked lost.
void discard_up_to(TcpSenderState& s, TcpSeq old_una) {
  TcpNs3State& n = s.ns3;
  const TcpSeq run_begin = item_end(s, old_una);
  if (n.sacked_end <= s.snd_una) {
    n.sacked_end = 0;
    return;
  }
  if (n.sacked_end <= run_begin || s.snd_una < run_begin) return;  // the head was not SACKed
  if (n.sacked_end <= head_end(s)) n.sacked_end = 0;
  add_reno_sack(s);
  mark_head_as_lost(s);
}

// NextSeg without rule 3: the first lost item neither SACKed nor retransmitted, else new data.
struct Ns3NextSeg {
  bool found = false;
  TcpSeq seq = 0;
  TcpSeq end = 0;
};

Ns3NextSeg next_seg(const TcpSenderState& s, const TcpConfig& config) {
  const TcpSeq lost_candidate = std::max(s.snd_una, s.ns3.rtx_end);
  if (lost_candidate < s.ns3.lost_end && lost_candidate < s.snd_max)
    return {true, lost_candidate, item_end(s, lost_candidate)};
  if (s.snd_max >= s.total_bytes) return {};
  const std::uint64_t sent = s.snd_max - s.snd_una;
  std::uint64_t length = std::min<std::uint64_t>(s.mss, s.total_bytes - s.snd_max);
  if (config.receive_window_bytes != 0) {
    if (sent > config.receive_window_bytes) return {};
    length = std::min(length, config.receive_window_bytes - sent);
    if (length == 0) return {};
  }
  return {true, s.snd_max, s.snd_max + length};
}

std::uint64_t available_window(const TcpSenderState& s, const TcpConfig& config) {
  const std::uint64_t window = send_window(s, config);
  const std::uint64_t in_flight = pipe(s);
  return window > in_flight ? window - in_flight : 0;
}

// TcpNewReno's window rules, TcpCubic's (cubic_reading NS3) or TcpDctcp's (dctcp_reading NS3);
// the validator lets no others into this sender.
enum class Ns3Window : std::uint8_t { new_reno, cubic, dctcp };

Ns3Window ns3_window(const TcpConfig& config) {
  switch (config.congestion_control) {
    case CongestionControl::cubic:
      NW_CHECK(config.cubic_reading == CubicReading::ns3,
               "ns-3's sender (recovery NS3_CLASSIC) with RFC 9438's CUBIC");
      return Ns3Window::cubic;
    case CongestionControl::dctcp:
      NW_CHECK(config.dctcp_reading == DctcpReading::ns3,
               "ns-3's sender (recovery NS3_CLASSIC) with RFC 8257's DCTCP");
      return Ns3Window::dctcp;
    default:
      return Ns3Window::new_reno;
  }
}

bool runs_cubic(const TcpConfig& config) {
  return ns3_window(config) == Ns3Window::cubic;
}

bool runs_dctcp(const TcpConfig& config) {
  return ns3_window(config) == Ns3Window::dctcp;
}

// SendDataPacket for [seq, seq + length): retransmitted bytes join the retransmitted run.
// `from_retransmit`: sent by DoRetransmit, which leaves m_nextTxSequence at seq.
void send_item(TcpSenderState& s, const TcpConfig& config, TcpSeq seq, std::uint32_t length,
               SimTime now, TcpSenderActions& out, bool from_retransmit = false) {
  if (runs_dctcp(config))
    tcp_cc::dctcp_ns3::on_send(s, seq, length, from_retransmit, seq < s.snd_max);
  emit_range(s, seq, length, now, out);
  if (seq < s.snd_max) {
    s.ns3.rtx_end = std::max({s.ns3.rtx_end, s.snd_una, seq + length});
  } else {
    s.snd_max = seq + length;
  }
  s.snd_nxt = std::max(s.snd_nxt, seq + length);
}

// DoRetransmit: NextSeg's segment, or the head again if nothing is lost and unsent.
void do_retransmit(TcpSenderState& s, const TcpConfig& config, SimTime now, TcpSenderActions& out) {
  Ns3NextSeg next = next_seg(s, config);
  if (!next.found) next = {true, s.snd_una, head_end(s)};
  send_item(s, config, next.seq, static_cast<std::uint32_t>(next.end - next.seq), now, out, true);
}

// TcpNewReno::GetSsThresh; TcpCubic's and TcpDctcp's read cwnd instead of the bytes in flight.
std::uint64_t ns3_ssthresh(TcpSenderState& s, const TcpConfig& config,
                           std::uint64_t bytes_in_flight) {
  if (runs_cubic(config)) return tcp_cc::cubic_ns3::ssthresh(s, config);
  if (runs_dctcp(config)) return tcp_cc::dctcp_ns3::ssthresh(s);
  return std::max<std::uint64_t>(2 * std::uint64_t{s.mss}, bytes_in_flight / 2);
}

// PktsAcked with `segments` acknowledged (TcpNewReno ignores it).
void pkts_acked(TcpSenderState& s, const TcpConfig& config, SimTime now, std::uint32_t segments) {
  if (runs_cubic(config)) tcp_cc::cubic_ns3::pkts_acked(s, now);
  if (runs_dctcp(config)) tcp_cc::dctcp_ns3::pkts_acked(s, config, segments, s.snd_una);
}

// NewAck: with reset_rto the timer restarts with the RTO recomputed from SRTT and RTTVAR (the
// backoff ends); no timer once everything handed over is acknowledged.
void new_ack(TcpSenderState& s, const TcpConfig& config, bool reset_rto, SimTime now,
             TcpSenderActions& out) {
  if (reset_rto) {
    s.rto_ps = unbacked_rto(s, config);
    s.backoff_count = 0;
    restart_timer(s, now, out);
  }
  if (runs_dctcp(config)) tcp_cc::dctcp_ns3::on_new_ack(s, s.snd_una);
  if (s.snd_una == s.total_bytes) stop_timer(s);
}

// EnterCwr: ssthresh from the window rules, cwnd = ssthresh at once (TcpClassicRecovery's
// EnterRecovery), until an ACK passes snd_max of this instant; the loss state it may leave
// (recovery, loss) is over.
void enter_cwr(TcpSenderState& s, const TcpConfig& config) {
  s.ssthresh = ns3_ssthresh(s, config, pipe(s));
  s.cwnd = s.ssthresh;
  s.ns3.state = Ns3CongState::cwr;
  s.recover = s.snd_max;
  s.in_fast_recovery = 0;
}

// ReceivedAck before ProcessAck, for TcpDctcp: CWR ends with an ACK past its recovery point
// (cwnd = ssthresh), then a valid ECE enters it again.
void ns3_ecn_step(TcpSenderState& s, const TcpConfig& config, TcpSeq old_una, bool ece) {
  if (!runs_dctcp(config)) return;
  if (s.ns3.state == Ns3CongState::cwr && s.snd_una > s.recover) {
    s.ns3.state = Ns3CongState::open;
    s.cwnd = s.ssthresh;
  }
  const bool in_cwr = s.ns3.state == Ns3CongState::cwr;
  if (tcp_cc::dctcp_ns3::on_ack_ecn(s, s.snd_una > old_una, ece, in_cwr)) enter_cwr(s, config);
}

void enter_recovery(TcpSenderState& s, const TcpConfig& config, SimTime now,
                    TcpSenderActions& out) {
  add_reno_sack(s);
  mark_head_as_lost(s);
  s.recover = s.snd_max;
  s.ns3.recover_active = 1;
  s.ns3.state = Ns3CongState::recovery;
  s.in_fast_recovery = 1;
  s.partial_ack_seen = 0;
  // "still consider the head as in flight for compatibility with old ns-3 versions"
  s.ssthresh = ns3_ssthresh(s, config, pipe(s) + s.mss);
  s.cwnd = s.ssthresh;  // TcpClassicRecovery::EnterRecovery
  ++s.fast_retransmits;
  do_retransmit(s, config, now, out);
}

// DupAck: ignored after a timeout; counted outside recovery; in recovery one item leaves the
// network (a Reno SACK); in disorder the threshold enters recovery, and with limited transmit
// each earlier duplicate SACKs an item so that one new segment may go.
void on_duplicate_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, SimTime now,
                      TcpSenderActions& out) {
  ++s.duplicate_acks;
  TcpNs3State& n = s.ns3;
  if (n.state == Ns3CongState::loss) return;
  if (n.state != Ns3CongState::recovery) ++s.dupacks;
  if (n.state == Ns3CongState::cwr) return;  // counted only: no fast retransmit from CWR
  if (n.state == Ns3CongState::open) n.state = Ns3CongState::disorder;
  if (n.state == Ns3CongState::recovery) {
    add_reno_sack(s);
  } else if (s.dupacks == config.dupack_threshold && (ack >= s.recover || n.recover_active == 0)) {
    enter_recovery(s, config, now, out);
  } else if (config.limited_transmit) {
    add_reno_sack(s);  // the pipe shrinks, so ns3_send_pending may send one new segment
  }
}

// A partial ACK in recovery: the new head is lost and retransmitted; only the first partial
// ACK restarts the timer.
void on_partial_ack(TcpSenderState& s, const TcpConfig& config, SimTime now,
                    TcpSenderActions& out) {
  mark_head_as_lost(s);
  do_retransmit(s, config, now, out);
  pkts_acked(s, config, now, 1);
  new_ack(s, config, s.partial_ack_seen == 0, now, out);
  s.partial_ack_seen = 1;
}

// ProcessAck for an ACK that moved snd_una from `old_una`.
void on_new_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq old_una, SimTime now,
                TcpSenderActions& out) {
  TcpNs3State& n = s.ns3;
  const TcpSeq ack = s.snd_una;
  std::uint32_t segments = ns3_segments_acked(s, ack - old_una);
  const std::uint32_t old_dupacks = s.dupacks;
  s.dupacks = 0;
  if (ack < s.recover && n.state == Ns3CongState::recovery)
    return on_partial_ack(s, config, now, out);
  if (ack < s.recover && n.state == Ns3CongState::loss) {
    pkts_acked(s, config, now, segments);
    ns3_increase_window(s, config, segments, now);
    return new_ack(s, config, true, now, out);
  }
  if (n.state == Ns3CongState::cwr) {  // no growth until CWR ends
    pkts_acked(s, config, now, segments);
    return new_ack(s, config, true, now, out);
  }
  const bool exited_recovery = n.state == Ns3CongState::recovery;
  if (exited_recovery) {
    segments = static_cast<std::uint32_t>((ack - old_una) / s.mss);
  } else if (n.state == Ns3CongState::loss) {
    segments = static_cast<std::uint32_t>((ack - s.recover) / s.mss);
  }
  // In disorder ns-3 passes on only the segments beyond those counted as duplicates.
  if (n.state != Ns3CongState::disorder) {
    pkts_acked(s, config, now, segments);
  } else if (segments >= old_dupacks) {
    pkts_acked(s, config, now, segments - old_dupacks);
  }
  n.state = Ns3CongState::open;
  s.in_fast_recovery = 0;
  s.partial_ack_seen = 0;
  if (ack >= s.recover) n.recover_active = 0;
  if (exited_recovery) {
    new_ack(s, config, true, now, out);
    s.cwnd = s.ssthresh;
  }
  ns3_increase_window(s, config, segments, now);
  new_ack(s, config, true, now, out);
}

// EstimateRtt, then the timer rules of NewAck apply (Karn: the timed segment was not resent).
void sample_rtt(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, SimTime now) {
  if (s.rtt_timing == 0 || ack < s.rtt_seq) return;
  s.rtt_timing = 0;
  take_rtt_sample(s, config, now.ps() - s.rtt_start_ps);
}

}  // namespace

// TcpNewReno::IncreaseWindow: +1 SMSS in slow start for an ACK of at least one segment (the
// rest of the segments are lost to growth), then congestion avoidance once per ACK. With CUBIC,
// TcpCubic's (cubic_ns3.cpp).
void ns3_increase_window(TcpSenderState& s, const TcpConfig& config, std::uint32_t segments,
                         SimTime now) {
  if (runs_cubic(config)) return tcp_cc::cubic_ns3::increase_window(s, config, segments, now);
  if (runs_dctcp(config)) return tcp_cc::dctcp_ns3::increase_window(s, segments);
  const std::uint64_t mss = s.mss;
  if (s.cwnd < s.ssthresh) {
    if (segments == 0) return;
    s.cwnd += mss;
    --segments;
  }
  if (s.cwnd >= s.ssthresh && segments > 0)
    s.cwnd += std::max<std::uint64_t>(1, mss * mss / s.cwnd);
}

// Segments acknowledged by `acked` bytes, with the remainder carried to later ACKs.
std::uint32_t ns3_segments_acked(TcpSenderState& s, std::uint64_t acked) {
  auto segments = static_cast<std::uint32_t>(acked / s.mss);
  s.ns3.bytes_acked_not_processed += static_cast<std::uint32_t>(acked % s.mss);
  if (s.ns3.bytes_acked_not_processed >= s.mss) {
    ++segments;
    s.ns3.bytes_acked_not_processed -= s.mss;
  }
  return segments;
}

bool uses_ns3_classic(const TcpConfig& config) {
  return config.recovery == TcpRecovery::ns3_classic;
}

// SendPendingData: while cwnd exceeds the pipe, NextSeg's segment, whole segments only unless
// the data left fits the window.
void ns3_send_pending(TcpSenderState& s, const TcpConfig& config, SimTime now,
                      TcpSenderActions& out) {
  if (s.connection != TcpConnection::established) return;
  for (std::uint64_t window = available_window(s, config); window > 0;
       window = available_window(s, config)) {
    const Ns3NextSeg next = next_seg(s, config);
    if (!next.found) return;
    const std::uint64_t data_left = s.total_bytes - next.seq;
    if (window < s.mss && data_left > window) return;
    const auto length =
        static_cast<std::uint32_t>(std::min<std::uint64_t>({window, s.mss, next.end - next.seq}));
    if (s.ns3.state == Ns3CongState::disorder && next.seq >= s.snd_max) ++s.limited_transmits;
    send_item(s, config, next.seq, length, now, out);
  }
}

void ns3_on_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, bool ece, SimTime now,
                TcpSenderActions& out) {
  if (s.completed != 0 || ack < s.snd_una || ack > s.snd_max) return;
  const std::uint64_t cwnd_before = s.cwnd;
  const std::uint64_t ssthresh_before = s.ssthresh;
  const TcpSeq old_una = s.snd_una;
  sample_rtt(s, config, ack, now);
  s.snd_una = ack;
  s.snd_nxt = std::max(s.snd_nxt, ack);
  discard_up_to(s, old_una);
  ns3_ecn_step(s, config, old_una, ece);
  if (ack == old_una) {
    if (ack == s.snd_max) return;  // nothing outstanding: not a duplicate
    on_duplicate_ack(s, config, ack, now, out);
    pkts_acked(s, config, now, 1);  // "after all, one segment has been ACKed"
  } else {
    on_new_ack(s, config, old_una, now, out);
  }
  if (s.snd_una == s.total_bytes) {
    s.completed = 1;
    out.completed = true;
    stop_timer(s);
  } else {
    ns3_send_pending(s, config, now, out);
  }
  out.cwnd_changed = s.cwnd != cwnd_before || s.ssthresh != ssthresh_before;
}

// ReTxTimeout: everything sent is lost, the Reno SACKs are forgotten, ssthresh from the pipe
// before the timeout (ns-3.37 clears the retransmitted flags before it tests whether the head
// was retransmitted, so every timeout sets it), cwnd 1 SMSS, the RTO doubled up to 60 s (here
// max_rto), the head goes again.
void ns3_on_timeout(TcpSenderState& s, const TcpConfig& config, SimTime now,
                    TcpSenderActions& out) {
  TcpNs3State& n = s.ns3;
  const std::uint64_t in_flight_before = pipe(s);
  ++s.timeouts;
  s.dupacks = 0;
  n.sacked_end = 0;
  n.lost_end = s.snd_max;
  n.rtx_end = 0;
  s.recover = s.snd_max;
  n.recover_active = 1;
  s.rto_ps = s.rto_ps > config.max_rto.ps() / 2 ? config.max_rto.ps() : s.rto_ps * 2;
  ++s.backoff_count;
  s.rtt_timing = 0;
  s.ssthresh = ns3_ssthresh(s, config, in_flight_before);
  if (runs_cubic(config)) tcp_cc::cubic_ns3::on_loss(s);  // CongestionStateSet(CA_LOSS)
  s.cwnd = s.mss;
  n.state = Ns3CongState::loss;
  s.in_fast_recovery = 0;
  restart_timer(s, now, out);
  ns3_send_pending(s, config, now, out);
  out.cwnd_changed = true;
}

}  // namespace netwarp::netmodels::tcp_detail
