// Log: a sequence whose entries keep an absolute position for life, for logs appended at the
// back and reclaimed from the front.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

#include "netwarp/engine/check.hpp"

namespace netwarp::engine {

using LogPosition = std::uint64_t;
inline constexpr LogPosition kNoPosition = ~LogPosition{0};

// Backed by std::deque: blocks of about 512 bytes, so capacity tracks the live size (a doubling
// ring would hold up to twice the peak) and the front is freed block by block.
template <class T>
class Log {
 public:
  LogPosition begin() const { return base_; }
  LogPosition end() const { return base_ + items_.size(); }
  bool empty() const { return items_.empty(); }
  bool contains(LogPosition p) const { return p >= base_ && p < end(); }
  std::size_t capacity_bytes() const {
    constexpr std::size_t per_block = sizeof(T) < 512 ? 512 / sizeof(T) : 1;
    return (items_.size() / per_block + 2) * per_block * sizeof(T);
  }
  T& operator[](LogPosition p) { return items_[static_cast<std::size_t>(p - base_)]; }
  const T& operator[](LogPosition p) const { return items_[static_cast<std::size_t>(p - base_)]; }
  T& front() { return items_.front(); }

  LogPosition push_back(const T& item) {
    items_.push_back(item);
    return end() - 1;
  }
  void pop_back() { items_.pop_back(); }
  void pop_front() {
    items_.pop_front();
    ++base_;
  }
  void pop_front(std::size_t n) {
    items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(n));
    base_ += n;
  }
  auto items_begin() { return items_.begin(); }
  auto items_end() { return items_.end(); }

 private:
  std::deque<T> items_;
  LogPosition base_ = 0;
};

}  // namespace netwarp::engine
