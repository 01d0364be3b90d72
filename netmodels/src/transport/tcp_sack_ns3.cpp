// ns-3.37's TcpSocketBase with SACK and TcpNewReno, the sender of sack_reading NS3 (SACK_6675
// or PRR recovery, no ECN): ProcessAck's order and congestion states (s.ns3.state), DupAck
// first, which may enter recovery, then the cumulative part of the same ACK; window growth as
// TcpNewReno does it in each state; the timer restarted only where NewAck resets it; sending
// whenever cwnd exceeds BytesInFlight; ReTxTimeout's ssthresh. The scoreboard, NextSeg in
// recovery and PRR are tcp_sack_recovery.cpp's under the same reading
// (validation/ns3/SEMANTICS.md section 11).
#include <algorithm>
#include <optional>

#include "transport/tcp_rtt.hpp"
#include "transport/tcp_sack_steps.hpp"
#include "transport/tcp_sender_steps.hpp"

namespace netwarp::netmodels::tcp_detail {
namespace {

// One past the last lost byte: IsLost's marks and, after a timeout, all that was sent before it
// (SetSentListLost), SACKed bytes excepted.
TcpSeq ns3_lost_end(const TcpSenderState& s, const TcpConfig& config,
                    const TcpRangeStore& scoreboard) {
  const TcpSeq marked = std::max(tcp_lost_below(view_of(s, config, scoreboard)), s.ns3.lost_end);
  return std::min(std::max(marked, s.snd_una), s.snd_max);
}

// TcpTxBuffer::BytesInFlight: sent, less SACKed, less lost, plus retransmitted.
std::uint64_t ns3_pipe(const TcpSenderState& s, const TcpConfig& config,
                       const TcpRangeStore& scoreboard) {
  const TcpSeq rtx_end = std::min(std::max(s.scoreboard.high_rxt, s.snd_una), s.snd_max);
  return tcp_unsacked_within(scoreboard, ns3_lost_end(s, config, scoreboard), s.snd_max) +
         tcp_unsacked_within(scoreboard, s.snd_una, rtx_end) + s.ns3.sacked_after_rtx;
}

// NextSeg outside recovery (no rule 3): the first lost byte neither SACKed nor retransmitted,
// else new data.
TcpNextSegment ns3_next_seg_outside_recovery(const TcpSenderState& s, const TcpConfig& config,
                                             const TcpRangeStore& scoreboard) {
  TcpSeq seq = std::max(s.snd_una, s.scoreboard.high_rxt);
  while (const auto r = tcp_range_containing(scoreboard, seq)) seq = r->end;
  if (seq < ns3_lost_end(s, config, scoreboard)) {
    TcpSeq end = std::min<TcpSeq>(seq + s.mss, s.snd_max);
    if (const auto next = scoreboard.first_at_or_after(seq)) end = std::min(end, next->begin);
    return {1, TcpRange{seq, end}};
  }
  if (may_send_new(s, config)) return {2, TcpRange{s.snd_max, s.snd_max + s.mss}};
  return {};
}

// SendPendingData: while cwnd exceeds BytesInFlight, NextSeg's segment (rule 3 in recovery
// only), whole segments unless the data left fits the window.
void ns3_send_pending_with_sack(TcpSenderState& s, const TcpConfig& config,
                                const TcpRangeStore& scoreboard, SimTime now,
                                TcpSenderActions& out) {
  for (;;) {
    const std::uint64_t window = send_window(s, config);
    const std::uint64_t pipe = ns3_pipe(s, config, scoreboard);
    if (window <= pipe) return;
    const std::uint64_t available = window - pipe;
    TcpNextSegment next = s.in_fast_recovery != 0
                              ? tcp_next_segment(view_of(s, config, scoreboard), s.scoreboard,
                                                 may_send_new(s, config))
                              : ns3_next_seg_outside_recovery(s, config, scoreboard);
    if (next.rule == 0) return;
    if (available < s.mss && s.total_bytes - next.range.begin > available) return;
    next.range.end = std::min<TcpSeq>(next.range.end, next.range.begin + available);
    send_segment(s, next, now, out);
  }
}

// NewAck: with reset_rto the timer restarts with the RTO recomputed (the backoff ends).
void ns3_new_ack(TcpSenderState& s, const TcpConfig& config, bool reset_rto, SimTime now,
                 TcpSenderActions& out) {
  if (!reset_rto) return;
  s.rto_ps = unbacked_rto(s, config);
  s.backoff_count = 0;
  restart_timer(s, now, out);
}

// IsLost(HighACK + SMSS): the first item from the second on that is SACKed or lost is lost
// (nothing at or above the highest SACKed item is).
bool ns3_second_item_lost(const TcpSenderState& s, const TcpConfig& config,
                          const TcpRangeStore& scoreboard) {
  const TcpSeq seq = s.snd_una + s.mss;
  if (seq >= s.scoreboard.high_sacked || tcp_range_containing(scoreboard, seq)) return false;
  return seq < ns3_lost_end(s, config, scoreboard);
}

// One ACK as ReceivedAck sees it: BytesInFlight before ProcessAck (PRR's pipe; after entering
// recovery, the one EnterRecovery computed) and m_isRetransDataAcked.
struct Ns3Ack {
  AckInRecovery a;
  std::uint64_t pipe = 0;
  bool retransmitted_acked = false;
};

// DupAck on an ACK that SACKed new data.
void ns3_dup_ack(TcpSenderState& s, const TcpConfig& config, const TcpRangeStore& scoreboard,
                 Ns3Ack& k, SimTime now, TcpSenderActions& out) {
  TcpNs3State& n = s.ns3;
  if (n.state == Ns3CongState::loss) return;
  if (s.in_fast_recovery != 0) {
    if (config.recovery == TcpRecovery::prr)
      set_prr_cwnd(s, config, k.pipe, k.a.delivered, k.retransmitted_acked);
    return;
  }
  ++s.dupacks;
  n.state = Ns3CongState::disorder;
  const bool by_count = s.dupacks == config.dupack_threshold && s.snd_una >= s.recover;
  if (by_count || ns3_second_item_lost(s, config, scoreboard)) {
    k.pipe = tcp_set_pipe(view_of(s, config, scoreboard), 0);
    enter_recovery(s, config, scoreboard, k.a.delivered, now, out, false);
    n.state = Ns3CongState::recovery;
  }
}

// ProcessAck's part for an ACK that moved snd_una.
void ns3_cumulative_ack(TcpSenderState& s, const TcpConfig& config, const TcpRangeStore& scoreboard,
                        const Ns3Ack& k, SimTime now, TcpSenderActions& out) {
  TcpNs3State& n = s.ns3;
  const AckInRecovery& a = k.a;
  const TcpSeq ack = s.snd_una;
  const bool is_duplicate = a.newly_sacked > 0;
  std::uint32_t segments = ns3_segments_acked(s, ack - a.una_before);
  if (!is_duplicate) s.dupacks = 0;
  if (s.in_fast_recovery != 0 && ack < s.recover) {  // partial ACK
    if (config.recovery == TcpRecovery::prr && segments >= 1)
      set_prr_cwnd(s, config, k.pipe, a.delivered, k.retransmitted_acked);
    retransmit_on_partial_ack(s, config, scoreboard, now, out);
    ns3_new_ack(s, config, s.partial_ack_seen == 0, now, out);
    s.partial_ack_seen = 1;
    return;
  }
  if (n.state == Ns3CongState::loss && ack < s.recover) {
    ns3_increase_window(s, config, segments, now);
    return ns3_new_ack(s, config, true, now, out);
  }
  const bool exits_recovery = s.in_fast_recovery != 0;
  if (exits_recovery) {
    segments = static_cast<std::uint32_t>((ack - a.una_before) / s.mss);
    s.dupacks = 0;
  } else if (n.state == Ns3CongState::loss) {
    segments = static_cast<std::uint32_t>((ack - s.recover) / s.mss);
  }
  if (exits_recovery || n.state == Ns3CongState::loss || !is_duplicate) {
    if (n.state != Ns3CongState::open && n.state != Ns3CongState::disorder)
      s.partial_ack_seen = 0;  // m_isFirstPartialAck
    n.state = Ns3CongState::open;
  }
  if (exits_recovery) {
    s.in_fast_recovery = 0;
    s.cwnd = s.ssthresh;
  }
  if (n.state != Ns3CongState::open) return;  // disorder: no growth, the timer runs on
  ns3_increase_window(s, config, segments, now);
  ns3_new_ack(s, config, true, now, out);
}

// ReadOptions and DiscardUpTo: the scoreboard takes the ACK; counts the retransmitted bytes
// it SACKed (below HighRxt and not SACKed before), which stay in BytesInFlight.
AckInRecovery take_ack(TcpSenderState& s, TcpSeq ack, const TcpSackBlocks& sack,
                       TcpRangeStore& scoreboard) {
  TcpScoreboardState& sb = s.scoreboard;
  const TcpSeq una_before = s.snd_una;
  const std::uint64_t sacked_before = sb.sacked_bytes;
  tcp_scoreboard_advance(sb, scoreboard, ack);
  const std::uint64_t below_rxt_before = tcp_sacked_within(scoreboard, ack, sb.high_rxt);
  const std::uint64_t newly_sacked = tcp_scoreboard_update(sb, scoreboard, sack, ack, s.snd_max);
  const std::uint64_t below_rxt = tcp_sacked_within(scoreboard, ack, sb.high_rxt);
  // A cumulative ACK took the retransmitted-then-SACKed bytes to lie at the top of what it left.
  s.ns3.sacked_after_rtx =
      std::min(s.ns3.sacked_after_rtx, below_rxt_before) + (below_rxt - below_rxt_before);
  s.snd_una = ack;
  return {una_before, newly_sacked, ack - una_before + sb.sacked_bytes - sacked_before};
}

}  // namespace

bool runs_ns3_socket(const TcpConfig& config) {
  return config.sack && reads_as_ns3(config) &&
         (config.recovery == TcpRecovery::prr || config.recovery == TcpRecovery::sack_6675) &&
         config.congestion_control == CongestionControl::new_reno && !config.sends_ect();
}

std::uint64_t ns3_pipe_with_sack(const TcpSenderState& s, const TcpConfig& config,
                                 const TcpRangeStore& scoreboard) {
  return runs_ns3_socket(config) ? ns3_pipe(s, config, scoreboard) : 0;
}

void ns3_after_timeout_with_sack(TcpSenderState& s, std::uint64_t pipe_before) {
  // ssthresh from BytesInFlight at every timeout, every unSACKed byte sent lost, CA_LOSS; the
  // head that the timeout sent again (tcp_sender.cpp) counts as retransmitted.
  s.ssthresh = std::max<std::uint64_t>(2 * std::uint64_t{s.mss}, pipe_before / 2);
  s.ns3.state = Ns3CongState::loss;
  s.ns3.lost_end = s.snd_max;
  s.ns3.sacked_after_rtx = 0;
  s.scoreboard.high_rxt = s.snd_nxt;
}

// The RTT sample, DupAck, the cumulative part, then SendPendingData.
void ns3_on_ack_with_sack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack,
                          const TcpSackBlocks& sack, TcpRangeStore& scoreboard, SimTime now,
                          TcpSenderActions& out) {
  const AckInRecovery a = take_ack(s, ack, sack, scoreboard);
  if (s.rtt_timing != 0 && ack >= s.rtt_seq) {
    s.rtt_timing = 0;
    take_rtt_sample(s, config, now.ps() - s.rtt_start_ps);
  }
  s.snd_nxt = std::max(s.snd_nxt, ack);
  if (ack == s.total_bytes) {
    s.completed = 1;
    out.completed = true;
    return stop_timer(s);
  }
  Ns3Ack k{a, ns3_pipe(s, config, scoreboard),
           s.in_fast_recovery != 0 && ack > a.una_before && ack < s.recover &&
               a.una_before < s.scoreboard.high_rxt};
  if (a.newly_sacked > 0) {
    ++s.duplicate_acks;
    ns3_dup_ack(s, config, scoreboard, k, now, out);
  }
  if (ack > a.una_before) ns3_cumulative_ack(s, config, scoreboard, k, now, out);
  if (s.snd_una == s.snd_max) stop_timer(s);
  ns3_send_pending_with_sack(s, config, scoreboard, now, out);
}

}  // namespace netwarp::netmodels::tcp_detail
