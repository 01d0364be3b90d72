// TCP sender as a pure state machine: fast retransmit and NewReno fast
// recovery (RFC 6582 section 3.2, "impatient" timer variant), the retransmission timer of
// RFC 6298 section 5 kept lazily (tcp_timer.hpp), go-back-N after a timeout, and the ECN
// reaction of RFC 3168 section 6.1.2 (at most once per window); the three-way handshake (RFC
// 793 3.4) with the SYN's own retransmission timer (RFC 6298 section 5 and 5.7) and limited
// transmit (RFC 3042). The policy choices of TcpConfig (SsthreshBase, RecoveryExitCwnd,
// RtoBackoffReset) default to the RFC reading. The window rules (growth, ssthresh and cwnd on loss,
// timeout and ECN echo) are the configured congestion control's (congestion_control.hpp), given the
// FlightSize that the policy reads. Sequence numbers are byte offsets in the flow; `recover` holds
// one past the RFC's "highest sequence number transmitted", i.e. snd_max.
#include <algorithm>
#include <cstdint>

#include "netwarp/engine/check.hpp"
#include "netwarp/netmodels/tcp.hpp"
#include "transport/congestion_control.hpp"
#include "transport/tcp_rtt.hpp"
#include "transport/tcp_sender_steps.hpp"
#include "transport/tcp_timer.hpp"

namespace netwarp::netmodels {
namespace tcp_detail {

constexpr std::uint64_t kInfiniteSsthresh = UINT64_MAX / 2;

std::uint64_t flight_size(const TcpSenderState& s) {
  return s.snd_nxt - s.snd_una;
}

std::uint32_t segment_length(const TcpSenderState& s, TcpSeq seq) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(s.mss, s.total_bytes - seq));
}

// The FlightSize that equation (4) of RFC 5681 (or the congestion control's own factor)
// reduces, without `not_counted` bytes. bytes_in_flight: less one SMSS per duplicate ACK, a
// segment that left the network.
std::uint64_t loss_window(const TcpSenderState& s, const TcpConfig& config,
                          std::uint64_t not_counted) {
  const std::uint64_t flight = flight_size(s);
  if (config.ssthresh_base == SsthreshBase::bytes_in_flight)
    not_counted = std::uint64_t{s.dupacks} * s.mss;
  return flight - std::min(flight, not_counted);
}

// RFC 6298 5.5 (and 5 for the SYN): double the RTO, at most max_rto.
void back_off_rto(TcpSenderState& s, const TcpConfig& config) {
  s.rto_ps = s.rto_ps > config.max_rto.ps() / 2 ? config.max_rto.ps() : s.rto_ps * 2;
  ++s.backoff_count;
}

void restart_timer(TcpSenderState& s, SimTime now, TcpSenderActions& out) {
  s.rto_deadline_ps = now.ps() + s.rto_ps;
  arm_lazy_timer(s.rto_deadline_ps, s.timer_pending_ps, s.timer_generation, out.timer);
}

// The live event (if any) stays scheduled; it finds the timer off and does nothing.
void stop_timer(TcpSenderState& s) {
  s.rto_deadline_ps = -1;
}

// Puts one segment on the wire. Karn's rule (RFC 6298 section 3): time only a segment sent for
// the first time, and stop timing when a retransmission covers the timed one. RFC 6298 5.1:
// sending data starts the timer if it is not running.
void emit_range(TcpSenderState& s, TcpSeq seq, std::uint32_t length, SimTime now,
                TcpSenderActions& out) {
  const bool is_retransmission = seq < s.snd_max;
  out.segments.push_back(TcpSegment{seq, length, is_retransmission});
  ++s.segments_sent;
  if (is_retransmission) {
    ++s.retransmitted_segments;
    if (s.rtt_timing != 0 && seq < s.rtt_seq) s.rtt_timing = 0;
  } else if (s.rtt_timing == 0) {
    s.rtt_timing = 1;
    s.rtt_seq = seq + length;
    s.rtt_start_ps = now.ps();
  }
  if (s.rto_deadline_ps == -1) restart_timer(s, now, out);
}

void emit_segment(TcpSenderState& s, TcpSeq seq, SimTime now, TcpSenderActions& out) {
  emit_range(s, seq, segment_length(s, seq), now, out);
}

// Sends the segment at snd_nxt (new data) and moves snd_nxt past it.
void emit_new_segment(TcpSenderState& s, SimTime now, TcpSenderActions& out) {
  const std::uint32_t length = segment_length(s, s.snd_nxt);
  emit_segment(s, s.snd_nxt, now, out);
  s.snd_nxt += length;
  s.snd_max = std::max(s.snd_max, s.snd_nxt);
}

std::uint64_t send_window(const TcpSenderState& s, const TcpConfig& config) {
  if (config.receive_window_bytes == 0) return s.cwnd;
  return std::min(s.cwnd, config.receive_window_bytes);
}

// Sends from snd_nxt while the window allows. With nothing in flight one segment always goes,
// so a receive window below one MSS cannot stall the flow (no persist timer here).
void send_available(TcpSenderState& s, const TcpConfig& config, SimTime now,
                    TcpSenderActions& out) {
  if (uses_ns3_classic(config)) return ns3_send_pending(s, config, now, out);
  if (s.connection != TcpConnection::established) return;  // data waits for the handshake
  const std::uint64_t window = send_window(s, config);
  while (s.snd_nxt < s.total_bytes) {
    const std::uint32_t length = segment_length(s, s.snd_nxt);
    if (flight_size(s) > 0 && flight_size(s) + length > window) break;
    emit_new_segment(s, now, out);
  }
}

// RFC 3042 / RFC 5681 3.2 step 1: on the first and second duplicate ACK, one segment of new
// data if FlightSize stays <= cwnd + 2 * SMSS and the receive window allows; cwnd unchanged.
void limited_transmit(TcpSenderState& s, const TcpConfig& config, SimTime now,
                      TcpSenderActions& out) {
  if (!config.limited_transmit || s.in_fast_recovery != 0 || s.dupacks > 2 ||
      s.dupacks >= config.dupack_threshold)
    return;
  if (s.snd_nxt != s.snd_max || s.snd_nxt >= s.total_bytes) return;  // no new data
  const std::uint32_t length = segment_length(s, s.snd_nxt);
  const std::uint64_t flight_after = flight_size(s) + length;
  if (flight_after > s.cwnd + 2 * std::uint64_t{s.mss}) return;
  if (config.receive_window_bytes != 0 && flight_after > config.receive_window_bytes) return;
  emit_new_segment(s, now, out);
  s.limited_transmit_bytes += length;
  ++s.limited_transmits;
}

// RFC 6582 3.2 step 2: ssthresh from the congestion control (NewReno: eq. (4)), retransmit,
// cwnd = ssthresh + 3 * SMSS (the segments that left the network, one per duplicate ACK),
// recover = highest sent. Data sent by limited transmit is not part of FlightSize here (RFC
// 5681 3.2 step 2).
void enter_fast_recovery(TcpSenderState& s, const TcpConfig& config, SimTime now,
                         TcpSenderActions& out) {
  tcp_cc::on_fast_retransmit(s, config, loss_window(s, config, s.limited_transmit_bytes));
  s.cwnd = s.ssthresh + std::uint64_t{config.dupack_threshold} * s.mss;
  s.recover = s.snd_max;
  s.in_fast_recovery = 1;
  s.partial_ack_seen = 0;
  ++s.fast_retransmits;
  emit_segment(s, s.snd_una, now, out);
}

// RFC 6582 3.2 steps 2 and 3. The "covers more than recover" test of step 2 is ack >= recover
// here, since recover is one past the RFC's value; it also lets the first loss of a flow (ack 0)
// recover, and after a timeout (section 4) it keeps go-back-N duplicates from retransmitting.
void on_duplicate_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, SimTime now,
                      TcpSenderActions& out) {
  ++s.duplicate_acks;
  ++s.dupacks;
  if (s.in_fast_recovery != 0) {
    s.cwnd += s.mss;  // step 3: inflate, a segment has left the network
  } else if (s.dupacks == config.dupack_threshold && ack >= s.recover) {
    enter_fast_recovery(s, config, now, out);
  } else {
    limited_transmit(s, config, now, out);
  }
}

// RFC 6582 3.2 steps 5 and 6, after snd_una moved by `acked` bytes.
void on_recovery_ack(TcpSenderState& s, const TcpConfig& config, std::uint64_t acked, SimTime now,
                     TcpSenderActions& out) {
  const std::uint64_t mss = s.mss;
  if (s.snd_una >= s.recover) {  // full ACK, step 6
    tcp_cc::on_recovery_exit(s, config);
    s.in_fast_recovery = 0;
    return;
  }
  // Partial ACK: retransmit the next hole, deflate by the newly acknowledged data and add back
  // one SMSS if at least that much was acknowledged.
  emit_segment(s, s.snd_una, now, out);
  s.cwnd = s.cwnd > acked ? s.cwnd - acked : 0;
  if (acked >= mss) s.cwnd += mss;
  s.cwnd = std::max(s.cwnd, mss);
}

// RFC 3168 6.1.2: reduce at most once per window of data, and not again inside loss recovery
// (NewReno halves; RFC 9438 4.6 and RFC 8257 3.3 keep the same once-per-window rule).
bool react_to_ecn(TcpSenderState& s, const TcpConfig& config, bool ece) {
  if (!tcp_cc::reacts_to_ecn(config) || !ece || s.in_fast_recovery != 0 ||
      s.snd_una <= s.ecn_recover)
    return false;
  tcp_cc::on_ecn_echo(s, config, loss_window(s, config, 0));
  s.ecn_recover = s.snd_max;
  return true;
}

// RFC 6298 5.2 and 5.3: stop when all is acknowledged, otherwise restart, except that inside
// fast recovery only the first partial ACK restarts it (RFC 6582 3.2 step 5, "impatient").
void update_timer_on_new_ack(TcpSenderState& s, bool was_in_recovery, SimTime now,
                             TcpSenderActions& out) {
  if (s.snd_una == s.snd_max) {
    stop_timer(s);
  } else if (!was_in_recovery || s.in_fast_recovery == 0) {
    restart_timer(s, now, out);
  } else if (s.partial_ack_seen == 0) {
    s.partial_ack_seen = 1;
    restart_timer(s, now, out);
  }
}

// The timed segment acknowledged: an RTT sample (RFC 6298 2.2-2.3), which ends the backoff;
// otherwise the backoff ends here only with RtoBackoffReset::on_new_ack. Returns the sample,
// -1 if none.
std::int64_t update_rto_on_new_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack,
                                   SimTime now) {
  if (s.rtt_timing != 0 && ack >= s.rtt_seq) {
    s.rtt_timing = 0;
    const std::int64_t sample_ps = now.ps() - s.rtt_start_ps;
    take_rtt_sample(s, config, sample_ps);
    return sample_ps;
  }
  if (config.rto_backoff_reset == RtoBackoffReset::on_new_ack) {
    s.rto_ps = unbacked_rto(s, config);
    s.backoff_count = 0;
  }
  return -1;
}

void on_new_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, bool ece, SimTime now,
                TcpSenderActions& out) {
  const std::uint64_t acked = ack - s.snd_una;
  s.snd_una = ack;
  s.snd_nxt = std::max(s.snd_nxt, ack);  // after go-back-N the receiver may hold more
  s.dupacks = 0;
  s.limited_transmit_bytes = 0;
  const tcp_cc::AckedData data{acked, ece, now, update_rto_on_new_ack(s, config, ack, now)};
  tcp_cc::on_data_acked(s, config, data);
  const bool was_in_recovery = s.in_fast_recovery != 0;
  if (was_in_recovery) {
    on_recovery_ack(s, config, acked, now, out);
  } else if (!react_to_ecn(s, config, ece)) {
    tcp_cc::grow(s, config, data);  // RFC 3168 6.1.2: no increase on the ACK that reduces
  }
  if (s.snd_una == s.total_bytes) {
    s.completed = 1;
    out.completed = true;
    stop_timer(s);
    return;
  }
  update_timer_on_new_ack(s, was_in_recovery, now, out);
}

// RFC 6298 5.4-5.7 and RFC 5681 3.1: retransmit from snd_una (go-back-N: everything below
// snd_max goes again as a retransmission), double the RTO, restart the timer. The congestion
// control sets cwnd (1 SMSS) and ssthresh, the latter only the first time a segment times out.
// recover = snd_max so that duplicates of go-back-N data cause no fast retransmit (RFC 6582 4).
void on_timeout(TcpSenderState& s, const TcpConfig& config, SimTime now, TcpSenderActions& out) {
  if (uses_ns3_classic(config)) return ns3_on_timeout(s, config, now, out);
  const bool is_repeat = s.timeouts > 0 && s.timeout_una == s.snd_una;
  ++s.timeouts;
  tcp_cc::on_timeout(s, config, is_repeat, loss_window(s, config, 0));
  s.snd_nxt = s.snd_una;
  s.rtt_timing = 0;
  s.in_fast_recovery = 0;
  s.dupacks = 0;
  s.limited_transmit_bytes = 0;
  s.recover = s.snd_max;
  s.timeout_una = s.snd_una;
  back_off_rto(s, config);
  restart_timer(s, now, out);
  send_available(s, config, now, out);
  out.cwnd_changed = true;
}

}  // namespace tcp_detail

using namespace tcp_detail;

namespace {

void send_syn(TcpSenderState& s, bool is_retransmission, SimTime now, TcpSenderActions& out) {
  out.send_syn = true;
  out.syn_is_retransmission = is_retransmission;
  ++s.syns_sent;
  restart_timer(s, now, out);
}

// RFC 6298 section 5 applied to the SYN: retransmit it with the RTO doubled.
void on_syn_timeout(TcpSenderState& s, const TcpConfig& config, SimTime now,
                    TcpSenderActions& out) {
  ++s.syn_retransmissions;
  back_off_rto(s, config);
  send_syn(s, true, now, out);
}

// After a retransmitted SYN the SYN-ACK gives no RTT sample (Karn, RFC 6298 section 3); RFC
// 6298 5.7: an RTO below 3 s is raised to 3 s for the data; RFC 5681 3.1: the initial window
// is one segment.
void after_syn_timeout(TcpSenderState& s, const TcpConfig& config) {
  const std::int64_t floor_ps = std::min(config.rto_after_syn_timeout.ps(), config.max_rto.ps());
  s.rto_ps = std::max(s.rto_ps, floor_ps);
  s.cwnd = s.mss;
}

TcpSenderState new_sender(const TcpConfig& config, std::uint64_t bytes, std::uint32_t mss) {
  TcpSenderState s;
  s.total_bytes = bytes;
  s.mss = mss;
  s.cwnd = std::uint64_t{config.initial_window_segments} * mss;
  s.ssthresh = kInfiniteSsthresh;
  s.rto_ps = tcp_detail::initial_rto(config);
  tcp_cc::on_open(s, config);
  return s;
}

}  // namespace

TcpSenderState tcp_connect(const TcpConfig& config, std::uint32_t mss, SimTime now,
                           TcpSenderActions& out) {
  out.clear();
  TcpSenderState s = new_sender(config, 0, mss);
  s.completed = 1;  // nothing to send yet
  s.connection = TcpConnection::syn_sent;
  s.syn_sent_ps = now.ps();
  send_syn(s, false, now, out);
  return s;
}

void tcp_on_syn_ack(TcpSenderState& s, const TcpConfig& config, SimTime now,
                    TcpSenderActions& out) {
  out.clear();
  if (s.connection != TcpConnection::syn_sent) return;  // a late duplicate
  s.connection = TcpConnection::established;
  stop_timer(s);
  out.send_handshake_ack = true;
  if (s.syn_retransmissions == 0) {
    tcp_detail::take_rtt_sample(s, config, now.ps() - s.syn_sent_ps);  // RFC 6298 2.2
  } else {
    after_syn_timeout(s, config);
  }
  send_available(s, config, now, out);
}

TcpSenderState tcp_open(const TcpConfig& config, std::uint64_t bytes, std::uint32_t mss,
                        SimTime now, TcpSenderActions& out) {
  out.clear();
  TcpSenderState s = new_sender(config, bytes, mss);
  s.connection = TcpConnection::established;
  if (bytes == 0) {
    s.completed = 1;
    out.completed = true;
    return s;
  }
  send_available(s, config, now, out);
  return s;
}

void tcp_append(TcpSenderState& s, const TcpConfig& config, std::uint64_t bytes, SimTime now,
                TcpSenderActions& out) {
  out.clear();
  if (bytes == 0) return;
  s.total_bytes += bytes;
  s.completed = 0;
  send_available(s, config, now, out);
}

void tcp_on_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, bool ece, SimTime now,
                TcpSenderActions& out) {
  out.clear();
  if (uses_ns3_classic(config)) return ns3_on_ack(s, config, ack, ece, now, out);
  // Old ACKs and ACKs of data never sent are ignored (RFC 5681 section 3.2 / RFC 793).
  if (s.completed != 0 || ack < s.snd_una || ack > s.snd_max) return;
  const std::uint64_t cwnd_before = s.cwnd;
  const std::uint64_t ssthresh_before = s.ssthresh;
  if (ack == s.snd_una) {
    if (s.snd_una == s.snd_max) return;  // nothing outstanding: not a duplicate
    react_to_ecn(s, config, ece);
    on_duplicate_ack(s, config, ack, now, out);
  } else {
    on_new_ack(s, config, ack, ece, now, out);
  }
  if (s.completed == 0) send_available(s, config, now, out);
  out.cwnd_changed = s.cwnd != cwnd_before || s.ssthresh != ssthresh_before;
}

void tcp_on_timer(TcpSenderState& s, const TcpConfig& config, std::uint32_t generation, SimTime now,
                  TcpSenderActions& out) {
  out.clear();
  using tcp_detail::TimerEvent;
  const TimerEvent event = tcp_detail::classify_timer_event(
      generation, s.rto_deadline_ps, s.timer_pending_ps, s.timer_generation, now);
  if (event == TimerEvent::early) {
    arm_lazy_timer(s.rto_deadline_ps, s.timer_pending_ps, s.timer_generation, out.timer);
  } else if (event == TimerEvent::due && s.connection == TcpConnection::syn_sent) {
    on_syn_timeout(s, config, now, out);
  } else if (event == TimerEvent::due && s.completed == 0) {
    on_timeout(s, config, now, out);
  }
}

void tcp_on_ack(TcpSenderState& s, const TcpConfig& config, TcpSeq ack, bool ece,
                const TcpSackBlocks& sack, TcpRangeStore* scoreboard, SimTime now,
                TcpSenderActions& out) {
  if (scoreboard == nullptr || !uses_scoreboard(config)) {
    tcp_on_ack(s, config, ack, ece, now, out);
    return;
  }
  out.clear();
  on_ack_with_scoreboard(s, config, ack, ece, sack, *scoreboard, now, out);
}

void tcp_on_timer(TcpSenderState& s, const TcpConfig& config, std::uint32_t generation,
                  TcpRangeStore* scoreboard, SimTime now, TcpSenderActions& out) {
  const std::uint64_t timeouts_before = s.timeouts;
  const std::uint64_t pipe_before =
      scoreboard != nullptr ? ns3_pipe_with_sack(s, config, *scoreboard) : 0;
  tcp_on_timer(s, config, generation, now, out);
  if (scoreboard != nullptr && s.timeouts != timeouts_before)
    forget_scoreboard(s, config, *scoreboard, pipe_before);
}

}  // namespace netwarp::netmodels
