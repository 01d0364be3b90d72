// RevFifo<T>: a reversible double-ended queue of trivially copyable elements (a ring buffer
// that allocates nothing until used; or, with Container = FrontInlineDeque<T, N>, one whose
// front stays inside the object).
#pragma once

#include "netwarp/engine/rev_sequence.hpp"
#include "netwarp/engine/ring_deque.hpp"

namespace netwarp::engine {

template <class T, class Container = RingDeque<T>>
class RevFifo : public RevSequence<Container> {
  using Base = RevSequence<Container>;

 public:
  T pop_front(Mutation m) {
    NW_CHECK(!this->items_.empty(), "pop_front on an empty RevFifo");
    T item = this->items_.front();
    if (UndoLog* log = m.log()) log->push(&undo_pop_front, this, item);
    this->items_.pop_front();
    return item;
  }

 private:
  static void undo_pop_front(void* target, const std::byte* saved) {
    static_cast<RevFifo*>(target)->items_.push_front(Base::saved_item(saved));
  }
};

}  // namespace netwarp::engine
