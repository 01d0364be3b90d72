// The undo log behind incremental state saving: every write to a reversible field appends
// a record (how to undo, where, the old bytes); rollback applies an event's records newest
// first. Positions (marks) are absolute; the log is trimmed from the front as events commit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "netwarp/engine/byte_buffer.hpp"

namespace netwarp::engine {

class UndoLog {
 public:
  // Restores `target` from the saved bytes.
  using UndoFn = void (*)(void* target, const std::byte* saved);

  template <class Saved>
  void push(UndoFn fn, void* target, const Saved& saved) {
    static_assert(std::is_trivially_copyable_v<Saved>);
    const std::size_t body = padded(sizeof(Saved));
    std::byte* at = bytes_.grow_by(body + sizeof(Header));
    std::memcpy(at, &saved, sizeof(Saved));
    const Header h{fn, target, static_cast<std::uint32_t>(body)};
    std::memcpy(at + body, &h, sizeof(Header));
  }

  // Position to roll back to; stable across trim_front.
  std::uint64_t mark() const { return base_ + bytes_.size() - head_; }
  // Applies undo records, newest first, until the log is back at `mark`.
  void undo_to(std::uint64_t mark);
  // Applies the records in [begin, end), newest first, and leaves them in place.
  void undo_range(std::uint64_t begin, std::uint64_t end);
  // Drops the records from `mark` on without applying them.
  void truncate(std::uint64_t mark);
  // Moves the records in [begin, end) down to `to` (to <= begin), for compacting the log: the
  // records keep their order and content, at new marks. Returns the mark after them.
  std::uint64_t move_down(std::uint64_t to, std::uint64_t begin, std::uint64_t end);
  // Forgets everything before `mark` (those events committed).
  void forget_before(std::uint64_t mark);
  // The first mark not yet forgotten.
  std::uint64_t forgotten() const { return base_; }
  bool empty() const { return bytes_.size() == head_; }
  std::size_t capacity_bytes() const { return bytes_.capacity(); }
  std::size_t live_bytes() const { return bytes_.size() - head_; }

 private:
  struct Header {
    UndoFn fn;
    void* target;
    std::uint32_t body_bytes;
  };
  static constexpr std::size_t padded(std::size_t n) { return (n + 7) & ~std::size_t{7}; }

  ByteBuffer bytes_;
  std::size_t head_ = 0;    // first live byte in bytes_
  std::uint64_t base_ = 0;  // mark of bytes_[head_]
};

}  // namespace netwarp::engine
