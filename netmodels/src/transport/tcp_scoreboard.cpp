// The SACK scoreboard of RFC 6675 section 4 (tcp_sack.hpp). The RFC states SetPipe() octet by
// octet; here it is summed over ranges: IsLost() is monotone in the sequence number (more is
// SACKed above a lower octet), so one boundary splits the unsacked octets into lost ones below
// and ones still in flight above.
#include <algorithm>

#include "netwarp/netmodels/tcp_sack.hpp"
#include "transport/tcp_sack_steps.hpp"

namespace netwarp::netmodels {

std::uint64_t tcp_sacked_within(const TcpRangeStore& sacked, TcpSeq begin, TcpSeq end) {
  if (end <= begin) return 0;
  std::uint64_t bytes = 0;
  std::optional<TcpRange> r = tcp_range_containing(sacked, begin);
  if (!r) r = sacked.first_at_or_after(begin);
  for (; r && r->begin < end; r = sacked.first_at_or_after(r->end))
    bytes += std::min(r->end, end) - std::max(r->begin, begin);
  return bytes;
}

std::uint64_t tcp_unsacked_within(const TcpRangeStore& sacked, TcpSeq begin, TcpSeq end) {
  if (end <= begin) return 0;
  return end - begin - tcp_sacked_within(sacked, begin, end);
}

namespace {

// The first byte at or after `seq` that is not SACKed.
TcpSeq first_unsacked(const TcpRangeStore& sacked, TcpSeq seq) {
  const auto r = tcp_range_containing(sacked, seq);
  return r ? r->end : seq;
}

// A segment of up to one SMSS from `begin`, ending before the next SACKed range.
TcpRange hole_segment(const TcpScoreboardView& v, TcpSeq begin) {
  TcpSeq end = std::min(v.snd_max, begin + v.mss);
  if (const auto next = v.sacked.first_at_or_after(begin)) end = std::min(end, next->begin);
  return TcpRange{begin, end};
}

// Rule 4: one segment ending at the highest unsacked byte below snd_max.
TcpRange rescue_segment(const TcpScoreboardView& v) {
  TcpSeq end = v.snd_max;
  if (const auto top = v.sacked.last_before(v.snd_max); top && top->end >= v.snd_max)
    end = top->begin;
  TcpSeq hole_begin = v.snd_una;
  if (const auto below = v.sacked.last_before(end)) hole_begin = std::max(hole_begin, below->end);
  const TcpSeq begin = end - std::min<TcpSeq>(end - hole_begin, v.mss);
  return TcpRange{begin, end};
}

}  // namespace

std::uint64_t tcp_scoreboard_update(TcpScoreboardState& sb, TcpRangeStore& sacked,
                                    const TcpSackBlocks& blocks, TcpSeq snd_una, TcpSeq snd_max) {
  std::uint64_t added = 0;
  for (std::uint32_t i = 0; i < std::min(blocks.count, kMaxSackBlocks); ++i) {
    const TcpRange b = blocks.block[i];
    const TcpRange clipped{std::max(b.begin, snd_una), std::min(b.end, snd_max)};
    if (b.end <= b.begin || clipped.end <= clipped.begin) continue;
    added += tcp_insert_range(sacked, clipped).added_bytes;
    sb.high_sacked = std::max(sb.high_sacked, clipped.end);
  }
  sb.sacked_bytes += added;
  return added;
}

std::uint64_t tcp_scoreboard_advance(TcpScoreboardState& sb, TcpRangeStore& sacked, TcpSeq ack) {
  const std::uint64_t covered = tcp_trim_ranges_below(sacked, ack).removed_bytes;
  sb.sacked_bytes -= covered;
  if (sb.high_sacked <= ack) sb.high_sacked = 0;
  return covered;
}

void tcp_scoreboard_clear(TcpScoreboardState& sb, TcpRangeStore& sacked) {
  tcp_trim_ranges_below(sacked, UINT64_MAX);
  sb.sacked_bytes = 0;
  sb.high_sacked = 0;
}

TcpSeq tcp_lost_below(const TcpScoreboardView& v) {
  const std::uint64_t byte_limit = std::uint64_t{v.dupack_threshold - 1} * v.mss;
  std::uint64_t bytes = 0;
  std::uint32_t ranges = 0;
  for (auto r = v.sacked.last_before(v.snd_max); r && r->end > v.snd_una;
       r = v.sacked.last_before(r->begin)) {
    bytes += r->length();
    ++ranges;
    if (ranges >= v.dupack_threshold || bytes > byte_limit) return std::max(r->begin, v.snd_una);
  }
  return v.snd_una;
}

bool tcp_is_lost(const TcpScoreboardView& v, TcpSeq seq) {
  return seq < tcp_lost_below(v);
}

std::uint64_t tcp_set_pipe(const TcpScoreboardView& v, TcpSeq high_rxt) {
  const TcpSeq lost_below = tcp_lost_below(v);
  const TcpSeq retransmitted_end = std::min(std::max(high_rxt, v.snd_una), v.snd_max);
  return tcp_unsacked_within(v.sacked, lost_below, v.snd_max) +
         tcp_unsacked_within(v.sacked, v.snd_una, retransmitted_end);
}

TcpNextSegment tcp_next_segment(const TcpScoreboardView& v, const TcpScoreboardState& sb,
                                bool may_send_new) {
  // Candidates for rules 1 and 3: unsacked, above HighRxt (1.a), below the highest SACKed
  // octet (1.b).
  const TcpSeq s2 = first_unsacked(v.sacked, std::max(v.snd_una, sb.high_rxt));
  const bool below_sacked = s2 < sb.high_sacked;
  if (below_sacked && s2 < tcp_lost_below(v)) return {1, hole_segment(v, s2)};  // (1.c)
  if (may_send_new) return {2, TcpRange{v.snd_max, v.snd_max + v.mss}};
  if (v.ns3_next_seg)
    return s2 < v.snd_max ? TcpNextSegment{3, hole_segment(v, s2)} : TcpNextSegment{};
  if (below_sacked) return {3, hole_segment(v, s2)};
  // Rule 4: once per recovery, while HighACK > RescueRxt (or it is undefined).
  const bool has_unsacked = tcp_unsacked_within(v.sacked, v.snd_una, v.snd_max) > 0;
  const bool rescue_allowed = sb.rescue_rxt == 0 || v.snd_una > sb.rescue_rxt;
  if (has_unsacked && rescue_allowed) return {4, rescue_segment(v)};
  return {};
}

}  // namespace netwarp::netmodels
