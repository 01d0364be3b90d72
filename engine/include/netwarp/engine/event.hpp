// The engine's event: header (key, destination, payload type) and the payload bytes. Events
// are plain bytes end to end, so a batch of them is an MPI message as it stands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/event_key.hpp"
#include "netwarp/engine/payload.hpp"

namespace netwarp::engine {

enum class EventState : std::uint8_t { pending, processed, cancelled };

struct Event {
  EventKey key;
  LpId dest = kNoLp;
  PayloadTag tag = 0;
  std::uint8_t size = 0;
  EventState state = EventState::pending;
  bool from_remote = false;
  std::uint8_t reserved = 0;
  std::uint32_t arrival = 0;  // receiving rank's count of remote events when it arrived
  alignas(8) std::byte payload[kMaxPayloadBytes];

  template <Payload P>
  bool holds() const {
    return tag == tag_of<P>;
  }
  template <Payload P>
  P as() const {
    NW_CHECK(holds<P>(), "event payload is not a {}", type_name<P>());
    P p;
    std::memcpy(&p, payload, sizeof(P));
    return p;
  }
  std::span<const std::byte> payload_bytes() const { return {payload, size}; }
};
static_assert(sizeof(Event) == 120, "keep the event header compact");

// A record emitted by a committed event (or by an LP's finish step), as the sink sees it.
struct CommittedRecord {
  LpId lp = kNoLp;
  EventKey key;  // the event that produced it; finish records use (end time, lp, ~0)
  PayloadTag tag = 0;
  std::span<const std::byte> bytes;

  template <Record R>
  bool holds() const {
    return tag == tag_of<R>;
  }
  template <Record R>
  R as() const {
    NW_CHECK(holds<R>() && bytes.size() == sizeof(R), "record is not a {}", type_name<R>());
    R r;
    std::memcpy(&r, bytes.data(), sizeof(R));
    return r;
  }
};

// Receives committed output. Called in key order per LP; records of rolled-back events never
// arrive here.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  virtual void write(const CommittedRecord& record) = 0;
};

}  // namespace netwarp::engine
