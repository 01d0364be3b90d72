// RecordBuffer: records emitted by events that have not committed yet, packed as
// [tag][size][bytes padded to 8]. Truncated on rollback, drained from the front on commit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "netwarp/engine/byte_buffer.hpp"

#include "netwarp/engine/event.hpp"

namespace netwarp::engine {

class RecordBuffer {
 public:
  template <Record R>
  void append(const R& record) {
    append_bytes(tag_of<R>, &record, sizeof(R));
  }
  void append_bytes(PayloadTag tag, const void* data, std::size_t size);

  std::uint64_t mark() const { return base_ + bytes_.size() - head_; }
  bool empty() const { return bytes_.size() == head_; }
  void truncate(std::uint64_t mark);
  // Forgets the records before `end_mark` without reading them (their event was undone).
  void discard_to(std::uint64_t end_mark) {
    drain_to(end_mark, [](PayloadTag, std::span<const std::byte>) {});
  }
  // Calls fn(tag, span) for every record in [mark(), end_mark) in order, then forgets them.
  template <class Fn>
  void drain_to(std::uint64_t end_mark, Fn&& fn);
  std::size_t capacity_bytes() const { return bytes_.capacity(); }
  // The raw bytes of the records appended since `mark` (for comparing two executions).
  std::span<const std::byte> bytes_since(std::uint64_t mark) const {
    return {bytes_.data() + head_ + (mark - base_), bytes_.size() - head_ - (mark - base_)};
  }

 private:
  struct Header {
    PayloadTag tag;
    std::uint32_t size;
  };
  ByteBuffer bytes_;
  std::size_t head_ = 0;
  std::uint64_t base_ = 0;
};

template <class Fn>
void RecordBuffer::drain_to(std::uint64_t end_mark, Fn&& fn) {
  NW_CHECK(end_mark >= base_ && end_mark <= mark(), "record mark {} out of range", end_mark);
  const std::size_t stop = head_ + static_cast<std::size_t>(end_mark - base_);
  while (head_ < stop) {
    Header h;
    std::memcpy(&h, bytes_.data() + head_, sizeof h);
    fn(h.tag, std::span<const std::byte>(bytes_.data() + head_ + sizeof h, h.size));
    head_ += sizeof h + ((h.size + 7) & ~std::size_t{7});
  }
  base_ = end_mark;
  if (head_ == bytes_.size()) {
    bytes_.clear();
    head_ = 0;
  } else if (head_ > 4096 && head_ * 2 > bytes_.size()) {
    bytes_.erase_front(head_);
    head_ = 0;
  }
}

}  // namespace netwarp::engine
