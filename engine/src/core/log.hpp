// Log: a sequence whose entries keep an absolute position for life, for logs appended at the
// back and reclaimed from the front.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "netwarp/engine/check.hpp"

namespace netwarp::engine {

using LogPosition = std::uint64_t;
inline constexpr LogPosition kNoPosition = ~LogPosition{0};

// Entries live in fixed blocks of kBlock; a block emptied at the front is kept for reuse at the
// back, so a log in steady state allocates nothing, and holds at most two blocks more than its
// live entries.
template <class T>
class Log {
  static_assert(std::is_trivially_copyable_v<T>);
  static constexpr unsigned kShift = 7;
  static constexpr std::size_t kBlock = std::size_t{1} << kShift;

 public:
  LogPosition begin() const { return begin_; }
  LogPosition end() const { return end_; }
  bool empty() const { return begin_ == end_; }
  bool contains(LogPosition p) const { return p >= begin_ && p < end_; }
  std::size_t capacity_bytes() const {
    return (blocks_.size() + (spare_ ? 1 : 0)) * kBlock * sizeof(T) +
           blocks_.capacity() * sizeof(void*);
  }
  T& operator[](LogPosition p) { return at(p); }
  const T& operator[](LogPosition p) const { return const_cast<Log*>(this)->at(p); }

  LogPosition push_back(const T& item) {
    if (end_ == first_block_ + blocks_.size() * kBlock) add_block();
    at(end_) = item;
    return end_++;
  }
  void pop_back() { --end_; }
  // Drops every entry from `new_end` on (compaction moved the ones it keeps below it).
  void truncate(LogPosition new_end) {
    NW_CHECK(new_end >= begin_ && new_end <= end_, "log truncated to {} outside [{}, {}]", new_end,
             begin_, end_);
    end_ = new_end;
  }
  void pop_front(std::size_t n = 1) {
    begin_ += n;
    std::size_t done = static_cast<std::size_t>((begin_ - first_block_) >> kShift);
    if (done == 0) return;
    if (!spare_) spare_ = std::move(blocks_[0]);
    blocks_.erase(blocks_.begin(), blocks_.begin() + static_cast<std::ptrdiff_t>(done));
    first_block_ += done * kBlock;
  }

  // Visits entries from the front while fn(entry) returns true; returns how many it visited
  // with true.
  template <class Fn>
  std::size_t visit_front_while(Fn&& fn) {
    std::size_t n = 0;
    for (LogPosition p = begin_; p < end_; ++p, ++n)
      if (!fn(at(p))) break;
    return n;
  }

 private:
  T& at(LogPosition p) {
    const auto offset = static_cast<std::size_t>(p - first_block_);
    return blocks_[offset >> kShift][offset & (kBlock - 1)];
  }
  void add_block() {
    blocks_.push_back(spare_ ? std::move(spare_) : std::make_unique_for_overwrite<T[]>(kBlock));
  }

  std::vector<std::unique_ptr<T[]>> blocks_;  // blocks_[0] starts at position first_block_
  std::unique_ptr<T[]> spare_;
  LogPosition first_block_ = 0;
  LogPosition begin_ = 0;
  LogPosition end_ = 0;
};

}  // namespace netwarp::engine
