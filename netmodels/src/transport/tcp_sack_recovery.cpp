// SACK-based loss recovery of the TCP sender: RFC 6675 section 5 (entering recovery on
// DupThresh duplicate ACKs or IsLost(HighACK + 1), pipe-limited sending with NextSeg(), leaving
// at RecoveryPoint; section 5.1 after a timeout), and optionally RFC 6937 proportional rate
// reduction (PRR-SSRB, or PRR-CRB with prr_conservative) setting cwnd during recovery. Outside
// recovery the sender behaves as in tcp_sender.cpp (RFC 5681), except that retransmissions
// after a timeout skip what the receiver has SACKed since (RFC 6675 section 5.1). Under
// sack_reading NS3 with TcpNewReno, tcp_sack_ns3.cpp runs ns-3.37's socket around these steps.
#include <algorithm>
#include <limits>

#include "transport/congestion_control.hpp"
#include "transport/tcp_rtt.hpp"
#include "transport/tcp_sack_steps.hpp"
#include "transport/tcp_sender_steps.hpp"

namespace netwarp::netmodels::tcp_detail {

bool reads_as_ns3(const TcpConfig& config) {
  return config.sack_reading == SackReading::ns3;
}

TcpScoreboardView view_of(const TcpSenderState& s, const TcpConfig& config,
                          const TcpRangeStore& scoreboard) {
  return TcpScoreboardView{
      scoreboard, s.snd_una, s.snd_max, s.mss, config.dupack_threshold, reads_as_ns3(config)};
}

// NextSeg() rule 2's condition: unsent data that the receive window allows.
bool may_send_new(const TcpSenderState& s, const TcpConfig& config) {
  if (s.snd_max >= s.total_bytes) return false;
  const std::uint64_t length = std::min<std::uint64_t>(s.mss, s.total_bytes - s.snd_max);
  return config.receive_window_bytes == 0 ||
         s.snd_max - s.snd_una + length <= config.receive_window_bytes;
}

// (C.2)-(C.3): sends the segment `next` (a NextSeg() answer); returns its length.
std::uint32_t send_segment(TcpSenderState& s, TcpNextSegment next, SimTime now,
                           TcpSenderActions& out) {
  TcpScoreboardState& sb = s.scoreboard;
  TcpRange r = next.range;
  if (next.rule == 0) return 0;
  if (next.rule == 2) {
    r.end = std::min<TcpSeq>(r.end, s.total_bytes);
    emit_range(s, r.begin, static_cast<std::uint32_t>(r.length()), now, out);
    s.snd_nxt = s.snd_max = r.end;  // (C.3)
  } else {
    emit_range(s, r.begin, static_cast<std::uint32_t>(r.length()), now, out);
    if (next.rule == 4) {
      sb.rescue_rxt = s.recover;  // RescueRxt = RecoveryPoint; HighRxt stays
      ++sb.rescue_retransmits;
    } else {
      sb.high_rxt = std::max(sb.high_rxt, r.end);  // (C.2)
    }
  }
  sb.prr_out += r.length();  // RFC 6937: prr_out counts every transmission in recovery
  return static_cast<std::uint32_t>(r.length());  // at most one SMSS
}

namespace {

// (C.1): sends the segment NextSeg() chooses; returns its length, 0 if none.
std::uint32_t send_next_segment(TcpSenderState& s, const TcpConfig& config,
                                const TcpRangeStore& scoreboard, SimTime now,
                                TcpSenderActions& out) {
  return send_segment(
      s, tcp_next_segment(view_of(s, config, scoreboard), s.scoreboard, may_send_new(s, config)),
      now, out);
}

}  // namespace

// ns-3.37's partial ACK in recovery (TcpSocketBase::ProcessAck, DoRetransmit): unless the new
// head was retransmitted already, at once and whatever cwnd says, NextSeg()'s lost segment,
// else new data, else the head.
void retransmit_on_partial_ack(TcpSenderState& s, const TcpConfig& config,
                               const TcpRangeStore& scoreboard, SimTime now,
                               TcpSenderActions& out) {
  const TcpSeq head_end = std::min<TcpSeq>(s.snd_una + s.mss, s.snd_max);
  if (s.scoreboard.high_rxt >= head_end) return;
  TcpNextSegment next =
      tcp_next_segment(view_of(s, config, scoreboard), s.scoreboard, may_send_new(s, config));
  if (next.rule != 1 && next.rule != 2) {
    TcpSeq end = head_end;
    if (const auto sacked = scoreboard.first_at_or_after(s.snd_una))
      end = std::min(end, sacked->begin);
    next = TcpNextSegment{1, TcpRange{s.snd_una, end}};
  }
  send_segment(s, next, now, out);
}

namespace {

// (C) and (C.5): while cwnd - pipe >= 1 SMSS, send NextSeg() and add it to pipe (C.4).
void send_in_recovery(TcpSenderState& s, const TcpConfig& config, const TcpRangeStore& scoreboard,
                      std::uint64_t pipe, SimTime now, TcpSenderActions& out) {
  while (s.cwnd >= pipe + s.mss) {
    const std::uint32_t sent = send_next_segment(s, config, scoreboard, now, out);
    if (sent == 0) return;
    pipe += sent;
  }
}

}  // namespace

namespace {

// TcpPrrRecovery::DoRecovery multiplies m_prrDelivered by m_ssThresh as uint32_t (a
// TracedValue<uint32_t> product): it wraps at 2^32.
std::uint64_t ns3_prr_product(std::uint64_t prr_delivered, std::uint64_t ssthresh) {
  return static_cast<std::uint32_t>(static_cast<std::uint32_t>(prr_delivered) *
                                    static_cast<std::uint32_t>(ssthresh));
}

// ns-3.37's TcpPrrRecovery computes SSRB's max(prr_delivered - prr_out, DeliveredData) + MSS in
// uint32_t and stores it in an int: when more was sent than delivered the difference wraps to
// nearly 2^32, the maximum takes it and adding the MSS wraps again, to MSS less the excess (0 when
// one segment more went out, negative beyond). ns-3.38 made the arithmetic signed.
std::int64_t ns3_ssrb_limit(std::uint64_t prr_delivered, std::uint64_t prr_out,
                            std::uint64_t delivered, std::uint32_t mss) {
  const auto difference = static_cast<std::uint32_t>(static_cast<std::uint32_t>(prr_delivered) -
                                                     static_cast<std::uint32_t>(prr_out));
  const auto sum =
      static_cast<std::uint32_t>(std::max(difference, static_cast<std::uint32_t>(delivered)) + mss);
  return static_cast<std::int32_t>(sum);
}

}  // namespace

// RFC 6937 section 3, on each ACK in recovery: cwnd = pipe + sndcnt. `retransmitted_acked`:
// the ACK covers retransmitted data, without which ns-3.37's SSRB sends only DeliveredData.
void set_prr_cwnd(TcpSenderState& s, const TcpConfig& config, std::uint64_t pipe,
                  std::uint64_t delivered, bool retransmitted_acked) {
  TcpScoreboardState& sb = s.scoreboard;
  sb.prr_delivered += delivered;
  const auto prr_delivered = static_cast<std::int64_t>(sb.prr_delivered);
  const auto prr_out = static_cast<std::int64_t>(sb.prr_out);
  const auto ssthresh = static_cast<std::int64_t>(s.ssthresh);
  const auto mss = static_cast<std::int64_t>(s.mss);
  std::int64_t sndcnt = 0;
  if (static_cast<std::int64_t>(pipe) > ssthresh) {  // proportional rate reduction
    // ceil(prr_delivered * ssthresh / RecoverFS) in 128 bits: the product of two windows of a
    // few GB each does not fit 64.
    __extension__ using U128 = unsigned __int128;
    const U128 recover_fs = std::max<std::uint64_t>(sb.recover_fs, 1);
    const U128 product = reads_as_ns3(config) ? U128{ns3_prr_product(sb.prr_delivered, s.ssthresh)}
                                              : U128{sb.prr_delivered} * s.ssthresh;
    U128 share = (product + recover_fs - 1) / recover_fs;
    if (config.prr_whole_segments) share = (share + s.mss - 1) / s.mss * s.mss;
    const U128 capped =
        std::min<U128>(share, static_cast<U128>(std::numeric_limits<std::int64_t>::max()));
    sndcnt = static_cast<std::int64_t>(capped) - prr_out;
  } else {  // reduction bound: PRR-CRB or PRR-SSRB
    const auto delivered_now = static_cast<std::int64_t>(delivered);
    std::int64_t limit = config.prr_conservative
                             ? prr_delivered - prr_out
                             : std::max(prr_delivered - prr_out, delivered_now) + mss;
    if (!config.prr_conservative && reads_as_ns3(config))
      limit = retransmitted_acked ? ns3_ssrb_limit(sb.prr_delivered, sb.prr_out, delivered, s.mss)
                                  : delivered_now;
    sndcnt = std::min(ssthresh - static_cast<std::int64_t>(pipe), limit);
  }
  sndcnt = std::max<std::int64_t>(sndcnt, 0);
  // RFC 6675 (4.3): the fast retransmit itself always goes (ns-3's PRR does the same).
  if (prr_out == 0) sndcnt = std::max(sndcnt, mss);
  s.cwnd = pipe + static_cast<std::uint64_t>(sndcnt);
}

// RFC 6675 section 5 step (4); with PRR, RFC 6937's initialisation.
void enter_recovery(TcpSenderState& s, const TcpConfig& config, const TcpRangeStore& scoreboard,
                    std::uint64_t delivered, SimTime now, TcpSenderActions& out, bool then_send) {
  TcpScoreboardState& sb = s.scoreboard;
  s.recover = s.snd_max;  // (4.1) RecoveryPoint = HighData
  // (4.2) from FlightSize itself; with ssthresh_on_loss BYTES_IN_FLIGHT from the pipe before
  // the fast retransmit (ns-3.37's EnterRecovery with SACK: BytesInFlight()).
  const std::uint64_t reduced = config.ssthresh_base == SsthreshBase::bytes_in_flight
                                    ? tcp_set_pipe(view_of(s, config, scoreboard), s.snd_una)
                                    : flight_size(s);
  tcp_cc::on_fast_retransmit(s, config, reduced);
  s.cwnd = s.ssthresh;
  s.in_fast_recovery = 1;
  ++s.fast_retransmits;
  ++sb.sack_recoveries;
  sb.prr_delivered = 0;
  sb.prr_out = 0;
  sb.recover_fs = s.snd_max - s.snd_una;
  const TcpScoreboardView view = view_of(s, config, scoreboard);
  if (config.recovery == TcpRecovery::prr)
    set_prr_cwnd(s, config, tcp_set_pipe(view, 0), delivered, false);
  // (4.3): the segment at HighACK + 1; HighRxt = RescueRxt = its last byte.
  TcpSeq end = std::min<TcpSeq>(s.snd_una + s.mss, s.snd_max);
  if (const auto next = scoreboard.first_at_or_after(s.snd_una)) end = std::min(end, next->begin);
  emit_range(s, s.snd_una, static_cast<std::uint32_t>(end - s.snd_una), now, out);
  sb.prr_out += end - s.snd_una;
  sb.high_rxt = end;
  sb.rescue_rxt = end;
  if (!then_send) return;
  // (4.4) SetPipe() and (4.5) on to (C).
  send_in_recovery(s, config, scoreboard, tcp_set_pipe(view_of(s, config, scoreboard), sb.high_rxt),
                   now, out);
}

namespace {

// RFC 6675 section 5 step (3), limited transmit on a duplicate ACK that does not start
// recovery: (3.1) HighRxt = HighACK, (3.2) SetPipe(), (3.3) while cwnd - pipe >= 1 SMSS and the
// receive window allows, up to 1 SMSS of new data at HighData + 1, adding it to pipe.
void limited_transmit_by_pipe(TcpSenderState& s, const TcpConfig& config,
                              const TcpRangeStore& scoreboard, SimTime now, TcpSenderActions& out) {
  s.scoreboard.high_rxt = s.snd_una;
  std::uint64_t pipe = tcp_set_pipe(view_of(s, config, scoreboard), s.scoreboard.high_rxt);
  while (s.cwnd >= pipe + s.mss && may_send_new(s, config)) {
    const auto length =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(s.mss, s.total_bytes - s.snd_max));
    emit_range(s, s.snd_max, length, now, out);
    s.snd_nxt = s.snd_max = s.snd_max + length;
    pipe += length;
    ++s.limited_transmits;
  }
}

// Outside recovery: new data as cwnd allows; after a timeout (snd_nxt < snd_max) the
// retransmissions skip SACKed ranges.
void send_outside_recovery(TcpSenderState& s, const TcpConfig& config,
                           const TcpRangeStore& scoreboard, SimTime now, TcpSenderActions& out) {
  const std::uint64_t window = send_window(s, config);
  while (s.snd_nxt < s.total_bytes) {
    if (const auto sacked = tcp_range_containing(scoreboard, s.snd_nxt)) {
      s.snd_nxt = sacked->end;
      continue;
    }
    std::uint64_t length = std::min<std::uint64_t>(s.mss, s.total_bytes - s.snd_nxt);
    if (const auto next = scoreboard.first_at_or_after(s.snd_nxt))
      length = std::min<std::uint64_t>(length, next->begin - s.snd_nxt);
    if (flight_size(s) > 0 && flight_size(s) + length > window) break;
    emit_range(s, s.snd_nxt, static_cast<std::uint32_t>(length), now, out);
    s.snd_nxt += static_cast<std::uint32_t>(length);
    s.snd_max = std::max(s.snd_max, s.snd_nxt);
  }
}

// snd_una moved to `ack`: RTT sample, leaving recovery at RecoveryPoint (A), window growth
// outside recovery (RFC 5681), the RTO timer (RFC 6298 5.2, 5.3). Returns true on completion.
bool on_cumulative_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, bool ece,
                       SimTime now, TcpSenderActions& out) {
  const std::uint64_t acked = ack - s.snd_una;
  s.snd_una = ack;
  s.snd_nxt = std::max(s.snd_nxt, ack);
  s.dupacks = 0;
  const tcp_cc::AckedData data{acked, ece, now, update_rto_on_new_ack(s, config, ack, now)};
  tcp_cc::on_data_acked(s, config, data);
  if (s.in_fast_recovery != 0) {
    if (ack >= s.recover) {  // (A); RFC 6937: cwnd = ssthresh on leaving
      s.in_fast_recovery = 0;
      s.cwnd = s.ssthresh;
    }
  } else if (!react_to_ecn(s, config, ece)) {
    tcp_cc::grow(s, config, data);
  }
  if (s.snd_una == s.total_bytes) {
    s.completed = 1;
    out.completed = true;
    stop_timer(s);
    return true;
  }
  if (s.snd_una == s.snd_max) {
    stop_timer(s);
  } else {
    restart_timer(s, now, out);
  }
  return false;
}

// RFC 6675 section 5 outside recovery: count a duplicate ACK, then steps (1) and (2) may enter
// recovery (section 5.1: not before HighACK reaches the RecoveryPoint of a timeout).
void on_ack_outside_recovery(TcpSenderState& s, const TcpConfig& config, bool is_same_ack, bool ece,
                             bool is_duplicate, std::uint64_t delivered,
                             const TcpRangeStore& scoreboard, SimTime now, TcpSenderActions& out) {
  if (is_duplicate) {
    ++s.dupacks;
    if (is_same_ack) react_to_ecn(s, config, ece);
  }
  const bool loss_seen = s.dupacks >= config.dupack_threshold ||
                         tcp_is_lost(view_of(s, config, scoreboard), s.snd_una);
  if (is_duplicate && loss_seen && s.snd_una >= s.recover) {
    enter_recovery(s, config, scoreboard, delivered, now, out);
  } else if (is_duplicate && config.limited_transmit && s.snd_nxt == s.snd_max &&
             s.snd_una >= s.recover) {
    limited_transmit_by_pipe(s, config, scoreboard, now, out);
  } else {
    send_outside_recovery(s, config, scoreboard, now, out);
  }
}

// An ACK in recovery as ns-3.37's TcpSocketBase takes it with SACK (ProcessAck, DupAck): PRR's
// DoRecovery on an ACK that SACKed new data, again on a partial ACK of at least one SMSS (with
// the same DeliveredData), the partial ACK's retransmission, then (C) as cwnd allows.
void recover_as_ns3(TcpSenderState& s, const TcpConfig& config, const TcpRangeStore& scoreboard,
                    AckInRecovery a, SimTime now, TcpSenderActions& out) {
  TcpScoreboardState& sb = s.scoreboard;
  const bool partial = s.snd_una > a.una_before;
  const bool retransmitted_acked = partial && a.una_before < sb.high_rxt;
  const std::uint64_t pipe = tcp_set_pipe(view_of(s, config, scoreboard), sb.high_rxt);
  if (config.recovery == TcpRecovery::prr) {
    if (a.newly_sacked > 0) set_prr_cwnd(s, config, pipe, a.delivered, retransmitted_acked);
    if (partial && s.snd_una - a.una_before >= s.mss)
      set_prr_cwnd(s, config, pipe, a.delivered, retransmitted_acked);
  }
  if (partial) retransmit_on_partial_ack(s, config, scoreboard, now, out);
  send_in_recovery(s, config, scoreboard, tcp_set_pipe(view_of(s, config, scoreboard), sb.high_rxt),
                   now, out);
}

}  // namespace

bool uses_scoreboard(const TcpConfig& config) {
  return config.sack && config.recovery != TcpRecovery::newreno;
}

void forget_scoreboard(TcpSenderState& s, const TcpConfig& config, TcpRangeStore& scoreboard,
                       std::uint64_t pipe_before) {
  // ns-3.37 keeps what was SACKed (ReTxTimeout: SetSentListLost(false)); RFC 2018 section 8
  // forgets it.
  if (!reads_as_ns3(config)) tcp_scoreboard_clear(s.scoreboard, scoreboard);
  s.scoreboard.high_rxt = 0;
  s.scoreboard.rescue_rxt = 0;
  if (runs_ns3_socket(config)) ns3_after_timeout_with_sack(s, pipe_before);
}

void on_ack_with_scoreboard(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, bool ece,
                            const TcpSackBlocks& sack, TcpRangeStore& scoreboard, SimTime now,
                            TcpSenderActions& out) {
  // Old ACKs and ACKs of data never sent are ignored (RFC 5681 section 3.2 / RFC 793).
  if (s.completed != 0 || ack < s.snd_una || ack > s.snd_max) return;
  const std::uint64_t cwnd_before = s.cwnd;
  const std::uint64_t ssthresh_before = s.ssthresh;
  TcpScoreboardState& sb = s.scoreboard;
  const TcpSeq una_before = s.snd_una;
  if (runs_ns3_socket(config)) {
    ns3_on_ack_with_sack(s, config, ack, sack, scoreboard, now, out);
    out.cwnd_changed = s.cwnd != cwnd_before || s.ssthresh != ssthresh_before;
    return;
  }
  const std::uint64_t sacked_before = sb.sacked_bytes;
  tcp_scoreboard_advance(sb, scoreboard, ack);
  const std::uint64_t newly_sacked = tcp_scoreboard_update(sb, scoreboard, sack, ack, s.snd_max);
  // RFC 6937 DeliveredData: the change in snd.una plus the change in SACKed bytes.
  const std::uint64_t delivered = ack - una_before + sb.sacked_bytes - sacked_before;
  // RFC 6675 section 2: a duplicate ACK carries new SACK information; without SACK blocks
  // (the receiver had none to report) RFC 5681's definition applies.
  const bool is_duplicate =
      una_before < s.snd_max && (newly_sacked > 0 || (sack.count == 0 && ack == una_before));
  if (ack > una_before && on_cumulative_ack(s, config, ack, ece, now, out)) {
    out.cwnd_changed = s.cwnd != cwnd_before || s.ssthresh != ssthresh_before;
    return;
  }
  if (is_duplicate) ++s.duplicate_acks;
  if (s.in_fast_recovery != 0 && reads_as_ns3(config)) {
    recover_as_ns3(s, config, scoreboard, {una_before, newly_sacked, delivered}, now, out);
  } else if (s.in_fast_recovery != 0) {
    const std::uint64_t pipe = tcp_set_pipe(view_of(s, config, scoreboard), sb.high_rxt);  // (B.2)
    if (config.recovery == TcpRecovery::prr) set_prr_cwnd(s, config, pipe, delivered, true);
    send_in_recovery(s, config, scoreboard, pipe, now, out);
  } else {
    on_ack_outside_recovery(s, config, ack == una_before, ece, is_duplicate, delivered, scoreboard,
                            now, out);
  }
  out.cwnd_changed = s.cwnd != cwnd_before || s.ssthresh != ssthresh_before;
}

}  // namespace netwarp::netmodels::tcp_detail
