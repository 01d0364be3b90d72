// The total order of events: (time, creator LP, creator's send counter). The counter is LP
// state, so a key depends only on the model, never on how LPs are spread over ranks.
#pragma once

#include <cstdint>

#include "netwarp/engine/sim_time.hpp"

namespace netwarp::engine {

using LpId = std::uint32_t;
inline constexpr LpId kNoLp = ~LpId{0};

struct EventKey {
  constexpr EventKey() = default;
  constexpr EventKey(SimTime t, LpId c, std::uint64_t n) : time(t), creator(c), counter(n) {}

  SimTime time;
  LpId creator = kNoLp;
  std::uint32_t reserved = 0;  // explicit padding: keys travel and are hashed as bytes
  std::uint64_t counter = 0;

  friend constexpr bool operator==(const EventKey&, const EventKey&) = default;
  friend constexpr bool operator<(const EventKey& a, const EventKey& b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.creator != b.creator) return a.creator < b.creator;
    return a.counter < b.counter;
  }
  friend constexpr bool operator>(const EventKey& a, const EventKey& b) { return b < a; }
  friend constexpr bool operator<=(const EventKey& a, const EventKey& b) { return !(b < a); }
};

}  // namespace netwarp::engine
