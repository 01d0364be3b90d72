// Shared by the reversible-state and undo-log tests: odd-sized element types and a harness that
// owns what an EventScope points at.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <string_view>
#include <vector>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/reversible.hpp"
#include "netwarp/engine/state_visitor.hpp"
#include "netwarp/engine/undo_log.hpp"

namespace netwarp::engine::testing {

// 13 bytes: undo bodies are padded to 8, so this exercises the padding.
struct Odd {
  std::uint8_t bytes[13];
  friend bool operator==(const Odd&, const Odd&) = default;
};

struct Flow {
  std::uint64_t bytes;
  std::uint32_t seq;
  std::uint16_t port;
  std::uint8_t flags;
  std::uint8_t reserved;
  friend bool operator==(const Flow&, const Flow&) = default;
};

class NullRouter final : public EventRouter {
 public:
  void route(const Event&) override {}
};

// Owns what an EventScope points at; ctx() logs into `undo`, unlogged_ctx() logs nothing.
class Harness {
 public:
  EventCtx ctx() { return EventCtx(logged_); }
  EventCtx unlogged_ctx() { return EventCtx(unlogged_); }
  UndoLog undo;

 private:
  EventScope scope(UndoLog* log) {
    EventScope s;
    s.self = 3;
    s.key = EventKey{us(1), 2, 7};
    s.send_counter = &send_counter_;
    s.undo = log;
    s.records = &records_;
    s.router = &router_;
    return s;
  }
  std::uint64_t send_counter_ = 0;
  RecordBuffer records_;
  NullRouter router_;
  EventScope logged_ = scope(&undo);
  EventScope unlogged_ = scope(nullptr);
};

inline Odd make_odd(std::uint64_t x) {
  Odd o{};
  for (std::size_t i = 0; i < sizeof o.bytes; ++i) o.bytes[i] = static_cast<std::uint8_t>(x >> i);
  o.bytes[12] = static_cast<std::uint8_t>(x * 31);
  return o;
}

inline Flow make_flow(std::uint64_t x) {
  return Flow{x, static_cast<std::uint32_t>(x * 7), static_cast<std::uint16_t>(x),
              static_cast<std::uint8_t>(x >> 3), 0};
}

// The elements of a RevFifo, front to back.
template <class T, class Container>
std::vector<T> contents(const RevFifo<T, Container>& fifo) {
  return std::vector<T>(fifo.begin(), fifo.end());
}

// The bytes a field's state visit writes (what the LP state hash covers), to compare two
// containers' state as the digests see it.
class ByteRecorder final : public StateVisitor {
 public:
  void begin_field(std::string_view) override {}
  void bytes(const void* data, std::size_t size) override {
    const auto* p = static_cast<const std::byte*>(data);
    out.insert(out.end(), p, p + size);
  }
  std::vector<std::byte> out;
};

template <class T>
std::vector<std::byte> state_bytes(const T& field) {
  ByteRecorder r;
  r("field", field);
  return r.out;
}

}  // namespace netwarp::engine::testing
