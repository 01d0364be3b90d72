// EventPool: events live in fixed chunks (stable addresses while handlers run) and are named by
// 32-bit ids; freed slots are reused.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "netwarp/engine/event.hpp"

namespace netwarp::engine {

using EventId = std::uint32_t;

class EventPool {
  // An event in two whole cache lines: at its own 120 bytes, six events in eight straddle three
  // lines, and a handler that reads the header and the payload misses on each (bench/SCALE.md).
  struct alignas(64) Slot {
    Event event;
  };

 public:
  static constexpr std::size_t kBytesPerEvent = sizeof(Slot);
  EventId allocate() {
    if (free_.empty()) add_chunk();
    const EventId id = free_.back();
    free_.pop_back();
    ++live_;
    if (live_ > peak_live_) peak_live_ = live_;
    return id;
  }
  void release(EventId id) {
    free_.push_back(id);
    --live_;
  }
  Event& operator[](EventId id) { return chunks_[id >> kChunkBits][id & kChunkMask].event; }
  const Event& operator[](EventId id) const {
    return chunks_[id >> kChunkBits][id & kChunkMask].event;
  }
  std::size_t live() const { return live_; }
  std::size_t peak_live() const { return peak_live_; }
  std::size_t capacity_bytes() const {
    return chunks_.size() * (kChunkSize * sizeof(Slot)) + free_.capacity() * sizeof(EventId);
  }

 private:
  static_assert(sizeof(Slot) == 128);

  static constexpr unsigned kChunkBits = 8;
  static constexpr std::size_t kChunkSize = std::size_t{1} << kChunkBits;
  static constexpr EventId kChunkMask = kChunkSize - 1;

  [[gnu::cold, gnu::noinline]] void add_chunk() {
    const auto first = static_cast<EventId>(chunks_.size() * kChunkSize);
    chunks_.push_back(std::make_unique<Slot[]>(kChunkSize));
    for (std::size_t i = kChunkSize; i-- > 0;) free_.push_back(first + static_cast<EventId>(i));
  }
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  std::vector<EventId> free_;
  std::size_t live_ = 0;
  std::size_t peak_live_ = 0;
};

}  // namespace netwarp::engine
