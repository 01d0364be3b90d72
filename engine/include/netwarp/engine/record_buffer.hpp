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
  // Calls fn(tag, span) for every record in [begin, end) in order, and keeps them.
  template <class Fn>
  void for_each_in(std::uint64_t begin, std::uint64_t end, Fn&& fn) const;
  // Moves the records in [begin, end) down to `to` (to <= begin), for compaction. Returns the
  // mark after them.
  std::uint64_t move_down(std::uint64_t to, std::uint64_t begin, std::uint64_t end);
  std::size_t capacity_bytes() const { return bytes_.capacity(); }
  std::size_t live_bytes() const { return bytes_.size() - head_; }
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
void RecordBuffer::for_each_in(std::uint64_t begin, std::uint64_t end, Fn&& fn) const {
  NW_CHECK(begin >= base_ && begin <= end && end <= mark(), "record range [{}, {}) out of range",
           begin, end);
  std::size_t at = head_ + static_cast<std::size_t>(begin - base_);
  const std::size_t stop = head_ + static_cast<std::size_t>(end - base_);
  while (at < stop) {
    Header h;
    std::memcpy(&h, bytes_.data() + at, sizeof h);
    fn(h.tag, std::span<const std::byte>(bytes_.data() + at + sizeof h, h.size));
    at += sizeof h + ((h.size + 7) & ~std::size_t{7});
  }
}

template <class Fn>
void RecordBuffer::drain_to(std::uint64_t end_mark, Fn&& fn) {
  // Nothing to drain (fossil collection discards up to every entry it commits, and usually no
  // rolled-back records lie in front of it): return before the range check and the walk.
  if (end_mark == base_) return;
  for_each_in(base_, end_mark, fn);
  head_ += static_cast<std::size_t>(end_mark - base_);
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
