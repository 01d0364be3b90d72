// EventCtx: what an event handler may do. Read the time and its own id, schedule events,
// draw random numbers, change reversible state, and emit records that are written only when
// the event commits. The kernel decides where sends go and whether writes are logged.
#pragma once

#include <concepts>
#include <cstdint>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "netwarp/engine/event.hpp"
#include "netwarp/engine/random.hpp"
#include "netwarp/engine/record_buffer.hpp"
#include "netwarp/engine/reversible.hpp"

namespace netwarp::engine {

// Where a handler's new events go; implemented by each kernel.
class EventRouter {
 public:
  virtual ~EventRouter() = default;
  virtual void route(const Event& event) = 0;
};

// Everything the kernel hands one handler invocation.
// The small fields share the last word: with no padding inside, GCC builds a scope field by
// field instead of clearing it first with a slow `rep stos` (measured on sequential PHOLD).
struct EventScope {
  EventKey key;  // of the event being handled; init uses (0, self, ~0)
  std::uint64_t seed = 0;
  std::uint64_t* send_counter = nullptr;
  UndoLog* undo = nullptr;  // null in the sequential kernel
  RecordBuffer* records = nullptr;
  EventRouter* router = nullptr;
  LpId self = kNoLp;
  bool is_init = false;
  TieOrder tie_order = TieOrder::fifo;
};

class EventCtx {
 public:
  // `scope` must outlive the context (the kernels build it for one handler invocation).
  explicit EventCtx(const EventScope& scope) : scope_(scope) {}

  SimTime now() const { return scope_.is_init ? SimTime::zero() : scope_.key.time; }
  LpId self() const { return scope_.self; }
  const EventKey& key() const { return scope_.key; }
  // Set up on first use: most network handlers draw nothing.
  EventRng& rng() {
    if (!rng_) rng_.emplace(scope_.seed, scope_.self, scope_.key);
    return *rng_;
  }

  // Schedules `payload` at dest after `delay`. Handlers need delay >= 1 ps (so an event never
  // lands before one already handled in the same instant); init may use 0.
  template <Payload P>
  void send(LpId dest, SimTime delay, const P& payload) {
    route(dest, delay, payload, tie());
  }
  // The same for an event that another simulator would schedule from another event, as ns-3
  // schedules a frame's arrival when a busy line starts it, from the previous frame's
  // completion: `scheduled` (engine::scheduled_by) places it among the events of its instant
  // under TieOrder::fifo_creator; under the other orders this is send().
  template <Payload P>
  void send_stamped(LpId dest, SimTime delay, const P& payload, const TieFields& scheduled) {
    if (!follows_chains()) return route(dest, delay, payload, tie());
    route(dest, delay, payload, scheduled);
  }
  // Whether events of one instant are ordered by their chains of scheduling times
  // (TieOrder::fifo_creator), so that send_stamped's fields matter.
  bool follows_chains() const { return scope_.tie_order == TieOrder::fifo_creator; }
  // The tie fields of the event being handled (send() schedules from them).
  TieFields running_fields() const { return tie_fields_of(scope_.key); }
  template <Payload P>
  void send_self(SimTime delay, const P& payload) {
    send(scope_.self, delay, payload);
  }

  template <Record R>
  void emit(const R& record) {
    scope_.records->append(record);
  }

  template <class T>
  void set(Rev<T>& field, const T& value) {
    field.set(value, mutation());
  }
  void add(RevCounter& counter, std::int64_t delta) { counter.add(delta, mutation()); }
  template <class C>
  void push_back(RevSequence<C>& sequence, const typename C::value_type& item) {
    sequence.push_back(item, mutation());
  }
  template <class C>
  typename C::value_type pop_back(RevSequence<C>& sequence) {
    return sequence.pop_back(mutation());
  }
  template <class T, class Container>
  T pop_front(RevFifo<T, Container>& fifo) {
    return fifo.pop_front(mutation());
  }
  template <class T>
  void set(RevVector<T>& vec, std::size_t i, const T& value) {
    vec.set(i, value, mutation());
  }
  template <class K, class V>
  void put(RevMap<K, V>& map, const K& key, const V& value) {
    map.put(key, value, mutation());
  }
  template <class K, class V>
  bool erase(RevMap<K, V>& map, const K& key) {
    return map.erase(key, mutation());
  }
  template <std::unsigned_integral K, class V>
  void put(RevHashMap<K, V>& map, const K& key, const V& value) {
    map.put(key, value, mutation());
  }
  template <std::unsigned_integral K, class V>
  bool erase(RevHashMap<K, V>& map, const K& key) {
    return map.erase(key, mutation());
  }

 private:
  template <Payload P>
  void route(LpId dest, SimTime delay, const P& payload, const TieFields& tie) {
    NW_CHECK(delay.ps() >= (scope_.is_init ? 0 : 1), "send delay must be >= 1 ps, got {} ps",
             delay.ps());
    if (delay.ps() >= SimTime::max().ps() - now().ps()) [[unlikely]]
      throw SimTimeOverflow(fmt::format(
          "simulated time overflow: an event at {} ps plus {} ps passes the {} ps (106 days) "
          "that simulated time can count",
          now().ps(), delay.ps(), SimTime::max().ps()));
    Event e;
    e.key = EventKey{now() + delay, tie.sent,    tie.tie,
                     tie.chain,     scope_.self, (*scope_.send_counter)++};
    e.dest = dest;
    e.tag = tag_of<P>;
    e.size = sizeof(P);
    std::memset(e.payload, 0, sizeof e.payload);
    std::memcpy(e.payload, &payload, sizeof(P));
    scope_.router->route(e);
  }
  // The tie fields of every event this invocation sends, drawn on its first send.
  const TieFields& tie() {
    if (!tie_)
      tie_ =
          tie_fields(scope_.tie_order, scope_.seed, scope_.self, now(), tie_fields_of(scope_.key));
    return *tie_;
  }
  Mutation mutation() const { return Mutation(scope_.undo); }
  const EventScope& scope_;
  std::optional<EventRng> rng_;
  std::optional<TieFields> tie_;
};

using InitCtx = EventCtx;

}  // namespace netwarp::engine
