// ByteBuffer: a growable byte array that does not zero what it grows into (the logs write every
// byte they claim) and keeps its capacity when shrunk.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>

namespace netwarp::engine {

class ByteBuffer {
 public:
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  std::byte* data() { return data_.get(); }
  const std::byte* data() const { return data_.get(); }

  // Claims `n` more bytes at the end and returns where they start.
  std::byte* grow_by(std::size_t n) {
    if (size_ + n > capacity_) reserve(std::max(capacity_ * 2, size_ + n));
    std::byte* at = data_.get() + size_;
    size_ += n;
    return at;
  }
  void resize_down(std::size_t n) { size_ = n; }
  void clear() { size_ = 0; }
  // Drops the first `n` bytes, moving the rest to the front.
  void erase_front(std::size_t n) {
    std::memmove(data_.get(), data_.get() + n, size_ - n);
    size_ -= n;
  }

 private:
  void reserve(std::size_t capacity) {
    auto grown = std::make_unique_for_overwrite<std::byte[]>(capacity);
    if (size_ > 0) std::memcpy(grown.get(), data_.get(), size_);
    data_ = std::move(grown);
    capacity_ = capacity;
  }
  std::unique_ptr<std::byte[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace netwarp::engine
