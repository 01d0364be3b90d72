// PendingQueue: the future event set, a 4-ary min-heap on the event key. Entries carry the key
// inline so comparisons never touch the event pool.
#pragma once

#include <cstdint>
#include <vector>

#include "event_pool.hpp"
#include "netwarp/engine/event_key.hpp"

namespace netwarp::engine {

class PendingQueue {
 public:
  // 40 bytes: the key's fields packed around the event id; tie and creator share one word,
  // compared as (tie, creator) as EventKey does.
  struct Entry {
    std::int64_t time_ps;
    std::int64_t sent_ps;
    std::uint64_t tie_creator;
    std::uint64_t counter;
    EventId id;

    LpId creator() const { return static_cast<LpId>(tie_creator); }
    EventKey key() const {
      return EventKey{SimTime::from_ps(time_ps), SimTime::from_ps(sent_ps),
                      static_cast<std::uint32_t>(tie_creator >> 32), creator(), counter};
    }
    // Written as two tests per field: GCC then branches on the time alone in the heap's loops,
    // where with `!=` it built a flag from all four fields first (5 % more instructions on
    // sequential PHOLD).
    friend bool operator<(const Entry& a, const Entry& b) {
      if (a.time_ps < b.time_ps) return true;
      if (a.time_ps > b.time_ps) return false;
      if (a.sent_ps < b.sent_ps) return true;
      if (a.sent_ps > b.sent_ps) return false;
      if (a.tie_creator < b.tie_creator) return true;
      if (a.tie_creator > b.tie_creator) return false;
      return a.counter < b.counter;
    }
  };
  static_assert(sizeof(Entry) == 40);

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  std::size_t capacity_bytes() const { return heap_.capacity() * sizeof(Entry); }
  const Entry& top() const { return heap_.front(); }

  void push(const EventKey& key, EventId id) {
    heap_.push_back(Entry{key.time.ps(), key.sent.ps(),
                          (std::uint64_t{key.tie} << 32) | key.creator, key.counter, id});
    sift_up(heap_.size() - 1);
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

  void sift_up(std::size_t i) {
    const Entry item = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(item < heap_[parent])) break;
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
      std::size_t best = first;
      const std::size_t last = first + kArity < n ? first + kArity : n;
      for (std::size_t c = first + 1; c < last; ++c)
        if (heap_[c] < heap_[best]) best = c;
      if (!(heap_[best] < item)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = item;
  }
  std::vector<Entry> heap_;
};

}  // namespace netwarp::engine
