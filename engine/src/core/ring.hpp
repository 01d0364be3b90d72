// Ring: a growable circular buffer (push/pop at both ends, indexed from the front); Log: a
// Ring whose entries keep an absolute position for life, for logs appended at the back and
// reclaimed from the front.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <type_traits>

#include "netwarp/engine/check.hpp"

namespace netwarp::engine {

template <class T>
class Ring {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity_bytes() const { return capacity_ * sizeof(T); }
  T& operator[](std::size_t i) { return data_[(head_ + i) & (capacity_ - 1)]; }
  const T& operator[](std::size_t i) const { return data_[(head_ + i) & (capacity_ - 1)]; }
  T& front() { return (*this)[0]; }
  T& back() { return (*this)[size_ - 1]; }

  void push_back(const T& item) {
    if (size_ == capacity_) grow();
    data_[(head_ + size_) & (capacity_ - 1)] = item;
    ++size_;
  }
  void pop_back() { --size_; }
  void pop_front() {
    head_ = (head_ + 1) & (capacity_ - 1);
    --size_;
  }

 private:
  void grow() {
    const std::size_t capacity = capacity_ == 0 ? 4 : capacity_ * 2;
    auto data = std::make_unique_for_overwrite<T[]>(capacity);
    for (std::size_t i = 0; i < size_; ++i) data[i] = (*this)[i];
    data_ = std::move(data);
    capacity_ = capacity;
    head_ = 0;
  }
  std::unique_ptr<T[]> data_;
  std::size_t capacity_ = 0;  // a power of two
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

using LogPosition = std::uint64_t;
inline constexpr LogPosition kNoPosition = ~LogPosition{0};

// Backed by std::deque: blocks of about 512 bytes, so capacity tracks the live size (a doubling
// ring held up to twice the peak) and the front is freed block by block.
template <class T>
class Log {
 public:
  LogPosition begin() const { return base_; }
  LogPosition end() const { return base_ + ring_.size(); }
  bool empty() const { return ring_.empty(); }
  bool contains(LogPosition p) const { return p >= base_ && p < end(); }
  std::size_t capacity_bytes() const {
    constexpr std::size_t per_block = sizeof(T) < 512 ? 512 / sizeof(T) : 1;
    return (ring_.size() / per_block + 2) * per_block * sizeof(T);
  }
  T& operator[](LogPosition p) { return ring_[static_cast<std::size_t>(p - base_)]; }
  const T& operator[](LogPosition p) const { return ring_[static_cast<std::size_t>(p - base_)]; }
  T& front() { return ring_.front(); }

  LogPosition push_back(const T& item) {
    ring_.push_back(item);
    return end() - 1;
  }
  void pop_back() { ring_.pop_back(); }
  void pop_front() {
    ring_.pop_front();
    ++base_;
  }
  void pop_front(std::size_t n) {
    ring_.erase(ring_.begin(), ring_.begin() + static_cast<std::ptrdiff_t>(n));
    base_ += n;
  }
  auto items_begin() { return ring_.begin(); }
  auto items_end() { return ring_.end(); }

 private:
  std::deque<T> ring_;
  LogPosition base_ = 0;
};

}  // namespace netwarp::engine
