// RevMap<K, V>: a reversible ordered map; iteration is in key order, so it may reach output.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>

#include "netwarp/engine/mutation.hpp"
#include "netwarp/engine/state_visitor.hpp"

namespace netwarp::engine {

// An ordered map; iteration order is the key order, so it may reach the output.
template <class K, class V>
class RevMap {
  static_assert(std::is_trivially_copyable_v<K> && std::is_trivially_copyable_v<V>);

 public:
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  bool contains(const K& k) const { return items_.contains(k); }
  const V* find(const K& k) const {
    auto it = items_.find(k);
    return it == items_.end() ? nullptr : &it->second;
  }
  auto begin() const { return items_.begin(); }
  auto lower_bound(const K& k) const { return items_.lower_bound(k); }
  auto end() const { return items_.end(); }
  void visit_bytes(StateVisitor& v) const {
    const std::uint64_t n = items_.size();
    v.bytes(&n, sizeof n);
    for (const auto& [k, value] : items_) {
      visit_value(v, k);
      visit_value(v, value);
    }
  }

  void put(const K& k, const V& value, Mutation m) {
    auto [it, inserted] = items_.try_emplace(k, value);
    if (UndoLog* log = m.log()) log->push(&undo_put, this, Entry{k, it->second, !inserted});
    if (!inserted) it->second = value;
  }
  bool erase(const K& k, Mutation m) {
    auto it = items_.find(k);
    if (it == items_.end()) return false;
    if (UndoLog* log = m.log()) log->push(&undo_erase, this, Entry{k, it->second, true});
    items_.erase(it);
    return true;
  }

 private:
  struct Entry {
    K key;
    V value;
    bool existed;
  };
  static void undo_put(void* target, const std::byte* saved) {
    Entry e;
    std::memcpy(&e, saved, sizeof e);
    auto& items = static_cast<RevMap*>(target)->items_;
    if (e.existed) {
      items[e.key] = e.value;
    } else {
      items.erase(e.key);
    }
  }
  static void undo_erase(void* target, const std::byte* saved) {
    Entry e;
    std::memcpy(&e, saved, sizeof e);
    static_cast<RevMap*>(target)->items_.emplace(e.key, e.value);
  }
  std::map<K, V> items_;
};

}  // namespace netwarp::engine
