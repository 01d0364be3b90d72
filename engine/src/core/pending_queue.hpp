// PendingQueue: the future event set, a 4-ary min-heap of event ids ordered by their events'
// keys (in the event pool). Entries carry the time inline, so the heap's loops compare one word
// and touch the pool only to break a tie of equal times.
#pragma once

#include <cstdint>
#include <vector>

#include "event_pool.hpp"
#include "netwarp/engine/event_key.hpp"

namespace netwarp::engine {

class PendingQueue {
 public:
  // 16 bytes, four to a cache line: a node's children share one line. (With the whole key
  // inline, 40 bytes, the heap's loops were a quarter of sequential PHOLD's time.)
  struct Entry {
    std::int64_t time_ps;
    EventId id;
    std::uint32_t reserved;
  };
  static_assert(sizeof(Entry) == 16);

  // The events named by pushed ids live in `pool`, which outlives the queue; an event's key
  // must not change while it is queued.
  explicit PendingQueue(const EventPool& pool) : pool_(pool) {}

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  std::size_t capacity_bytes() const { return heap_.capacity() * sizeof(Entry); }
  const Entry& top() const { return heap_.front(); }
  const EventKey& top_key() const { return pool_[heap_.front().id].key; }

  void push(EventId id) {
    const Entry entry{pool_[id].key.time.ps(), id, 0};
    if (top_taken_) {
      // The top's slot is free: the new entry takes it, one sift-down for pop and push.
      top_taken_ = false;
      heap_.front() = entry;
      sift_down(0);
      return;
    }
    heap_.push_back(entry);
    sift_up(heap_.size() - 1);
  }
  // Removes the top, lazily: the next push fills its slot (a handler usually sends one event),
  // and settle() completes the pop if none came. Until settle(), only push() may be called.
  void take_top() { top_taken_ = true; }
  void settle() {
    if (!top_taken_) return;
    top_taken_ = false;
    pop();
  }
  // Removes every entry for which drop(entry) is true, then restores the heap in linear time.
  template <class Drop>
  void remove_if(Drop&& drop) {
    std::erase_if(heap_, drop);
    for (std::size_t i = heap_.size() / kArity + 1; i-- > 0;)
      if (i < heap_.size()) sift_down(i);
  }
  void pop() {
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
  }

 private:
  static constexpr std::size_t kArity = 4;

  // Two tests on the time: GCC then branches on the time alone in the heap's loops.
  bool before(const Entry& a, const Entry& b) const {
    if (a.time_ps < b.time_ps) return true;
    if (a.time_ps > b.time_ps) return false;
    return pool_[a.id].key < pool_[b.id].key;
  }
  void sift_up(std::size_t i) {
    const Entry item = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!before(item, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = item;
  }
  void sift_down(std::size_t i) {
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
  std::vector<Entry> heap_;
  bool top_taken_ = false;
};

}  // namespace netwarp::engine
