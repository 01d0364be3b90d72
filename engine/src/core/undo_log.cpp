// UndoLog: rollback and front trimming.
#include "netwarp/engine/undo_log.hpp"

#include "netwarp/engine/check.hpp"

namespace netwarp::engine {

void UndoLog::undo_to(std::uint64_t mark) {
  NW_CHECK(mark >= base_ && mark <= this->mark(), "undo mark {} outside the live log", mark);
  const std::size_t stop = head_ + static_cast<std::size_t>(mark - base_);
  while (bytes_.size() > stop) {
    Header h;
    std::memcpy(&h, bytes_.data() + bytes_.size() - sizeof(Header), sizeof(Header));
    const std::size_t record_start = bytes_.size() - sizeof(Header) - h.body_bytes;
    h.fn(h.target, bytes_.data() + record_start);
    bytes_.resize_down(record_start);
  }
}

void UndoLog::undo_range(std::uint64_t begin, std::uint64_t end) {
  NW_CHECK(begin >= base_ && begin <= end && end <= mark(), "undo range [{}, {}) outside the log",
           begin, end);
  const std::size_t first = head_ + static_cast<std::size_t>(begin - base_);
  std::size_t at = head_ + static_cast<std::size_t>(end - base_);
  while (at > first) {
    Header h;
    std::memcpy(&h, bytes_.data() + at - sizeof(Header), sizeof(Header));
    at -= sizeof(Header) + h.body_bytes;
    h.fn(h.target, bytes_.data() + at);
  }
}

void UndoLog::truncate(std::uint64_t mark) {
  NW_CHECK(mark >= base_ && mark <= this->mark(), "undo mark {} outside the live log", mark);
  bytes_.resize_down(head_ + static_cast<std::size_t>(mark - base_));
}

std::uint64_t UndoLog::move_down(std::uint64_t to, std::uint64_t begin, std::uint64_t end) {
  NW_CHECK(to >= base_ && to <= begin && begin <= end && end <= mark(),
           "undo range [{}, {}) cannot move to {}", begin, end, to);
  if (to != begin && end > begin)
    std::memmove(bytes_.data() + head_ + (to - base_), bytes_.data() + head_ + (begin - base_),
                 static_cast<std::size_t>(end - begin));
  return to + (end - begin);
}

void UndoLog::forget_before(std::uint64_t mark) {
  NW_CHECK(mark >= base_ && mark <= this->mark(), "commit mark {} outside the live log", mark);
  head_ += static_cast<std::size_t>(mark - base_);
  base_ = mark;
  if (head_ == bytes_.size()) {
    bytes_.clear();
    head_ = 0;
  } else if (head_ > 4096 && head_ * 2 > bytes_.size()) {
    bytes_.erase_front(head_);
    head_ = 0;
  }
}

}  // namespace netwarp::engine
