// The total order of events. Among events at one instant the order is physically neutral:
// under TieOrder::fifo the event scheduled earlier (at an earlier simulated time) comes first, as
// in ns-3 and most sequential simulators, and events scheduled at the same instant by different
// LPs are ordered by a seeded draw per (creator, send time), never by LP number; one LP's own
// events of one instant stay in the order it sent them (its send counter). TieOrder::creator is
// the old order (time, creator, counter), kept for comparison: the lowest LP wins every tie.
// TieOrder::fifo_creator follows ns-3's order (events run in the order they were scheduled,
// by a global counter) two levels deep: among events scheduled at the same instant, those
// whose scheduling event had itself been scheduled earlier come first, then the
// lowest-numbered creator (ns-3 installs and starts nodes in node order).
// Every field is a function of the model alone, never of how LPs are spread over ranks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "netwarp/engine/sim_time.hpp"
#include "netwarp/engine/splitmix.hpp"

namespace netwarp::engine {

using LpId = std::uint32_t;
inline constexpr LpId kNoLp = ~LpId{0};

enum class TieOrder : std::uint8_t { fifo, creator, fifo_creator };
std::string_view tie_order_name(TieOrder order);

struct EventKey {
  constexpr EventKey() = default;
  constexpr EventKey(SimTime t, LpId c, std::uint64_t n) : time(t), creator(c), counter(n) {}
  constexpr EventKey(SimTime t, SimTime s, std::uint32_t draw, LpId c, std::uint64_t n)
      : time(t), sent(s), creator(c), tie(draw), counter(n) {}

  SimTime time;
  SimTime sent;  // when the creator scheduled it (fifo); zero under TieOrder::creator
  LpId creator = kNoLp;
  std::uint32_t tie = 0;  // the seeded draw of (creator, sent) (fifo); zero otherwise
  std::uint64_t counter = 0;

  friend constexpr bool operator==(const EventKey&, const EventKey&) = default;
  friend constexpr bool operator<(const EventKey& a, const EventKey& b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.sent != b.sent) return a.sent < b.sent;
    if (a.tie != b.tie) return a.tie < b.tie;
    if (a.creator != b.creator) return a.creator < b.creator;
    return a.counter < b.counter;
  }
  friend constexpr bool operator>(const EventKey& a, const EventKey& b) { return b < a; }
  friend constexpr bool operator<=(const EventKey& a, const EventKey& b) { return !(b < a); }
};
static_assert(sizeof(EventKey) == 32, "keys travel and are hashed as bytes: no padding");

// The tie fields of an event that `creator` schedules at simulated time `sent`. The draw is a
// counter-based one (SplitMix64's finaliser over the seed, the creator and the send time): one
// per handler invocation, as cheap as one random draw and just as reproducible.
struct TieFields {
  SimTime sent;
  std::uint32_t tie = 0;
};
// `parent_sent`: when the event whose handler sends was itself scheduled (fifo_creator only).
inline TieFields tie_fields(TieOrder order, std::uint64_t seed, LpId creator, SimTime sent,
                            SimTime parent_sent = SimTime::zero()) {
  if (order == TieOrder::creator) return {};
  if (order == TieOrder::fifo_creator) {
    // An earlier parent gives a larger gap and a smaller tie; gaps of 4.3 ms or more are equal.
    const std::uint64_t gap = static_cast<std::uint64_t>(sent.ps() - parent_sent.ps());
    return {sent,
            static_cast<std::uint32_t>(UINT32_MAX - std::min<std::uint64_t>(gap, UINT32_MAX))};
  }
  const std::uint64_t z =
      splitmix64_finalize((seed * kWyhashPrime) ^ (creator * kGoldenGamma) ^
                          (static_cast<std::uint64_t>(sent.ps()) * kR2Multiplier));
  return {sent, static_cast<std::uint32_t>(z >> 32)};
}

}  // namespace netwarp::engine
