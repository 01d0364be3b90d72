// RevFifo<T>: a reversible double-ended queue of trivially copyable elements.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/mutation.hpp"
#include "netwarp/engine/state_visitor.hpp"

namespace netwarp::engine {

// A FIFO (double-ended) queue of trivially copyable elements.
template <class T>
class RevFifo {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const T& front() const { return items_.front(); }
  const T& back() const { return items_.back(); }
  const T& operator[](std::size_t i) const { return items_[i]; }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  void visit_bytes(StateVisitor& v) const {
    const std::uint64_t n = items_.size();
    v.bytes(&n, sizeof n);
    for (const T& item : items_) visit_value(v, item);
  }

  void push_back(const T& item, Mutation m) {
    if (UndoLog* log = m.log()) log->push(&undo_push_back, this, Empty{});
    items_.push_back(item);
  }
  T pop_front(Mutation m) {
    NW_CHECK(!items_.empty(), "pop_front on an empty RevFifo");
    T item = items_.front();
    if (UndoLog* log = m.log()) log->push(&undo_pop_front, this, item);
    items_.pop_front();
    return item;
  }
  T pop_back(Mutation m) {
    NW_CHECK(!items_.empty(), "pop_back on an empty RevFifo");
    T item = items_.back();
    if (UndoLog* log = m.log()) log->push(&undo_pop_back, this, item);
    items_.pop_back();
    return item;
  }

 private:
  struct Empty {};
  static void undo_push_back(void* target, const std::byte*) {
    static_cast<RevFifo*>(target)->items_.pop_back();
  }
  static void undo_pop_front(void* target, const std::byte* saved) {
    T item;
    std::memcpy(&item, saved, sizeof(T));
    static_cast<RevFifo*>(target)->items_.push_front(item);
  }
  static void undo_pop_back(void* target, const std::byte* saved) {
    T item;
    std::memcpy(&item, saved, sizeof(T));
    static_cast<RevFifo*>(target)->items_.push_back(item);
  }
  std::deque<T> items_;
};

}  // namespace netwarp::engine
