// RevVector<T>: a reversible growable array (element writes, push_back, pop_back).
#pragma once

#include <vector>

#include "netwarp/engine/rev_sequence.hpp"

namespace netwarp::engine {

template <class T>
class RevVector : public RevSequence<std::vector<T>> {
 public:
  RevVector() = default;
  RevVector(std::size_t n, const T& value)
      : RevSequence<std::vector<T>>(std::vector<T>(n, value)) {}

  void set(std::size_t i, const T& value, Mutation m) {
    NW_CHECK(i < this->items_.size(), "RevVector index {} out of {}", i, this->items_.size());
    if (UndoLog* log = m.log()) log->push(&undo_set, this, Slot{i, this->items_[i]});
    this->items_[i] = value;
  }

 private:
  struct Slot {
    std::size_t index;
    T value;
  };
  static void undo_set(void* target, const std::byte* saved) {
    Slot s;
    std::memcpy(&s, saved, sizeof s);
    static_cast<RevVector*>(target)->items_[s.index] = s.value;
  }
};

}  // namespace netwarp::engine
