// The bytes of one rank-to-rank message: a batch of entries, each a whole event (positive), an
// anti-message (the key and destination of an event to cancel) or, last, a promise (the sender
// will send nothing earlier than the key's time from now on; the sending rank rides in dest).
// Events travel as they are in memory; the entry kind rides in Event::state.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <span>
#include <vector>

#include "netwarp/engine/event.hpp"

namespace netwarp::engine {

enum class WireKind : std::uint8_t { positive = 0, anti = 1, promise = 2 };

class WireBatch {
 public:
  void add_positive(const Event& event) { add(event, WireKind::positive); }
  void add_anti(const EventKey& key, LpId dest) {
    Event e;
    e.key = key;
    e.dest = dest;
    e.size = 0;
    std::memset(e.payload, 0, sizeof e.payload);
    add(e, WireKind::anti);
  }
  // Added last, just before take(): it does not count in min_time.
  void add_promise(SimTime time, int sender) {
    Event e;
    e.key = EventKey{time, kNoLp, 0};
    e.dest = static_cast<LpId>(sender);
    e.size = 0;
    std::memset(e.payload, 0, sizeof e.payload);
    const SimTime least = min_time_;
    add(e, WireKind::promise);
    min_time_ = least;
  }
  std::size_t count() const { return bytes_.size() / sizeof(Event); }
  bool empty() const { return bytes_.empty(); }
  // Earliest time of any entry (max() when empty): GVT must not pass what is not sent yet.
  SimTime min_time() const { return min_time_; }
  // The batch's bytes; the batch goes on in `buffer` (emptied; its capacity kept, so a reused
  // buffer saves the allocations of growing a fresh one).
  std::vector<std::byte> take(std::vector<std::byte> buffer = {}) {
    min_time_ = SimTime::max();
    buffer.clear();
    return std::exchange(bytes_, std::move(buffer));
  }

  // Calls fn(kind, event) for every entry of a received message, in order.
  template <class Fn>
  static void for_each(std::span<const std::byte> bytes, Fn&& fn) {
    NW_CHECK(bytes.size() % sizeof(Event) == 0, "message of {} bytes is not a batch", bytes.size());
    for (std::size_t at = 0; at < bytes.size(); at += sizeof(Event)) {
      Event e;
      std::memcpy(&e, bytes.data() + at, sizeof e);
      const auto kind = static_cast<WireKind>(e.state);
      e.state = EventState::pending;
      fn(kind, e);
    }
  }

 private:
  void add(Event e, WireKind kind) {
    e.state = static_cast<EventState>(kind);
    min_time_ = std::min(min_time_, e.key.time);
    const std::size_t at = bytes_.size();
    bytes_.resize(at + sizeof(Event));
    std::memcpy(bytes_.data() + at, &e, sizeof e);
  }
  std::vector<std::byte> bytes_;
  SimTime min_time_ = SimTime::max();
};

}  // namespace netwarp::engine
