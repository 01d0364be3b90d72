// Rev<T> (a reversible value) and RevCounter (a reversible integer counter).
#pragma once

#include <cstdint>
#include <cstring>

#include "netwarp/engine/mutation.hpp"
#include "netwarp/engine/state_visitor.hpp"

namespace netwarp::engine {

template <class T>
class Rev {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  Rev() = default;
  explicit Rev(const T& initial) : value_(initial) {}
  const T& get() const { return value_; }
  operator const T&() const { return value_; }
  void visit_bytes(StateVisitor& v) const { visit_value(v, value_); }

  void set(const T& value, Mutation m) {
    if (UndoLog* log = m.log()) log->push(&restore, this, value_);
    value_ = value;
  }

 private:
  static void restore(void* target, const std::byte* saved) {
    std::memcpy(&static_cast<Rev*>(target)->value_, saved, sizeof(T));
  }
  T value_{};
};

class RevCounter {
 public:
  RevCounter() = default;
  explicit RevCounter(std::int64_t initial) : value_(initial) {}
  std::int64_t get() const { return value_; }
  operator std::int64_t() const { return value_; }
  void visit_bytes(StateVisitor& v) const { v.bytes(&value_, sizeof value_); }

  void add(std::int64_t delta, Mutation m) {
    if (UndoLog* log = m.log()) log->push(&subtract, this, delta);
    value_ += delta;
  }

 private:
  static void subtract(void* target, const std::byte* saved) {
    std::int64_t delta;
    std::memcpy(&delta, saved, sizeof delta);
    static_cast<RevCounter*>(target)->value_ -= delta;
  }
  std::int64_t value_ = 0;
};

}  // namespace netwarp::engine
