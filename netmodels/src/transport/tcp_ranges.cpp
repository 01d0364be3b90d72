// Range arithmetic over a TcpRangeStore (tcp_ranges.hpp).
#include "netwarp/netmodels/tcp_ranges.hpp"

#include <algorithm>

namespace netwarp::netmodels {

std::optional<TcpRange> tcp_range_containing(const TcpRangeStore& store, TcpSeq seq) {
  const auto below = store.last_before(seq + 1);
  if (below && below->end > seq) return below;
  return std::nullopt;
}

bool tcp_range_is_new(const TcpRangeStore& store, TcpRange range) {
  const auto below = store.last_before(range.begin + 1);
  if (below && below->end >= range.begin) return false;
  const auto above = store.first_at_or_after(range.begin);
  return !(above && above->begin <= range.end);
}

TcpRangeInsert tcp_insert_range(TcpRangeStore& store, TcpRange range) {
  TcpRangeInsert result;
  TcpRange merged = range;
  std::uint64_t absorbed_bytes = 0;
  std::int32_t absorbed = 0;
  // A range that begins at or before `begin` and reaches it.
  if (const auto below = store.last_before(range.begin + 1); below && below->end >= range.begin) {
    merged.begin = below->begin;
    merged.end = std::max(merged.end, below->end);
    absorbed_bytes += below->length();
    ++absorbed;
    store.erase(below->begin);
  }
  // Ranges that begin inside or right after it.
  for (auto next = store.first_at_or_after(merged.begin); next && next->begin <= merged.end;
       next = store.first_at_or_after(merged.begin)) {
    merged.end = std::max(merged.end, next->end);
    absorbed_bytes += next->length();
    ++absorbed;
    store.erase(next->begin);
  }
  store.put(merged);
  result.merged = merged;
  result.added_bytes = merged.length() - absorbed_bytes;
  result.range_delta = 1 - absorbed;
  return result;
}

TcpRangeTrim tcp_trim_ranges_below(TcpRangeStore& store, TcpSeq seq) {
  TcpRangeTrim trim;
  for (auto r = store.last_before(seq); r; r = store.last_before(seq)) {
    store.erase(r->begin);
    trim.removed_bytes += std::min(r->end, seq) - r->begin;
    if (r->end > seq) {
      store.put(TcpRange{seq, r->end});
    } else {
      ++trim.removed_ranges;
    }
  }
  return trim;
}

std::optional<TcpRange> TcpRangeMap::first_at_or_after(TcpSeq seq) const {
  const auto it = ranges_.lower_bound(seq);
  if (it == ranges_.end()) return std::nullopt;
  return TcpRange{it->first, it->second};
}

std::optional<TcpRange> TcpRangeMap::last_before(TcpSeq seq) const {
  auto it = ranges_.lower_bound(seq);
  if (it == ranges_.begin()) return std::nullopt;
  --it;
  return TcpRange{it->first, it->second};
}

}  // namespace netwarp::netmodels
