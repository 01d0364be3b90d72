// FinishHeap: an indexed binary min-heap of flow slots by (finish time, add sequence), so a
// flow whose rate changed moves in O(log n) and the earliest completion is at the top.
#pragma once

#include <cstdint>
#include <vector>

#include "flow/flow_table.hpp"

namespace netwarp::validation::flow_detail {

class FinishHeap {
 public:
  bool empty() const { return heap_.empty(); }
  Slot top() const { return heap_.front().slot; }
  double top_finish() const { return heap_.front().finish_s; }

  // Inserts `slot` or moves it to its new key.
  void update(Slot slot, double finish_s, std::uint64_t sequence) {
    if (slot >= where_.size()) where_.resize(slot + 1, kNoSlot);
    std::uint32_t i = where_[slot];
    if (i == kNoSlot) {
      i = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back(Entry{finish_s, sequence, slot});
      where_[slot] = i;
    } else {
      heap_[i].finish_s = finish_s;
      heap_[i].sequence = sequence;
    }
    sift_down(sift_up(i));
  }

  void erase(Slot slot) {
    const std::uint32_t i = where_[slot];
    where_[slot] = kNoSlot;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    place(i, last);
    sift_down(sift_up(i));
  }

 private:
  struct Entry {
    double finish_s;
    std::uint64_t sequence;
    Slot slot;
    bool operator<(const Entry& o) const {
      return finish_s < o.finish_s || (finish_s == o.finish_s && sequence < o.sequence);
    }
  };

  void place(std::uint32_t i, const Entry& e) {
    heap_[i] = e;
    where_[e.slot] = i;
  }

  std::uint32_t sift_up(std::uint32_t i) {
    const Entry e = heap_[i];
    while (i > 0) {
      const std::uint32_t parent = (i - 1) / 2;
      if (!(e < heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, e);
    return i;
  }

  void sift_down(std::uint32_t i) {
    const Entry e = heap_[i];
    const auto n = static_cast<std::uint32_t>(heap_.size());
    for (;;) {
      std::uint32_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && heap_[child + 1] < heap_[child]) ++child;
      if (!(heap_[child] < e)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, e);
  }

  std::vector<Entry> heap_;
  std::vector<std::uint32_t> where_;  // per slot: index in heap_, kNoSlot if absent
};

}  // namespace netwarp::validation::flow_detail
