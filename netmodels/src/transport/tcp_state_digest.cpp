// The digests of the TCP states: their fields in the order and widths they had when stream
// offsets were 32-bit (TcpLegacyBytes, tcp_ranges.hpp), hashed in the same pieces, so that runs
// whose connections carry under 4 GiB keep the digests recorded before offsets became 64-bit.
#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels {

namespace {

void put_connection_part(TcpLegacyBytes& b, const TcpSenderState& s) {
  b.put(s.total_bytes);
  b.put(s.mss);
  b.put_seq(s.snd_una);
  b.put_seq(s.snd_nxt);
  b.put_seq(s.snd_max);
  b.put_seq(s.recover);
  b.put(s.partial_ack_seen);
  b.put(s.reserved);
  b.put(s.cwnd);
  b.put(s.ssthresh);
  b.put(s.dupacks);
  b.put(s.in_fast_recovery);
  b.put(s.rtt_timing);
  b.put(s.has_rtt);
  b.put(s.completed);
  b.put_seq(s.rtt_seq);
  b.put_seq(s.timeout_una);
}

void put_timer_and_counter_part(TcpLegacyBytes& b, const TcpSenderState& s) {
  b.put(s.rtt_start_ps);
  b.put(s.srtt_ps);
  b.put(s.rttvar_ps);
  b.put(s.rto_ps);
  b.put(s.rto_deadline_ps);
  b.put(s.timer_pending_ps);
  b.put(s.timer_generation);
  b.put(s.backoff_count);
  b.put(s.ecn_recover);
  b.put(s.segments_sent);
  b.put(s.retransmitted_segments);
  b.put(s.duplicate_acks);
  b.put(s.fast_retransmits);
  b.put(s.timeouts);
  b.put(s.limited_transmit_bytes);
  b.put(s.connection);
  b.put(s.reserved2);
  b.put(s.syn_sent_ps);
  b.put(s.syns_sent);
  b.put(s.syn_retransmissions);
  b.put(s.limited_transmits);
}

void put_scoreboard(TcpLegacyBytes& b, const TcpScoreboardState& sb) {
  b.put(sb.sacked_bytes);
  b.put_seq(sb.high_sacked);
  b.put_seq(sb.high_rxt);
  b.put_seq(sb.rescue_rxt);
  b.put(std::uint32_t{0});  // the old layout's padding word
  b.put(sb.prr_delivered);
  b.put(sb.prr_out);
  b.put(sb.recover_fs);
  b.put(sb.sack_recoveries);
  b.put(sb.rescue_retransmits);
}

void put_ns3(TcpLegacyBytes& b, const TcpNs3State& n) {
  b.put_seq(n.sacked_end);
  b.put_seq(n.lost_end);
  b.put_seq(n.rtx_end);
  b.put(n.bytes_acked_not_processed);
  b.put(n.state);
  b.put(n.recover_active);
  b.put(std::array<std::uint8_t, 6>{});                    // the old layout's reserved bytes
  if (n.sacked_after_rtx != 0) b.put(n.sacked_after_rtx);  // SACK under sack_reading NS3 only
}

}  // namespace

void TcpSenderState::visit_bytes(engine::StateVisitor& v) const {
  TcpLegacyBytes b;
  put_connection_part(b, *this);
  put_timer_and_counter_part(b, *this);
  b.flush(v);
  if (!is_all_zero(congestion)) {
    b.put(congestion);
    b.flush(v);
  }
  put_scoreboard(b, scoreboard);
  b.flush(v);
  if (!is_all_zero(ns3)) {
    put_ns3(b, ns3);
    b.flush(v);
  }
  b.finish(v);
}

void TcpReceiverState::visit_bytes(engine::StateVisitor& v) const {
  TcpLegacyBytes b;
  b.put(total_bytes);
  b.put_seq(rcv_nxt);
  b.put(range_count);
  b.put(unacked_segments);
  b.put(timer_generation);
  b.put(timer_pending_ps);
  b.put(ack_deadline_ps);
  b.put(ce_pending);
  b.put(dctcp_ce);
  b.put(std::array<std::uint8_t, 2>{});  // the old layout's reserved bytes (now ns3_* below)
  b.put(reported_count);
  for (const TcpRange& r : reported) {
    b.put_seq(r.begin);
    b.put_seq(r.end);
  }
  b.put(discarded_segments);
  if (ce_seq != 0) b.put(ce_seq);  // dctcp_reading NS3 only: other runs keep their digests
  // delayed_ack_reading NS3 only, likewise
  if (ns3_acked != 0 || ns3_ack_reserved != 0 || ns3_prior_rcv_nxt != 0) {
    b.put(ns3_acked);
    b.put(ns3_ack_reserved);
    b.put_seq(ns3_prior_rcv_nxt);
  }
  b.finish(v);
}

}  // namespace netwarp::netmodels
