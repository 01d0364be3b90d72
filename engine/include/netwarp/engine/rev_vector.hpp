// RevVector<T>: a reversible growable array (element writes, push_back, pop_back).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/mutation.hpp"
#include "netwarp/engine/state_visitor.hpp"

namespace netwarp::engine {

// A growable array: element writes, push_back and pop_back are reversible.
template <class T>
class RevVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  RevVector() = default;
  RevVector(std::size_t n, const T& value) : items_(n, value) {}
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const T& operator[](std::size_t i) const { return items_[i]; }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  void visit_bytes(StateVisitor& v) const {
    const std::uint64_t n = items_.size();
    v.bytes(&n, sizeof n);
    for (const T& item : items_) visit_value(v, item);
  }

  void set(std::size_t i, const T& value, Mutation m) {
    NW_CHECK(i < items_.size(), "RevVector index {} out of {}", i, items_.size());
    if (UndoLog* log = m.log()) log->push(&undo_set, this, Slot{i, items_[i]});
    items_[i] = value;
  }
  void push_back(const T& item, Mutation m) {
    if (UndoLog* log = m.log()) log->push(&undo_push_back, this, Empty{});
    items_.push_back(item);
  }
  T pop_back(Mutation m) {
    NW_CHECK(!items_.empty(), "pop_back on an empty RevVector");
    T item = items_.back();
    if (UndoLog* log = m.log()) log->push(&undo_pop_back, this, item);
    items_.pop_back();
    return item;
  }

 private:
  struct Empty {};
  struct Slot {
    std::size_t index;
    T value;
  };
  static void undo_set(void* target, const std::byte* saved) {
    Slot s;
    std::memcpy(&s, saved, sizeof s);
    static_cast<RevVector*>(target)->items_[s.index] = s.value;
  }
  static void undo_push_back(void* target, const std::byte*) {
    static_cast<RevVector*>(target)->items_.pop_back();
  }
  static void undo_pop_back(void* target, const std::byte* saved) {
    T item;
    std::memcpy(&item, saved, sizeof(T));
    static_cast<RevVector*>(target)->items_.push_back(item);
  }
  std::vector<T> items_;
};

}  // namespace netwarp::engine
