// TCP receiver as a pure state machine: cumulative ACKs, out-of-order data kept as at most
// TcpReceiverState::kMaxRanges sorted, disjoint, non-touching byte ranges, and the ACK policy of
// RFC 5681 section 4.2 / RFC 1122 4.2.3.2: without delayed ACK every segment is acknowledged;
// with it every second in-order segment, and at once for out-of-order, duplicate or
// gap-filling segments, else after delayed_ack_timeout (a lazy timer, tcp_timer.hpp). A
// CE-marked segment makes the next ACK carry ECE (RFC 3168 section 6.1.3, simplified: no CWR);
// with DCTCP, ECE echoes the CE state of the data exactly (RFC 8257 section 3.2).
#include <algorithm>
#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"
#include "transport/tcp_timer.hpp"

namespace netwarp::netmodels {
namespace {

void send_ack(TcpReceiverState& r, TcpReceiverActions& out) {
  out.send_ack = true;
  out.ack = r.rcv_nxt;
  out.ece = r.ce_pending != 0 || r.dctcp_ce != 0;
  r.ce_pending = 0;
  r.unacked_segments = 0;
  r.ack_deadline_ps = -1;  // a live timer event finds nothing due
}

void remove_ranges(TcpReceiverState& r, std::uint32_t first, std::uint32_t count) {
  for (std::uint32_t i = first; i + count < r.range_count; ++i) {
    r.range_begin[i] = r.range_begin[i + count];
    r.range_end[i] = r.range_end[i + count];
  }
  for (std::uint32_t i = r.range_count - count; i < r.range_count; ++i) {
    r.range_begin[i] = 0;
    r.range_end[i] = 0;  // keeps unused slots zero, so equal states hash equal
  }
  r.range_count -= count;
}

// Stores [begin, end) above rcv_nxt, merged with every range it overlaps or touches. Returns
// false (nothing stored) if that would need more than kMaxRanges ranges.
bool store_range(TcpReceiverState& r, std::uint32_t begin, std::uint32_t end) {
  std::uint32_t first = 0;
  while (first < r.range_count && r.range_end[first] < begin) ++first;
  std::uint32_t last = first;  // one past the ranges merged with [begin, end)
  while (last < r.range_count && r.range_begin[last] <= end) ++last;
  if (last == first) {
    if (r.range_count == TcpReceiverState::kMaxRanges) return false;
    for (std::uint32_t i = r.range_count; i > first; --i) {
      r.range_begin[i] = r.range_begin[i - 1];
      r.range_end[i] = r.range_end[i - 1];
    }
    ++r.range_count;
    r.range_begin[first] = begin;
    r.range_end[first] = end;
    return true;
  }
  r.range_begin[first] = std::min(begin, r.range_begin[first]);
  r.range_end[first] = std::max(end, r.range_end[last - 1]);
  remove_ranges(r, first + 1, last - first - 1);
  return true;
}

// Moves rcv_nxt to `end` and over every stored range it now reaches.
void advance(TcpReceiverState& r, std::uint32_t end) {
  r.rcv_nxt = std::max(r.rcv_nxt, end);
  std::uint32_t reached = 0;
  while (reached < r.range_count && r.range_begin[reached] <= r.rcv_nxt) {
    r.rcv_nxt = std::max(r.rcv_nxt, r.range_end[reached]);
    ++reached;
  }
  remove_ranges(r, 0, reached);
}

// In-order data with no hole above: acknowledge every second segment (RFC 5681 4.2), else
// leave the ACK to the timer, due delayed_ack_timeout after the first unacknowledged segment.
void delay_ack(TcpReceiverState& r, const TcpConfig& config, SimTime now, TcpReceiverActions& out) {
  ++r.unacked_segments;
  if (r.unacked_segments >= 2) {
    send_ack(r, out);
    return;
  }
  r.ack_deadline_ps = (now + config.delayed_ack_timeout).ps();
  tcp_detail::arm_lazy_timer(r.ack_deadline_ps, r.timer_pending_ps, r.timer_generation, out.timer);
}

// RFC 8257 3.2: ECE = DCTCP.CE, the CE mark of the latest data. When the mark flips while an ACK
// is delayed, that ACK leaves now, with the old state, so each ACK covers data of one state. (A
// segment that itself needs an immediate ACK then gets it instead, with the new state.)
void track_dctcp_ce(TcpReceiverState& r, bool ce, TcpReceiverActions& out) {
  const std::uint8_t state = ce ? 1 : 0;
  if (state == r.dctcp_ce) return;
  if (r.unacked_segments > 0) send_ack(r, out);
  r.dctcp_ce = state;
}

}  // namespace

TcpReceiverState tcp_accept(std::uint64_t total_bytes) {
  TcpReceiverState r;
  r.total_bytes = total_bytes;
  return r;
}

void tcp_on_segment(TcpReceiverState& r, const TcpConfig& config, std::uint32_t seq,
                    std::uint32_t length, bool ce, SimTime now, TcpReceiverActions& out) {
  out.clear();
  if (config.congestion_control == CongestionControl::dctcp) {
    track_dctcp_ce(r, ce, out);
  } else if (ce) {
    r.ce_pending = 1;
  }
  const std::uint32_t end = seq + length;
  if (end <= r.rcv_nxt) {  // duplicate: ACK at once so the sender learns what arrived
    send_ack(r, out);
    return;
  }
  if (seq > r.rcv_nxt) {  // out of order: an immediate duplicate ACK (RFC 5681 4.2)
    store_range(r, seq, end);
    send_ack(r, out);
    return;
  }
  const std::uint32_t before = r.rcv_nxt;
  const bool fills_gap = r.range_count > 0;
  advance(r, end);
  out.delivered = r.rcv_nxt - before;
  if (!config.delayed_ack || fills_gap) {
    send_ack(r, out);
  } else {
    delay_ack(r, config, now, out);
  }
}

void tcp_on_delayed_ack_timer(TcpReceiverState& r, const TcpConfig& /*config*/,
                              std::uint32_t generation, SimTime now, TcpReceiverActions& out) {
  out.clear();
  using tcp_detail::TimerEvent;
  const TimerEvent event = tcp_detail::classify_timer_event(
      generation, r.ack_deadline_ps, r.timer_pending_ps, r.timer_generation, now);
  if (event == TimerEvent::early) {
    tcp_detail::arm_lazy_timer(r.ack_deadline_ps, r.timer_pending_ps, r.timer_generation,
                               out.timer);
  } else if (event == TimerEvent::due) {
    send_ack(r, out);
  }
}

}  // namespace netwarp::netmodels
