// FrontInlineDeque<T, N>: a double-ended queue whose first (up to) N elements live inside the
// object and the rest in a RingDeque. A queue read at its front on every use (an output port's
// packets in flight) then finds its front in its owner's own cache lines, beside what the owner
// reads anyway, instead of behind a pointer that misses again after the owner's line did.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "netwarp/engine/index_iterator.hpp"
#include "netwarp/engine/ring_deque.hpp"

namespace netwarp::engine {

template <class T, std::size_t N>
class FrontInlineDeque {
  static_assert(std::is_trivially_copyable_v<T>);
  static_assert(N >= 1 && N <= 128 && (N & (N - 1)) == 0, "N: a power of two up to 128");

 public:
  using value_type = T;
  using const_iterator = IndexIterator<FrontInlineDeque>;

  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_ + overflow_.size(); }
  const T& operator[](std::size_t i) const {
    return i < count_ ? near_[slot(i)] : overflow_[i - count_];
  }
  const T& front() const { return near_[head_]; }
  const T& back() const { return overflow_.empty() ? near_[slot(count_ - 1u)] : overflow_.back(); }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

  void push_back(const T& item) {
    if (overflow_.empty() && count_ < N) {
      near_[slot(count_)] = item;
      ++count_;
    } else {
      overflow_.push_back(item);
    }
  }
  void push_front(const T& item) {
    if (count_ == N) {  // the inline part's last element moves to the overflow's front
      overflow_.push_front(near_[slot(N - 1)]);
      --count_;
    }
    head_ = static_cast<std::uint8_t>((head_ + N - 1) & (N - 1));
    near_[head_] = item;
    ++count_;
  }
  void pop_back() {
    if (!overflow_.empty()) {
      overflow_.pop_back();
    } else {
      --count_;
    }
  }
  // The front leaves the inline part; an emptied inline part takes up to N from the overflow, so
  // the front stays inline while the queue holds anything.
  void pop_front() {
    head_ = static_cast<std::uint8_t>((head_ + 1) & (N - 1));
    --count_;
    if (count_ == 0) refill();
  }
  void clear() {
    head_ = 0;
    count_ = 0;
    overflow_.clear();
  }

 private:
  std::size_t slot(std::size_t i) const { return (head_ + i) & (N - 1); }
  void refill() {
    head_ = 0;
    while (count_ < N && !overflow_.empty()) {
      near_[count_++] = overflow_.front();
      overflow_.pop_front();
    }
  }

  std::array<T, N> near_{};
  std::uint8_t head_ = 0;
  std::uint8_t count_ = 0;
  RingDeque<T> overflow_;
};

}  // namespace netwarp::engine
