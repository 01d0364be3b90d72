// DCTCP sender, RFC 8257 section 3.3: per observation window (about one RTT, from snd_una to
// the snd_nxt at its start) the bytes acknowledged and the bytes acknowledged with ECE give the
// marked fraction M, folded into alpha with gain g; an ECN echo cuts cwnd to cwnd (1 - alpha/2),
// at most once per window of data as RFC 3168 (the sender gates that). alpha starts at
// TcpConfig::dctcp_initial_alpha, by default 1, the conservative choice (RFC 8257 section 4
// leaves the initial value to the implementation).
#include "transport/dctcp.hpp"

#include <algorithm>

#include "transport/congestion_state.hpp"

namespace netwarp::netmodels::tcp_cc::dctcp {

double updated_alpha(double alpha, std::uint64_t bytes_marked, std::uint64_t bytes_acked,
                     double g) {
  const double marked_fraction =
      bytes_acked == 0 ? 0.0 : static_cast<double>(bytes_marked) / static_cast<double>(bytes_acked);
  return alpha * (1 - g) + g * marked_fraction;
}

// Step 4: an ACK at or below WindowEnd only counts; past it the window closes (steps 5-8).
void observe_ack(State& d, std::uint64_t acked, bool ece, TcpSeq ack, TcpSeq snd_nxt, double g) {
  d.bytes_acked += acked;
  if (ece) d.bytes_marked += acked;
  if (ack <= d.window_end) return;
  d.alpha = updated_alpha(d.alpha, d.bytes_marked, d.bytes_acked, g);
  d.window_end = snd_nxt;
  d.bytes_acked = 0;
  d.bytes_marked = 0;
}

std::uint64_t reduced_cwnd(std::uint64_t cwnd, double alpha, std::uint32_t mss) {
  const auto reduced = static_cast<std::uint64_t>(static_cast<double>(cwnd) * (1 - alpha / 2));
  return std::max(reduced, 2 * std::uint64_t{mss});
}

double alpha(const TcpSenderState& s) {
  return load_state<State>(s.congestion).alpha;
}

void on_open(TcpSenderState& s, const TcpConfig& config) {
  State d;
  d.alpha = config.dctcp_initial_alpha;
  d.window_end = s.snd_una;
  store_state(s.congestion, d);
}

void on_data_acked(TcpSenderState& s, const TcpConfig& config, std::uint64_t acked, bool ece) {
  State d = load_state<State>(s.congestion);
  observe_ack(d, acked, ece, s.snd_una, s.snd_nxt, config.dctcp_g);
  store_state(s.congestion, d);
}

// ssthresh follows cwnd down, as RFC 3168 6.1.2 does for its halving.
void on_ecn_echo(TcpSenderState& s) {
  s.cwnd = reduced_cwnd(s.cwnd, alpha(s), s.mss);
  s.ssthresh = s.cwnd;
}

}  // namespace netwarp::netmodels::tcp_cc::dctcp
