// PendingQueue: the future event set. Events are ordered by their keys (in the event pool);
// entries carry the time and the key's tie hint inline, so ordering compares one word, a second
// one for events of one instant, and touches the pool only when both are equal.
//
// A small queue is one 4-ary min-heap. A large one (a million-host network holds millions of
// pending events) is split by time: a heap of the earliest events, those before `horizon_`, and
// a ring of unsorted buckets of later times, each a slice of `width_` picoseconds, then an
// overflow list past the ring's end. A push past the horizon is an append (the buckets' tails stay
// in cache); when the heap runs dry the next bucket becomes the heap. A heap of millions of
// entries missed the cache on each of its lowest levels at every push and pop (a hold model, one
// pool read per operation: 730-870 ns with 4.5 million entries, 455-481 ns split; about 30 ns
// with a thousand). The order is the same exact key order either way: equal times always share
// a bucket.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "event_pool.hpp"
#include "netwarp/engine/event_key.hpp"
#include "prefetch.hpp"

namespace netwarp::engine {

class PendingQueue {
 public:
  // 24 bytes. (With the whole key inline, 40 bytes, the heap's loops were a quarter of
  // sequential PHOLD's time; without the hint, 16 bytes, a fat tree k = 32 read two events in
  // the pool 8.7 times per event to order events of one instant.)
  struct Entry {
    std::int64_t time_ps;
    std::uint64_t tie_hint;  // tie_hint(key)
    EventId id;
    LpId dest;  // the event's, so a kernel can prefetch what the next events will touch
  };
  static_assert(sizeof(Entry) == 24);

  // The events named by pushed ids live in `pool`, which outlives the queue; an event's key
  // must not change while it is queued.
  // When a heap is split by time, and how (the defaults suit the kernels; tests use small ones).
  struct Layout {
    std::size_t split_size = std::size_t{1} << 16;  // a heap this large is split
    std::size_t per_bucket = 2048;                  // entries the first bucket aims at
    std::size_t buckets = 4096;                     // buckets in the ring
  };
  explicit PendingQueue(const EventPool& pool) : PendingQueue(pool, Layout{}) {}
  PendingQueue(const EventPool& pool, Layout layout) : pool_(pool), layout_(layout) {}

  bool empty() const { return heap_.empty(); }  // the heap is empty only when the rest is
  std::size_t size() const { return heap_.size() + far_count_; }
  std::size_t capacity_bytes() const {
    std::size_t entries = heap_.capacity() + overflow_.capacity();
    for (const std::vector<Entry>& bucket : ring_) entries += bucket.capacity();
    for (const std::vector<Entry>& buffer : free_buffers_) entries += buffer.capacity();
    return entries * sizeof(Entry) +
           (ring_.capacity() + free_buffers_.capacity()) * sizeof(std::vector<Entry>);
  }
  // How many times entries were laid out in time buckets (a split or the ring's renewal).
  std::uint64_t spreads() const { return spreads_; }
  // Entries in the heap of the earliest events (what a push or a pop costs the log of).
  std::size_t heap_size() const { return heap_.size(); }
  const Entry& top() const { return heap_.front(); }
  // Whether the queue is split by time: it holds many events (and so, usually, their LPs' state
  // is too large for the caches).
  bool is_split() const { return horizon_ != kNoHorizon; }
  // Called once the top is taken, while its event runs: starts loading the events of the
  // candidates for the next top (the top's children) and `lp_object(dest)` of each, an address
  // the kernel keeps its LP at. Only while split: in a big model these miss the caches (50^3
  // torus, sequential: about 0.8x the time), in a small one the loads cost about 2 %
  // (sequential PHOLD).
  template <class LpObject>
  void prefetch_next(LpObject&& lp_object) const {
    if (!is_split()) return;
    const std::size_t end = std::min<std::size_t>(heap_.size(), 1 + kArity);
    for (std::size_t child = 1; child < end; ++child) {
      // An event is two whole cache lines of the pool (EventPool::Slot), both read by the kernel.
      const auto* event = reinterpret_cast<const char*>(&pool_[heap_[child].id]);
      prefetch(event);
      prefetch(event + 64);
      prefetch(lp_object(heap_[child].dest));
    }
  }
  const EventKey& top_key() const { return pool_[heap_.front().id].key; }

  // push, settle, pop and the sifts are forced inline: GCC stopped inlining them into the
  // kernels' loops once entries grew to 24 bytes (fat tree k = 8, 1 MiB flows: 167 -> 179 ns
  // per packet-hop; forced: 167).
  [[gnu::always_inline]] void push(EventId id) {
    const Event& event = pool_[id];
    const Entry entry{event.key.time.ps(), tie_hint(event.key), id, event.dest};
    if (entry.time_ps >= horizon_ && horizon_ != kNoHorizon) {
      push_far(entry);
      return;
    }
    if (top_taken_) {
      // The top's slot is free: the new entry takes it, one sift-down for pop and push.
      top_taken_ = false;
      heap_.front() = entry;
      sift_down(0);
      return;
    }
    heap_.push_back(entry);
    sift_up(heap_.size() - 1);
    if (heap_.size() >= split_at_) split_by_time();
  }
  // Removes the top, lazily: the next push fills its slot (a handler usually sends one event),
  // and settle() completes the pop if none came. Until settle(), only push() may be called.
  void take_top() { top_taken_ = true; }
  [[gnu::always_inline]] void settle() {
    if (!top_taken_) return;
    top_taken_ = false;
    pop();
  }
  // Removes every entry for which drop(entry) is true, then restores the heap in linear time.
  template <class Drop>
  void remove_if(Drop&& drop) {
    std::erase_if(heap_, drop);
    make_heap();
    for (std::vector<Entry>& bucket : ring_) far_count_ -= std::erase_if(bucket, drop);
    far_count_ -= std::erase_if(overflow_, drop);
    if (heap_.empty()) refill();
  }
  [[gnu::always_inline]] void pop() {
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      sift_down(0);
    } else if (far_count_ > 0) {
      refill();
    }
  }

 private:
  static constexpr std::size_t kArity = 4;
  static constexpr std::int64_t kNoHorizon = std::numeric_limits<std::int64_t>::max();
  static constexpr std::size_t kFreeBuffers = 64;

  void push_far(const Entry& entry) {
    ++far_count_;
    const auto slice =
        static_cast<std::uint64_t>(entry.time_ps - horizon_) / static_cast<std::uint64_t>(width_);
    if (slice < ring_.size() - next_) {
      std::vector<Entry>& bucket = ring_[next_ + slice];
      if (bucket.capacity() == 0 && !free_buffers_.empty()) {
        bucket.swap(free_buffers_.back());  // a used bucket's buffer: no growing, no new memory
        free_buffers_.pop_back();
      }
      bucket.push_back(entry);
    } else {
      overflow_.push_back(entry);
    }
  }
  // Moves the later part of a large heap into the ring and the overflow. A heap that grows
  // large while already split (its bucket's width was set by a few far times, such as
  // retransmission timers among millions of packets: a fat tree k = 32 held a heap of 1.1 M
  // entries on average, most of its time in the heap's cache misses) is spread again with
  // everything beyond it.
  void split_by_time() {
    std::vector<Entry> entries = std::exchange(heap_, {});
    if (is_split()) {
      for (std::size_t b = next_; b < ring_.size(); ++b) {
        entries.insert(entries.end(), ring_[b].begin(), ring_[b].end());
        ring_[b].clear();
      }
      entries.insert(entries.end(), overflow_.begin(), overflow_.end());
      overflow_ = {};
    }
    spread(std::move(entries));
  }
  // Lays out a ring from `entries` (none earlier than what the heap holds) and makes its first
  // bucket the heap. The ring starts at the earliest time. Its width puts about per_bucket
  // entries in the first bucket, but at least nine in ten of the entries in the ring, so that
  // what is spread is mostly handled before the next spread (and a crowd of equal times, common
  // in networks that move in lockstep, cannot leave the rest to be spread again and again).
  void spread(std::vector<Entry> entries) {
    ++spreads_;
    if (entries.empty()) {
      horizon_ = kNoHorizon;
      return;
    }
    const auto earlier = [](const Entry& a, const Entry& b) { return a.time_ps < b.time_ps; };
    const std::size_t buckets = std::max<std::size_t>(1, layout_.buckets);
    std::int64_t first = kNoHorizon;
    for (const Entry& e : entries) first = std::min(first, e.time_ps);
    const std::size_t most = (entries.size() - 1) * 9 / 10;
    const std::size_t few = std::min(layout_.per_bucket, most);
    std::nth_element(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(most),
                     entries.end(), earlier);
    const std::int64_t most_span = entries[most].time_ps - first;
    std::nth_element(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(few),
                     entries.begin() + static_cast<std::ptrdiff_t>(most), earlier);
    const std::int64_t few_span = entries[few].time_ps - first;
    width_ =
        std::max({std::int64_t{1}, few_span, most_span / static_cast<std::int64_t>(buckets) + 1});
    horizon_ = first;
    ring_.resize(buckets);
    next_ = 0;
    far_count_ = 0;
    for (const Entry& e : entries) push_far(e);
    refill();
  }
  // Makes the next non-empty bucket the heap (the ring spread anew from the overflow when it is
  // used up), or returns to one heap when nothing is left beyond it.
  void refill() {
    while (heap_.empty() && far_count_ > 0) {
      if (next_ == ring_.size()) {
        spread(std::exchange(overflow_, {}));  // moved, not copied: it may hold millions
        return;
      }
      std::vector<Entry>& bucket = ring_[next_++];
      horizon_ += width_;
      far_count_ -= bucket.size();
      std::vector<Entry> old_heap = std::exchange(heap_, std::move(bucket));
      bucket = {};
      // Keeps the heap's old (empty) buffer for a later bucket unless it grew large (a crowd of
      // one instant), or enough are kept: they wait for the next spread, and a ring's worth of
      // them held 5.4 M entries (86 MB) at a fat tree k = 16 whose queue peaked at 0.24 M.
      if (old_heap.capacity() > 0 && old_heap.capacity() <= 4 * layout_.per_bucket &&
          free_buffers_.size() < kFreeBuffers)
        free_buffers_.push_back(std::move(old_heap));
      make_heap();
    }
    if (far_count_ == 0) horizon_ = kNoHorizon;
    // Split again only once the heap has doubled: a heap of one crowded instant (every host
    // starting at time 0) goes whole into the first bucket, and splitting it at every push
    // would cost its size each time.
    split_at_ = std::max(layout_.split_size, 2 * heap_.size());
  }
  void make_heap() {
    for (std::size_t i = heap_.size() / kArity + 1; i-- > 0;)
      if (i < heap_.size()) sift_down(i);
  }

  // Two tests on the time: GCC then branches on the time alone in the heap's loops.
  bool before(const Entry& a, const Entry& b) const {
    if (a.time_ps < b.time_ps) return true;
    if (a.time_ps > b.time_ps) return false;
    if (a.tie_hint != b.tie_hint) return a.tie_hint < b.tie_hint;
    return pool_[a.id].key < pool_[b.id].key;
  }
  [[gnu::always_inline]] void sift_up(std::size_t i) {
    const Entry item = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!before(item, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = item;
  }
  [[gnu::always_inline]] void sift_down(std::size_t i) {
    const Entry item = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first = i * kArity + 1;
      if (first >= n) break;
      const std::size_t best = first + kArity <= n ? least_of_four(first) : least_of(first, n);
      if (!before(heap_[best], item)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = item;
  }
  // The least of heap_[first, first + 4): selected without a branch on the times (which order
  // at random), but for equal times, which need the whole keys.
  std::size_t least_of_four(std::size_t first) const {
    std::size_t best = first;
    std::int64_t best_time = heap_[first].time_ps;
    for (std::size_t c = first + 1; c < first + kArity; ++c) {
      const std::int64_t time = heap_[c].time_ps;
      if (time == best_time) [[unlikely]] {
        if (before(heap_[c], heap_[best])) best = c;
        continue;
      }
      const bool earlier = time < best_time;
      best = earlier ? c : best;
      best_time = earlier ? time : best_time;
    }
    return best;
  }
  std::size_t least_of(std::size_t first, std::size_t last) const {
    std::size_t best = first;
    for (std::size_t c = first + 1; c < last; ++c)
      if (before(heap_[c], heap_[best])) best = c;
    return best;
  }
  const EventPool& pool_;
  const Layout layout_;
  std::vector<Entry> heap_;
  bool top_taken_ = false;
  // Split by time: entries at or after horizon_ wait in ring_[next_..] (bucket next_ + k holds
  // [horizon_ + k x width_, horizon_ + (k + 1) x width_)) or, past the ring, in overflow_.
  std::int64_t horizon_ = kNoHorizon;
  std::int64_t width_ = 1;
  std::vector<std::vector<Entry>> ring_;
  std::size_t next_ = 0;
  std::vector<Entry> overflow_;
  std::vector<std::vector<Entry>> free_buffers_;  // empty buffers of used buckets, for new ones
  std::size_t far_count_ = 0;
  std::size_t split_at_ = layout_.split_size;  // heap size that splits it next
  std::uint64_t spreads_ = 0;
};

}  // namespace netwarp::engine
