// ns-3.37's TcpDctcp (a TcpLinuxReno) and the ECN state TcpSocketBase keeps for it; the
// functions are named after the ns-3 methods they follow (dctcp_ns3.hpp).
#include "transport/dctcp_ns3.hpp"

#include <algorithm>

#include "transport/congestion_state.hpp"

namespace netwarp::netmodels::tcp_cc::dctcp_ns3 {

State load(const TcpSenderState& s) {
  return load_state<State>(s.congestion);
}

void store(TcpSenderState& s, const State& d) {
  store_state(s.congestion, d);
}

// DctcpAlphaOnInit; m_nextTxSequence starts at the first data byte.
void on_open(TcpSenderState& s, const TcpConfig& config) {
  State d;
  d.alpha = config.dctcp_initial_alpha;
  d.next_tx = s.snd_una;
  store(s, d);
}

// PktsAcked counts whole segments of SMSS bytes, with ECE when the socket's ECN state is
// ECN_ECE_RCVD; the first call opens a window ending at m_nextTxSequence; an ACK at or past its
// end folds the marked fraction into alpha (RFC 8257 3.3 steps 5-8) and opens the next.
void pkts_acked(TcpSenderState& s, const TcpConfig& config, std::uint32_t segments, TcpSeq ack) {
  State d = load(s);
  d.acked_bytes += segments * s.mss;
  if (d.ecn == EcnState::ece_rcvd) d.marked_bytes += segments * s.mss;
  if (d.next_seq_set == 0) {
    d.next_seq = d.next_tx;
    d.next_seq_set = 1;
  }
  if (ack >= d.next_seq) {
    const double marked =
        d.acked_bytes > 0 ? static_cast<double>(d.marked_bytes) / static_cast<double>(d.acked_bytes)
                          : 0.0;
    d.alpha = (1.0 - config.dctcp_g) * d.alpha + config.dctcp_g * marked;
    d.next_seq = d.next_tx;
    d.acked_bytes = 0;
    d.marked_bytes = 0;
  }
  store(s, d);
}

std::uint64_t ssthresh(const TcpSenderState& s) {
  const double cwnd = static_cast<double>(static_cast<std::uint32_t>(s.cwnd));
  return static_cast<std::uint32_t>((1 - load(s).alpha / 2.0) * cwnd);
}

// TcpLinuxReno::SlowStart (the segments beyond ssthresh are not carried to congestion
// avoidance) or CongestionAvoidance.
void increase_window(TcpSenderState& s, std::uint32_t segments) {
  const std::uint64_t mss = s.mss;
  if (s.cwnd < s.ssthresh) {
    if (segments >= 1) s.cwnd = std::min(s.cwnd + segments * mss, s.ssthresh);
    return;
  }
  State d = load(s);
  const auto w = std::max<std::uint32_t>(static_cast<std::uint32_t>(s.cwnd / mss), 1);
  if (d.cwnd_count >= w) {
    d.cwnd_count = 0;
    s.cwnd += mss;
  }
  d.cwnd_count += segments;
  if (d.cwnd_count >= w) {
    const std::uint32_t delta = d.cwnd_count / w;
    d.cwnd_count -= delta * w;
    s.cwnd += delta * mss;
  }
  store(s, d);
}

void on_send(TcpSenderState& s, TcpSeq seq, std::uint32_t length, bool from_retransmit,
             bool retransmission) {
  State d = load(s);
  d.next_tx = from_retransmit ? seq : seq + length;
  const bool echo_is_newer = d.has_cwr_seq == 0 || d.ecn_echo_seq > d.ecn_cwr_seq;
  if (d.ecn == EcnState::ece_rcvd && echo_is_newer && !retransmission) {
    d.ecn = EcnState::cwr_sent;
    d.ecn_cwr_seq = seq;
    d.has_cwr_seq = 1;
  }
  store(s, d);
}

void on_new_ack(TcpSenderState& s, TcpSeq ack) {
  State d = load(s);
  d.next_tx = std::max(d.next_tx, ack);
  store(s, d);
}

// ReceivedAck: an ECE on an ACK of new data is valid once per ACK number and sets
// ECN_ECE_RCVD; an ACK without ECE ends ECN_ECE_RCVD (not ECN_CWR_SENT); a duplicate with ECE
// changes nothing.
bool on_ack_ecn(TcpSenderState& s, bool is_new, bool ece, bool in_cwr) {
  State d = load(s);
  bool enter_cwr = false;
  if (is_new && ece) {
    if (d.ecn_echo_seq < s.snd_una) {
      d.ecn_echo_seq = s.snd_una;
      d.ecn = EcnState::ece_rcvd;
      enter_cwr = !in_cwr;
    }
  } else if (d.ecn == EcnState::ece_rcvd && !ece) {
    d.ecn = EcnState::idle;
  }
  store(s, d);
  return enter_cwr;
}

}  // namespace netwarp::netmodels::tcp_cc::dctcp_ns3
