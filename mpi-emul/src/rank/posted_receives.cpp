// PostedReceives: bucket heads hashed, the rest of each bucket ordered (match_queues.hpp).
#include <algorithm>

#include "rank/match_queues.hpp"

namespace netwarp::mpiemul {

namespace {

constexpr std::int64_t kField = std::int64_t{1} << 24;

bool fits(std::int32_t v) {
  return v >= -1 && std::int64_t{v} + 1 < kField;
}

}  // namespace

std::optional<std::uint64_t> PostedReceives::pack(const MatchKey& key) {
  if (!fits(key.src) || !fits(key.tag)) return std::nullopt;
  return std::uint64_t{key.context} << 48 | static_cast<std::uint64_t>(key.src + 1) << 24 |
         static_cast<std::uint64_t>(key.tag + 1);
}

MatchKey PostedReceives::unpack(std::uint64_t packed, std::uint64_t seq) {
  const auto field = [&](int shift) {
    return static_cast<std::int32_t>((packed >> shift) & (kField - 1)) - 1;
  };
  return MatchKey{static_cast<std::uint16_t>(packed >> 48), 0, field(24), field(0), 0, seq};
}

void PostedReceives::post(const Op& recv, std::uint32_t recv_op, std::uint64_t seq,
                          engine::EventCtx& ctx) {
  const MatchKey key{recv.comm, 0, recv.peer, recv.tag, 0, seq};
  if (recv.peer == kAnySource || recv.tag == kAnyTag) ctx.add(wildcards_, 1);
  const auto packed = pack(key);
  if (!packed) {
    ctx.put(rest_, key, recv_op);
    return;
  }
  const Head* head = heads_.find(*packed);
  if (head == nullptr) {
    ctx.put(heads_, *packed, Head{seq, recv_op, 0});
    return;
  }
  if (head->seq < seq) {
    ctx.put(rest_, key, recv_op);
    return;
  }
  // Posted with an older sequence number than the bucket's head: it becomes the head.
  const Head old = *head;
  ctx.put(rest_, unpack(*packed, old.seq), old.recv_op);
  ctx.put(heads_, *packed, Head{seq, recv_op, 0});
}

std::optional<std::uint32_t> PostedReceives::take(std::uint16_t context, RankId src,
                                                  std::int32_t tag, engine::EventCtx& ctx) {
  const auto s = static_cast<std::int32_t>(src);
  const MatchKey buckets[4] = {{context, 0, s, tag, 0, 0},
                               {context, 0, s, kAnyTag, 0, 0},
                               {context, 0, kAnySource, tag, 0, 0},
                               {context, 0, kAnySource, kAnyTag, 0, 0}};
  std::optional<Entry> best;
  // Without wildcard receives posted only the exact bucket can hold a match.
  const std::size_t searched = wildcards_.get() == 0 ? 1 : 4;
  for (const MatchKey& bucket : std::span(buckets, searched)) {
    const std::optional<Entry> found = first(bucket);
    if (found && (!best || found->first.seq < best->first.seq)) best = found;
  }
  if (!best) return std::nullopt;
  remove_first(best->first, ctx);
  if (best->first.src == kAnySource || best->first.tag == kAnyTag) ctx.add(wildcards_, -1);
  return best->second;
}

std::optional<PostedReceives::Entry> PostedReceives::first_in_rest(const MatchKey& bucket) const {
  if (rest_.empty()) return std::nullopt;
  const MatchKey from{bucket.context, 0, bucket.src, bucket.tag, 0, 0};
  auto it = rest_.lower_bound(from);
  if (it == rest_.end() || !same_bucket(it->first, bucket)) return std::nullopt;
  return *it;
}

std::optional<PostedReceives::Entry> PostedReceives::first(const MatchKey& bucket) const {
  const auto packed = pack(bucket);
  if (!packed) return first_in_rest(bucket);
  const Head* head = heads_.find(*packed);
  if (head == nullptr) return std::nullopt;
  return Entry{unpack(*packed, head->seq), head->recv_op};
}

// Removes `found`, the first receive of its bucket; the bucket's next receive becomes its head.
void PostedReceives::remove_first(const MatchKey& found, engine::EventCtx& ctx) {
  const auto packed = pack(found);
  if (!packed) {
    ctx.erase(rest_, found);
    return;
  }
  const std::optional<Entry> next = first_in_rest(found);
  if (!next) {
    ctx.erase(heads_, *packed);
    return;
  }
  ctx.put(heads_, *packed, Head{next->first.seq, next->second, 0});
  ctx.erase(rest_, next->first);
}

std::vector<std::pair<MatchKey, std::uint32_t>> PostedReceives::sorted_entries() const {
  std::vector<Entry> out(rest_.begin(), rest_.end());
  out.reserve(size());
  // An empty table still spans the peak of receives posted: the final digest should not scan it.
  if (!heads_.empty())
    for (const auto& [packed, head] : heads_.sorted_entries())
      out.emplace_back(unpack(packed, head.seq), head.recv_op);
  std::sort(out.begin(), out.end());
  return out;
}

void PostedReceives::EntriesView::visit_bytes(engine::StateVisitor& v) const {
  const std::vector<Entry> entries = posted->sorted_entries();
  const std::uint64_t n = entries.size();
  v.bytes(&n, sizeof n);
  for (const auto& [key, recv_op] : entries) {
    engine::visit_value(v, key);
    engine::visit_value(v, recv_op);
  }
}

}  // namespace netwarp::mpiemul
