// TCP receiver as a pure state machine: cumulative ACKs, out-of-order data kept as sorted,
// disjoint, non-touching byte ranges in a TcpRangeStore (unlimited, or capped by
// max_ooo_ranges with the discards counted), SACK blocks in the order of RFC 2018 section 4,
// and the ACK policy of RFC 5681 section 4.2 / RFC 1122 4.2.3.2: without delayed ACK every
// segment is acknowledged; with it every second in-order segment, and at once for
// out-of-order, duplicate or gap-filling segments, else after delayed_ack_timeout (a lazy
// timer, tcp_timer.hpp). A CE-marked segment makes the next ACK carry ECE (RFC 3168 section
// 6.1.3, simplified: no CWR); with DCTCP, ECE echoes the CE state of the data exactly
// (RFC 8257 section 3.2).
#include <algorithm>
#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"
#include "transport/tcp_timer.hpp"

namespace netwarp::netmodels {
namespace {

bool has_block(const TcpSackBlocks& blocks, TcpRange range) {
  for (std::uint32_t i = 0; i < blocks.count; ++i)
    if (blocks.block[i] == range) return true;
  return false;
}

void add_block(TcpSackBlocks& blocks, TcpRange range) {
  if (blocks.count < kRfcSackBlocks && !has_block(blocks, range))
    blocks.block[blocks.count++] = range;
}

// RFC 2018 section 4: the first block holds the segment that triggered this ACK (`newest`,
// when it was stored), then the most recently reported blocks that still exist, as they are
// now (a reported block may since have merged into a larger one). Room left over takes the
// lowest unreported ranges, so that as many distinct blocks as possible go out.
TcpSackBlocks choose_sack_blocks(const TcpReceiverState& r, const TcpRangeStore& ooo,
                                 const TcpRange* newest) {
  TcpSackBlocks blocks;
  if (r.range_count == 0) return blocks;
  if (newest != nullptr) add_block(blocks, *newest);
  for (std::uint32_t i = 0; i < r.reported_count; ++i) {
    const TcpRange old = r.reported[i];
    if (old.end <= r.rcv_nxt) continue;
    if (const auto now = tcp_range_containing(ooo, std::max(old.begin, r.rcv_nxt)))
      add_block(blocks, *now);
  }
  for (auto range = ooo.first_at_or_after(r.rcv_nxt); range && blocks.count < kRfcSackBlocks;
       range = ooo.first_at_or_after(range->end))
    add_block(blocks, *range);
  return blocks;
}

// --- ns-3.37's SACK list (TcpRxBuffer, sack_reading NS3), kept in `reported` --------------

bool reads_sack_as_ns3(const TcpConfig& config) {
  return config.sack && config.sack_reading == SackReading::ns3;
}

// TcpRxBuffer::Add's trimming: the part of [seq, end) it stores, empty when every byte is
// held already (segments arrive whole, so stored ranges stand for ns-3's stored packets).
TcpRange ns3_stored_part(const TcpRangeStore& ooo, TcpSeq seq, TcpSeq end) {
  TcpRange part{seq, end};
  auto range = tcp_range_containing(ooo, seq);
  if (!range) range = ooo.first_at_or_after(seq);
  for (; range && range->begin <= part.end; range = ooo.first_at_or_after(range->end)) {
    if (range->end <= part.begin) continue;
    if (range->begin > part.begin && range->end < part.end) continue;  // inside: replaced
    if (range->begin <= part.begin) part.begin = range->end;
    if (range->end >= part.end) part.end = range->begin;
  }
  if (part.begin >= part.end) return TcpRange{};
  return part;
}

// UpdateSackList: the new block first, merged with every block it touches (restarting after
// each merge), and only the first four kept: a block pushed out is forgotten for good.
void ns3_update_sack_list(TcpReceiverState& r, TcpRange block) {
  TcpRange list[kMaxSackBlocks + 1];
  std::uint32_t n = 0;
  list[n++] = block;
  for (std::uint32_t i = 0; i < r.reported_count; ++i) list[n++] = r.reported[i];
  for (std::uint32_t i = 1; i < n; ++i) {
    const TcpRange first = list[0];
    const TcpRange other = list[i];
    if (first.begin != other.end && first.end != other.begin) continue;
    list[0] = TcpRange{std::min(first.begin, other.begin), std::max(first.end, other.end)};
    std::copy(list + i + 1, list + n, list + i);
    --n;
    i = 0;  // the loop's ++i looks at the second block again
  }
  r.reported_count = std::min(n, kMaxSackBlocks);
  std::copy(list, list + r.reported_count, r.reported);
  std::fill(r.reported + r.reported_count, r.reported + kMaxSackBlocks, TcpRange{});
}

// ClearSackList: blocks wholly below the cumulative ACK go.
void ns3_clear_sack_list(TcpReceiverState& r) {
  std::uint32_t kept = 0;
  for (std::uint32_t i = 0; i < r.reported_count; ++i)
    if (r.reported[i].end > r.rcv_nxt) r.reported[kept++] = r.reported[i];
  std::fill(r.reported + kept, r.reported + kMaxSackBlocks, TcpRange{});
  r.reported_count = kept;
}

TcpSackBlocks ns3_sack_blocks(const TcpReceiverState& r) {
  TcpSackBlocks blocks;
  blocks.count = r.reported_count;
  std::copy(r.reported, r.reported + r.reported_count, blocks.block);
  return blocks;
}

void send_ack(TcpReceiverState& r, const TcpConfig& config, const TcpRangeStore* ooo,
              const TcpRange* newest, TcpReceiverActions& out) {
  out.send_ack = true;
  out.ack = r.rcv_nxt;
  out.ece = r.ce_pending != 0 || r.dctcp_ce != 0;
  if (reads_sack_as_ns3(config)) {
    out.sack = ns3_sack_blocks(r);
  } else if (config.sack && ooo != nullptr) {
    out.sack = choose_sack_blocks(r, *ooo, newest);
    r.reported_count = out.sack.count;
    for (std::uint32_t i = 0; i < kMaxSackBlocks; ++i)
      r.reported[i] = i < out.sack.count ? out.sack.block[i] : TcpRange{};
  }
  r.ce_pending = 0;
  r.unacked_segments = 0;
  r.ack_deadline_ps = -1;  // a live timer event finds nothing due
  if (config.delayed_ack_reading == DelayedAckReading::ns3) r.ns3_acked = 1;
}

// Stores an out-of-order segment unless the cap forbids one more range. Returns the range
// that now holds it, or nothing if it was discarded.
std::optional<TcpRange> store_out_of_order(TcpReceiverState& r, const TcpConfig& config,
                                           TcpRangeStore& ooo, TcpRange segment) {
  if (config.max_ooo_ranges != 0 && r.range_count >= config.max_ooo_ranges &&
      tcp_range_is_new(ooo, segment)) {
    ++r.discarded_segments;
    return std::nullopt;
  }
  const TcpRangeInsert inserted = tcp_insert_range(ooo, segment);
  r.range_count =
      static_cast<std::uint32_t>(static_cast<std::int64_t>(r.range_count) + inserted.range_delta);
  return inserted.merged;
}

// Moves rcv_nxt to `end` and over every stored range it now reaches.
void advance(TcpReceiverState& r, TcpRangeStore& ooo, TcpSeq end) {
  r.rcv_nxt = std::max(r.rcv_nxt, end);
  for (auto next = ooo.first_at_or_after(0); next && next->begin <= r.rcv_nxt;
       next = ooo.first_at_or_after(0)) {
    r.rcv_nxt = std::max(r.rcv_nxt, next->end);
    ooo.erase(next->begin);
    --r.range_count;
  }
}

bool delays_as_ns3(const TcpConfig& config) {
  return config.delayed_ack_reading == DelayedAckReading::ns3;
}

// TcpDctcp's m_delayedAckReserved follows the CA_EVENT_DELAYED_ACK / NON_DELAYED_ACK events
// of ReceivedData and DelAckTimeout; ACKs sent without such an event leave it as it is.
void ns3_reserve_ack(TcpReceiverState& r, const TcpConfig& config, bool reserved) {
  if (delays_as_ns3(config) && config.congestion_control == CongestionControl::dctcp)
    r.ns3_ack_reserved = reserved ? 1 : 0;
}

// In-order data with no hole above: acknowledge every second segment (RFC 5681 4.2), else
// leave the ACK to the timer, due delayed_ack_timeout after the first unacknowledged segment.
// ns-3 sets m_delAckCount to m_delAckMaxCount when the connection opens, so its first data
// segment is acknowledged at once (ProcessSynRcvd).
void delay_ack(TcpReceiverState& r, const TcpConfig& config, SimTime now, TcpReceiverActions& out) {
  ++r.unacked_segments;
  const bool first_as_ns3 = delays_as_ns3(config) && r.ns3_acked == 0;
  if (r.unacked_segments >= 2 || first_as_ns3) {
    ns3_reserve_ack(r, config, false);
    send_ack(r, config, nullptr, nullptr, out);
    return;
  }
  ns3_reserve_ack(r, config, true);
  r.ack_deadline_ps = (now + config.delayed_ack_timeout).ps();
  tcp_detail::arm_lazy_timer(r.ack_deadline_ps, r.timer_pending_ps, r.timer_generation, out.timer);
}

// RFC 8257 3.2: ECE = DCTCP.CE, the CE mark of the latest data. When the mark flips while an ACK
// is delayed, that ACK leaves now, with the old state, so each ACK covers data of one state. (A
// segment that itself needs an immediate ACK then gets it instead, with the new state.)
void track_dctcp_ce(TcpReceiverState& r, const TcpConfig& config, bool ce,
                    TcpReceiverActions& out) {
  const std::uint8_t state = ce ? 1 : 0;
  if (state == r.dctcp_ce) return;
  if (r.unacked_segments > 0) send_ack(r, config, nullptr, nullptr, out);  // no hole is open
  r.dctcp_ce = state;
}

// TcpDctcp::CeState0to1 / CeState1to0, called for every ECT segment before it is taken in: on
// a change of state with m_delayedAckReserved set, an ACK of m_priorRcvNxt (rcv_nxt when the
// previous segment arrived, so it may repeat the last ACK) with the old state's ECE; it cancels
// the delayed ACK like any SendEmptyPacket. The segment's own ACK, if any, follows it.
void track_dctcp_ce_as_ns3(TcpReceiverState& r, const TcpConfig& config, bool ce,
                           TcpReceiverActions& out) {
  const std::uint8_t state = ce ? 1 : 0;
  if (state != r.dctcp_ce && r.ns3_ack_reserved != 0) {
    const TcpSeq rcv_nxt = r.rcv_nxt;
    r.rcv_nxt = r.ns3_prior_rcv_nxt;
    send_ack(r, config, nullptr, nullptr, out);
    r.rcv_nxt = rcv_nxt;
    out.send_prior_ack = true;
    out.prior_ack = out.ack;
    out.prior_ece = out.ece;
    out.prior_sack = out.sack;
    out.send_ack = false;
    out.ack = 0;
    out.ece = false;
    out.sack = TcpSackBlocks{};
  }
  r.ns3_prior_rcv_nxt = r.rcv_nxt;
  r.dctcp_ce = state;
}

// TcpSocketBase::ForwardUp with dctcp_reading NS3: a CE mark counts only above the highest
// sequence number whose mark counted (m_ecnCESeq; ns-3 numbers data from 1), so a marked
// retransmission below it is echoed as unmarked.
bool ns3_counts_ce(TcpReceiverState& r, const TcpConfig& config, TcpSeq seq, bool ce) {
  if (!ce || config.dctcp_reading != DctcpReading::ns3) return ce;
  const auto ns3_seq = static_cast<std::uint32_t>(seq + 1);
  if (ns3_seq <= r.ce_seq) return false;
  r.ce_seq = ns3_seq;
  return true;
}

}  // namespace

TcpReceiverState tcp_accept(std::uint64_t total_bytes) {
  TcpReceiverState r;
  r.total_bytes = total_bytes;
  return r;
}

void tcp_on_segment(TcpReceiverState& r, const TcpConfig& config, TcpRangeStore& ooo, TcpSeq seq,
                    std::uint32_t length, bool ce, SimTime now, TcpReceiverActions& out) {
  out.clear();
  const TcpSeq end = seq + length;
  if (end < r.rcv_nxt && config.congestion_control == CongestionControl::dctcp &&
      config.dctcp_reading == DctcpReading::ns3) {
    // TcpSocketBase::IsValidTcpSegment: a segment wholly below rcv_nxt is out of range and gets
    // a plain ACK before ForwardUp looks at its CE mark, so neither the mark nor DCTCP's CE
    // state moves and the ACK carries no ECE. (One that ends at rcv_nxt is taken in as usual.)
    send_ack(r, config, &ooo, nullptr, out);
    out.ece = false;
    return;
  }
  if (config.congestion_control == CongestionControl::dctcp && delays_as_ns3(config)) {
    track_dctcp_ce_as_ns3(r, config, ns3_counts_ce(r, config, seq, ce), out);
  } else if (config.congestion_control == CongestionControl::dctcp) {
    track_dctcp_ce(r, config, ns3_counts_ce(r, config, seq, ce), out);
  } else if (ce) {
    r.ce_pending = 1;
  }
  if (end <= r.rcv_nxt) {  // duplicate: ACK at once so the sender learns what arrived
    send_ack(r, config, &ooo, nullptr, out);
    return;
  }
  if (seq > r.rcv_nxt) {  // out of order: an immediate duplicate ACK (RFC 5681 4.2)
    const bool ns3_part = reads_sack_as_ns3(config) || delays_as_ns3(config);
    const TcpRange part = ns3_part ? ns3_stored_part(ooo, seq, end) : TcpRange{};
    const auto stored = store_out_of_order(r, config, ooo, TcpRange{seq, end});
    if (stored && part.end != 0 && reads_sack_as_ns3(config)) ns3_update_sack_list(r, part);
    if (part.end != 0) ns3_reserve_ack(r, config, false);  // else TcpRxBuffer::Add failed
    send_ack(r, config, &ooo, stored ? &*stored : nullptr, out);
    return;
  }
  const TcpSeq before = r.rcv_nxt;
  const bool fills_gap = r.range_count > 0;
  advance(r, ooo, end);
  if (reads_sack_as_ns3(config)) ns3_clear_sack_list(r);
  out.delivered = r.rcv_nxt - before;
  if (!config.delayed_ack || fills_gap) {
    ns3_reserve_ack(r, config, false);
    send_ack(r, config, &ooo, nullptr, out);
  } else {
    delay_ack(r, config, now, out);
  }
}

bool tcp_on_handshake_ack(TcpReceiverState& r, const TcpConfig& config, bool ce) {
  if (!ce || !tcp_control_is_ect(config) || r.ce_seq >= 1) return false;
  r.ce_seq = 1;
  return true;
}

void tcp_on_delayed_ack_timer(TcpReceiverState& r, const TcpConfig& config,
                              std::uint32_t generation, SimTime now, TcpReceiverActions& out) {
  out.clear();
  using tcp_detail::TimerEvent;
  const TimerEvent event = tcp_detail::classify_timer_event(
      generation, r.ack_deadline_ps, r.timer_pending_ps, r.timer_generation, now);
  if (event == TimerEvent::early) {
    tcp_detail::arm_lazy_timer(r.ack_deadline_ps, r.timer_pending_ps, r.timer_generation,
                               out.timer);
  } else if (event == TimerEvent::due) {
    ns3_reserve_ack(r, config, true);            // DelAckTimeout: CA_EVENT_DELAYED_ACK
    send_ack(r, config, nullptr, nullptr, out);  // no hole is open: no SACK blocks
  }
}

}  // namespace netwarp::netmodels
