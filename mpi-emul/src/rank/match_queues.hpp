// Indexed MPI matching (issue 15). A linear scan of the posted-receive and unexpected queues
// makes every arrival cost O(queue length): an all-to-all with all receives posted first
// grows as P^2.7. Both queues are indexed by (context, source, tag, sequence), so a match costs
// O(1) (posted receives: each bucket's head hashed, the rest ordered) or O(log n) (unexpected
// envelopes: an ordered map) while keeping MPI's order (seed 001 §3-4: associative memories
// keyed by (peer, tag, comm), each entry a FIFO):
//  - a posted receive may hold wildcards (kAnySource, kAnyTag); an arriving envelope looks in
//    the four buckets (src, tag), (src, any), (any, tag), (any, any) of its context and takes
//    the one whose first entry has the smallest sequence number: the earliest posted receive
//    that matches;
//  - an unexpected envelope is filed under the same four keys (its own source and tag, and the
//    wildcard forms), so a receive, wildcards or not, finds the earliest matching envelope as
//    the first entry of one bucket; taking it erases all four copies.
// Sequence numbers come from one per-rank counter, so "earliest" is posting or arrival order.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/reversible.hpp"
#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul {

struct MatchKey {
  std::uint16_t context = 0;
  std::uint16_t reserved = 0;
  std::int32_t src = 0;  // kAnySource: a wildcard bucket
  std::int32_t tag = 0;  // kAnyTag: a wildcard bucket
  std::uint32_t reserved2 = 0;
  std::uint64_t seq = 0;
  auto operator<=>(const MatchKey&) const = default;
};

// Posted receives: (context, source or any, tag or any, post order) -> receive op. The earliest
// receive of each (context, source, tag) bucket sits in a hash table keyed by the bucket packed
// into 64 bits, so a post or an arrival touches about one cache line: in a P-rank all-to-all
// with every receive posted first, each rank holds P - 1 of them, and walking P^2 tree nodes
// made the time per event grow with P. A bucket's later receives, and the receives of buckets
// that do not pack (a tag or source past 24 bits), wait in an ordered map; taking a bucket's head
// moves its next receive up. The state visit writes the bytes of one RevMap<MatchKey, recv op>
// holding every posted receive (the index's former layout), so digests do not depend on it.
class PostedReceives {
 public:
  void post(const Op& recv, std::uint32_t recv_op, std::uint64_t seq, engine::EventCtx& ctx);
  // Takes the earliest posted receive that a message (context, src, tag) matches.
  std::optional<std::uint32_t> take(std::uint16_t context, RankId src, std::int32_t tag,
                                    engine::EventCtx& ctx);
  std::size_t size() const { return heads_.size() + rest_.size(); }
  // Every posted receive in (context, source, tag, post order), as the state visit sees them.
  std::vector<std::pair<MatchKey, std::uint32_t>> sorted_entries() const;
  // Visits as a RevMap<MatchKey, std::uint32_t> of sorted_entries().
  struct EntriesView {
    const PostedReceives* posted;
    void visit_bytes(engine::StateVisitor& v) const;
  };
  EntriesView entries() const { return EntriesView{this}; }
  const engine::RevCounter& wildcards() const { return wildcards_; }

  // The bucket (key.seq ignored) as one 64-bit word: context, source + 1 and tag + 1 (so the
  // wildcards -1 are 0) in 16, 24 and 24 bits; nullopt when a field does not fit.
  static std::optional<std::uint64_t> pack(const MatchKey& key);

 private:
  struct Head {  // a bucket's earliest receive
    std::uint64_t seq = 0;
    std::uint32_t recv_op = 0;
    std::uint32_t reserved = 0;
  };
  using Entry = std::pair<MatchKey, std::uint32_t>;

  static bool same_bucket(const MatchKey& a, const MatchKey& b) {
    return a.context == b.context && a.src == b.src && a.tag == b.tag;
  }
  static MatchKey unpack(std::uint64_t packed, std::uint64_t seq);
  std::optional<Entry> first_in_rest(const MatchKey& bucket) const;
  std::optional<Entry> first(const MatchKey& bucket) const;
  void remove_first(const MatchKey& found, engine::EventCtx& ctx);

  engine::RevHashMap<std::uint64_t, Head> heads_;  // packed bucket -> its earliest receive
  engine::RevMap<MatchKey, std::uint32_t> rest_;   // every other posted receive
  engine::RevCounter wildcards_;                   // posted receives with kAnySource or kAnyTag
};

// Unexpected envelopes, each filed under its four bucket keys. V must have `src` and `tag`.
template <class V>
class UnexpectedEnvelopes {
 public:
  void add(std::uint16_t context, std::int32_t tag, std::uint64_t seq, const V& value,
           engine::EventCtx& ctx) {
    const auto s = static_cast<std::int32_t>(value.src);
    for (const MatchKey& k : keys(context, s, tag, seq)) ctx.put(map_, k, value);
  }
  // Takes the earliest envelope that a receive (context, src or any, tag or any) matches.
  std::optional<V> take(std::uint16_t context, std::int32_t src, std::int32_t tag,
                        engine::EventCtx& ctx) {
    auto it = map_.lower_bound(MatchKey{context, 0, src, tag, 0, 0});
    if (it == map_.end() || it->first.context != context || it->first.src != src ||
        it->first.tag != tag)
      return std::nullopt;
    const V found = it->second;
    const std::uint64_t seq = it->first.seq;
    for (const MatchKey& k : keys(context, static_cast<std::int32_t>(found.src), found.tag, seq))
      ctx.erase(map_, k);
    return found;
  }
  const engine::RevMap<MatchKey, V>& entries() const { return map_; }

 private:
  struct Keys {
    MatchKey k[4];
    const MatchKey* begin() const { return k; }
    const MatchKey* end() const { return k + 4; }
  };
  static Keys keys(std::uint16_t context, std::int32_t src, std::int32_t tag, std::uint64_t seq) {
    return Keys{{{context, 0, src, tag, 0, seq},
                 {context, 0, src, kAnyTag, 0, seq},
                 {context, 0, kAnySource, tag, 0, seq},
                 {context, 0, kAnySource, kAnyTag, 0, seq}}};
  }
  engine::RevMap<MatchKey, V> map_;
};

}  // namespace netwarp::mpiemul
