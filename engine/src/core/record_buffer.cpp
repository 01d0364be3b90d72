// RecordBuffer: appending and truncation.
#include "netwarp/engine/record_buffer.hpp"

namespace netwarp::engine {

void RecordBuffer::append_bytes(PayloadTag tag, const void* data, std::size_t size) {
  const Header h{tag, static_cast<std::uint32_t>(size)};
  const std::size_t padded = (size + 7) & ~std::size_t{7};
  std::byte* at = bytes_.grow_by(sizeof h + padded);
  std::memcpy(at, &h, sizeof h);
  if (size > 0) std::memcpy(at + sizeof h, data, size);
  std::memset(at + sizeof h + size, 0, padded - size);  // records are hashed and compared as bytes
}

void RecordBuffer::truncate(std::uint64_t mark) {
  NW_CHECK(mark >= base_ && mark <= this->mark(), "record mark {} out of range", mark);
  bytes_.resize_down(head_ + static_cast<std::size_t>(mark - base_));
}

std::uint64_t RecordBuffer::move_down(std::uint64_t to, std::uint64_t begin, std::uint64_t end) {
  NW_CHECK(to >= base_ && to <= begin && begin <= end && end <= mark(),
           "record range [{}, {}) cannot move to {}", begin, end, to);
  if (to != begin && end > begin)
    std::memmove(bytes_.data() + head_ + (to - base_), bytes_.data() + head_ + (begin - base_),
                 static_cast<std::size_t>(end - begin));
  return to + (end - begin);
}

}  // namespace netwarp::engine
