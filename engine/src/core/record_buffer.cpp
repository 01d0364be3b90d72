// RecordBuffer: appending and truncation.
#include "netwarp/engine/record_buffer.hpp"

namespace netwarp::engine {

void RecordBuffer::append_bytes(PayloadTag tag, const void* data, std::size_t size) {
  const Header h{tag, static_cast<std::uint32_t>(size)};
  const std::size_t at = bytes_.size();
  bytes_.resize(at + sizeof h + ((size + 7) & ~std::size_t{7}));
  std::memcpy(bytes_.data() + at, &h, sizeof h);
  std::memcpy(bytes_.data() + at + sizeof h, data, size);
}

void RecordBuffer::truncate(std::uint64_t mark) {
  NW_CHECK(mark >= base_ && mark <= this->mark(), "record mark {} out of range", mark);
  bytes_.resize(head_ + static_cast<std::size_t>(mark - base_));
}

}  // namespace netwarp::engine
