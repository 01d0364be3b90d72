// RingDeque<T>: a double-ended queue of trivially copyable elements in one power-of-two ring.
// It allocates nothing until the first push, grows by doubling and never shrinks: a model with
// thousands of mostly empty queues (a switch port's waiting packets) pays 24 bytes for each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

#include "netwarp/engine/index_iterator.hpp"

namespace netwarp::engine {

template <class T>
class RingDeque {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  using value_type = T;
  using const_iterator = IndexIterator<RingDeque>;

  RingDeque() = default;
  RingDeque(const RingDeque& other) { *this = other; }
  RingDeque& operator=(const RingDeque& other) {
    if (this == &other) return *this;
    clear();
    for (const T& item : other) push_back(item);
    return *this;
  }
  RingDeque(RingDeque&& other) noexcept { *this = std::move(other); }
  RingDeque& operator=(RingDeque&& other) noexcept {
    items_ = std::move(other.items_);
    mask_ = std::exchange(other.mask_, 0);
    head_ = std::exchange(other.head_, 0);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  const T& operator[](std::size_t i) const { return items_[(head_ + i) & mask_]; }
  const T& front() const { return items_[head_]; }
  const T& back() const { return (*this)[size_ - 1]; }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size_); }

  void push_back(const T& item) {
    if (size_ == capacity()) grow();
    items_[(head_ + size_) & mask_] = item;
    ++size_;
  }
  void push_front(const T& item) {
    if (size_ == capacity()) grow();
    head_ = static_cast<std::uint32_t>((head_ + mask_) & mask_);
    items_[head_] = item;
    ++size_;
  }
  void pop_back() { --size_; }
  void pop_front() {
    head_ = static_cast<std::uint32_t>((head_ + 1) & mask_);
    --size_;
  }
  void clear() {
    head_ = 0;
    size_ = 0;
  }

 private:
  std::size_t capacity() const { return items_ ? mask_ + 1 : 0; }
  void grow() {
    const std::size_t new_capacity = items_ ? 2 * (mask_ + 1) : 4;
    auto bigger = std::make_unique_for_overwrite<T[]>(new_capacity);
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
    items_ = std::move(bigger);
    mask_ = new_capacity - 1;
    head_ = 0;
  }

  std::unique_ptr<T[]> items_;
  std::size_t mask_ = 0;
  std::uint32_t head_ = 0;
  std::uint32_t size_ = 0;
};

}  // namespace netwarp::engine
