// RevSequence<Container>: what the reversible sequences share, their reads and their writes at
// the back (push_back, pop_back). RevFifo adds pop_front, RevVector element writes.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/mutation.hpp"
#include "netwarp/engine/state_visitor.hpp"

namespace netwarp::engine {

template <class Container>
class RevSequence {
 public:
  using value_type = typename Container::value_type;
  static_assert(std::is_trivially_copyable_v<value_type>);

  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const value_type& front() const { return items_.front(); }
  const value_type& back() const { return items_.back(); }
  const value_type& operator[](std::size_t i) const { return items_[i]; }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  void visit_bytes(StateVisitor& v) const {
    const std::uint64_t n = items_.size();
    v.bytes(&n, sizeof n);
    for (const value_type& item : items_) visit_value(v, item);
  }

  void push_back(const value_type& item, Mutation m) {
    if (UndoLog* log = m.log()) log->push(&undo_push_back, this, Empty{});
    items_.push_back(item);
  }
  value_type pop_back(Mutation m) {
    NW_CHECK(!items_.empty(), "pop_back on an empty reversible sequence");
    value_type item = items_.back();
    if (UndoLog* log = m.log()) log->push(&undo_pop_back, this, item);
    items_.pop_back();
    return item;
  }

 protected:
  RevSequence() = default;
  explicit RevSequence(Container items) : items_(std::move(items)) {}
  static value_type saved_item(const std::byte* saved) {
    value_type item;
    std::memcpy(&item, saved, sizeof item);
    return item;
  }
  Container items_;

 private:
  struct Empty {};
  static void undo_push_back(void* target, const std::byte*) {
    static_cast<RevSequence*>(target)->items_.pop_back();
  }
  static void undo_pop_back(void* target, const std::byte* saved) {
    static_cast<RevSequence*>(target)->items_.push_back(saved_item(saved));
  }
};

}  // namespace netwarp::engine
