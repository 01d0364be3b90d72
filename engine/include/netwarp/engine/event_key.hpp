// The total order of events. Among events at one instant the order is physically neutral:
// under TieOrder::fifo the event scheduled earlier (at an earlier simulated time) comes first, as
// in ns-3 and most sequential simulators, and events scheduled at the same instant by different
// LPs are ordered by a seeded draw per (creator, send time), never by LP number; one LP's own
// events of one instant stay in the order it sent them (its send counter). TieOrder::creator is
// the old order (time, creator, counter), kept for comparison: the lowest LP wins every tie.
// TieOrder::fifo_creator follows ns-3's order (events run in the order they were scheduled,
// by a global counter): among events scheduled at the same instant, those whose scheduling
// event had itself been scheduled earlier come first, and so on back along the chain of
// scheduling events (`tie` and `chain` below), then the lowest-numbered creator (ns-3 installs
// and starts nodes in node order).
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
  constexpr EventKey(SimTime t, SimTime s, std::uint32_t draw, std::uint64_t ch, LpId c,
                     std::uint64_t n)
      : time(t), sent(s), creator(c), tie(draw), chain(ch), counter(n) {}

  SimTime time;
  SimTime sent;  // when the creator scheduled it (fifo); zero under TieOrder::creator
  LpId creator = kNoLp;
  // fifo: the seeded draw of (creator, sent); fifo_creator: the gap back to when the scheduling
  // event was scheduled (tie_gap_code); zero otherwise.
  std::uint32_t tie = 0;
  std::uint64_t chain = 0;  // fifo_creator: the gaps further back (chain_after); zero otherwise
  std::uint64_t counter = 0;

  friend constexpr bool operator==(const EventKey&, const EventKey&) = default;
  friend constexpr bool operator<(const EventKey& a, const EventKey& b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.sent != b.sent) return a.sent < b.sent;
    if (a.tie != b.tie) return a.tie < b.tie;
    if (a.chain != b.chain) return a.chain < b.chain;
    if (a.creator != b.creator) return a.creator < b.creator;
    return a.counter < b.counter;
  }
  friend constexpr bool operator>(const EventKey& a, const EventKey& b) { return b < a; }
  friend constexpr bool operator<=(const EventKey& a, const EventKey& b) { return !(b < a); }
};
static_assert(sizeof(EventKey) == 40, "keys travel and are hashed as bytes: no padding");

// The fields that place an event among those of its instant, before its creator and counter.
struct TieFields {
  SimTime sent;
  std::uint64_t chain = 0;
  std::uint32_t tie = 0;
  std::uint32_t reserved = 0;  // no padding: ports keep these as state, hashed as bytes

  friend constexpr bool operator==(const TieFields&, const TieFields&) = default;
  // The order the fields give two events of one instant (the key's, without creator).
  friend constexpr bool operator<(const TieFields& a, const TieFields& b) {
    if (a.sent != b.sent) return a.sent < b.sent;
    if (a.tie != b.tie) return a.tie < b.tie;
    return a.chain < b.chain;
  }
};
inline constexpr TieFields tie_fields_of(const EventKey& key) {
  return {key.sent, key.chain, key.tie, 0};
}

// --- fifo_creator: ns-3's chain of scheduling times ------------------------------------------
// An event's chain is c0 = sent, c1 = when the event that scheduled it was scheduled, c2, ...;
// ns-3 runs two events of one instant in the lexicographic order of their chains (an earlier
// scheduling time first at the first level that differs). Kept as the gaps g1 = c0 - c1,
// g2 = c1 - c2, ..., a larger gap first: `tie` codes g1, `chain` the run of equal gaps that
// begins at g2 (a NIC's back-to-back frames make long ones) and the gap that ends it.
//   bits 63..32  gap_code(g2)
//   bit  31      0 when the gap after the run is larger than g2 (that chain is earlier the
//                shorter its run), 1 when smaller (the longer its run)
//   bits 30..24  the run's length (up to 127), as is after a larger gap, 127 - length after a
//                smaller one: so a smaller field is the earlier chain either way
//   bits 23..0   the top 24 bits of gap_code of the gap that ends the run
// A chain of 0 is an unknown past (as gaps of 4.3 ms or more): init's events, other orders.

// A larger gap gives a smaller code; gaps of 4.3 ms (2^32 ps) or more are equal.
inline constexpr std::uint32_t gap_code(std::int64_t gap_ps) {
  const auto gap = static_cast<std::uint64_t>(std::max<std::int64_t>(gap_ps, 0));
  return static_cast<std::uint32_t>(UINT32_MAX - std::min<std::uint64_t>(gap, UINT32_MAX));
}

// The chain of an event scheduled by `parent`'s event (the gap parent.tie codes comes first).
inline constexpr std::uint64_t chain_after(const TieFields& parent) {
  constexpr std::uint64_t kMaxRun = 127;
  const std::uint32_t first = parent.tie;
  const auto run_code = static_cast<std::uint32_t>(parent.chain >> 32);
  const bool after_smaller = (parent.chain >> 31 & 1) != 0;
  const std::uint64_t field = parent.chain >> 24 & kMaxRun;
  const std::uint64_t run = after_smaller ? kMaxRun - field : field;
  if (run != 0 && run_code == first) {  // the run goes on
    const std::uint64_t longer = std::min(run + 1, kMaxRun);
    return (parent.chain & ~(kMaxRun << 24)) | ((after_smaller ? kMaxRun - longer : longer) << 24);
  }
  // A new run of one; the parent's run (or its unknown past, as 4.3 ms) ends it. A larger gap
  // has a smaller code.
  const bool ends_smaller = run != 0 && run_code > first;
  const std::uint64_t ends = run != 0 ? run_code : 0;
  return std::uint64_t{first} << 32 | std::uint64_t{ends_smaller} << 31 |
         (ends_smaller ? kMaxRun - 1 : 1) << 24 | ends >> 8;
}

// The fields of an event scheduled at `at` by an event whose fields are `parent`.
inline constexpr TieFields scheduled_by(const TieFields& parent, SimTime at) {
  return {at, chain_after(parent), gap_code(at.ps() - parent.sent.ps()), 0};
}

// The tie fields of an event that `creator` schedules at simulated time `sent`. The draw is a
// counter-based one (SplitMix64's finaliser over the seed, the creator and the send time): one
// per handler invocation, as cheap as one random draw and just as reproducible.
// `parent`: the fields of the event whose handler sends (fifo_creator only).
inline TieFields tie_fields(TieOrder order, std::uint64_t seed, LpId creator, SimTime sent,
                            const TieFields& parent = {}) {
  if (order == TieOrder::creator) return {};
  if (order == TieOrder::fifo_creator) return scheduled_by(parent, sent);
  const std::uint64_t z =
      splitmix64_finalize((seed * kWyhashPrime) ^ (creator * kGoldenGamma) ^
                          (static_cast<std::uint64_t>(sent.ps()) * kR2Multiplier));
  return {sent, 0, static_cast<std::uint32_t>(z >> 32), 0};
}

// --- the pending queues' tie hint ------------------------------------------------------------
// A prefix of the key order among the events of one instant, in one word: a smaller hint is the
// earlier event; equal hints tell nothing (compare the keys). The high half codes the gap back
// to the send time (gap_code: a larger gap, an earlier `sent`, is a smaller code), the low
// half the tie field. A gap of 2^32 - 1 ps or more could hide two send times under one code:
// its hint is 0, before every other, as its send time is (two of them compare their keys). A
// send time after the event's time (no kernel makes one) is after every other: all ones.
// Pending queues keep it beside the time, so that most ties (8.7 per event in a fat tree k = 32,
// 98 % of them settled by `sent` or `tie`) need not read the keys.
inline constexpr std::uint64_t tie_hint(const EventKey& key) {
  const std::int64_t gap = key.time.ps() - key.sent.ps();
  if (gap < 0) return UINT64_MAX;
  if (gap >= std::int64_t{UINT32_MAX}) return 0;
  return std::uint64_t{gap_code(gap)} << 32 | key.tie;
}

}  // namespace netwarp::engine
