// RevHashMap<K, V>: a reversible map from an integer key (a peer's id) to a value, by open
// addressing. A lookup touches about one cache line, where RevMap's tree walks log2(n) nodes
// scattered over the heap: in a 4,096-rank all-to-all every host and rank keeps per-peer state
// for 4,095 peers, and those walks were most of the cache misses per message. The slots' order
// is a hash's, so nothing iterates them: the state visit sorts the entries by key and writes
// exactly the bytes a RevMap with the same entries writes (digests do not depend on the choice).
#pragma once

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "netwarp/engine/mutation.hpp"
#include "netwarp/engine/state_visitor.hpp"

namespace netwarp::engine {

template <std::unsigned_integral K, class V>
class RevHashMap {
  static_assert(std::is_trivially_copyable_v<V>);

 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  bool contains(const K& k) const { return find(k) != nullptr; }
  const V* find(const K& k) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = home(k);; i = next(i)) {
      const Slot& s = slots_[i];
      if (s.used == 0) return nullptr;
      if (s.key == k) return &s.value;
    }
  }
  // The entries in key order (for the state visit and tests; O(n log n)).
  std::vector<std::pair<K, V>> sorted_entries() const {
    std::vector<std::pair<K, V>> out;
    out.reserve(size_);
    for (const Slot& s : slots_)
      if (s.used != 0) out.emplace_back(s.key, s.value);
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return out;
  }
  void visit_bytes(StateVisitor& v) const {  // as RevMap<K, V> with the same entries
    const std::uint64_t n = size_;
    v.bytes(&n, sizeof n);
    for (const auto& [k, value] : sorted_entries()) {
      visit_value(v, k);
      visit_value(v, value);
    }
  }

  void put(const K& k, const V& value, Mutation m) {
    Slot& s = slot_for(k);
    if (UndoLog* log = m.log()) log->push(&undo_put, this, Entry{k, s.value, s.used != 0});
    if (s.used == 0) {
      s.used = 1;
      s.key = k;
      ++size_;
    }
    s.value = value;
  }
  bool erase(const K& k, Mutation m) {
    const V* found = find(k);
    if (found == nullptr) return false;
    if (UndoLog* log = m.log()) log->push(&undo_erase, this, Entry{k, *found, true});
    remove(k);
    return true;
  }

 private:
  struct Slot {
    K key{};
    std::uint8_t used = 0;
    V value{};
  };
  struct Entry {
    K key;
    V value;
    bool existed;
  };

  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t next(std::size_t i) const { return (i + 1) & mask(); }
  // Fibonacci hashing: consecutive ids (the usual keys) spread over the table.
  std::size_t home(const K& k) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ull) >>
                                    shift_);
  }
  // The key's slot, or the empty slot where it goes (growing first if the table is 3/4 full).
  Slot& slot_for(const K& k) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    std::size_t i = home(k);
    while (slots_[i].used != 0 && slots_[i].key != k) i = next(i);
    return slots_[i];
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const std::size_t capacity = old.empty() ? 8 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
    for (const Slot& s : old) {
      if (s.used == 0) continue;
      std::size_t i = home(s.key);
      while (slots_[i].used != 0) i = next(i);
      slots_[i] = s;
    }
  }
  // Backward-shift deletion: entries after the hole that may live there move back, so lookups
  // never need tombstones.
  void remove(const K& k) {
    std::size_t hole = home(k);
    while (slots_[hole].used == 0 || slots_[hole].key != k) hole = next(hole);
    for (std::size_t i = next(hole); slots_[i].used != 0; i = next(i)) {
      const std::size_t h = home(slots_[i].key);
      // Slot i's entry may fill the hole unless its home lies cyclically in (hole, i].
      const bool home_after_hole = ((i - h) & mask()) < ((i - hole) & mask());
      if (home_after_hole) continue;
      slots_[hole] = slots_[i];
      hole = i;
    }
    slots_[hole] = Slot{};
    --size_;
  }
  static void undo_put(void* target, const std::byte* saved) {
    Entry e;
    std::memcpy(&e, saved, sizeof e);
    auto& map = *static_cast<RevHashMap*>(target);
    if (e.existed) {
      map.slot_for(e.key).value = e.value;
    } else {
      map.remove(e.key);
    }
  }
  static void undo_erase(void* target, const std::byte* saved) {
    Entry e;
    std::memcpy(&e, saved, sizeof e);
    auto& map = *static_cast<RevHashMap*>(target);
    Slot& s = map.slot_for(e.key);
    s.used = 1;
    s.key = e.key;
    s.value = e.value;
    ++map.size_;
  }

  std::vector<Slot> slots_;  // a power of two in size, or empty
  std::size_t size_ = 0;
  unsigned shift_ = 64;
};

}  // namespace netwarp::engine
