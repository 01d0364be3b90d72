// Counter-based random numbers. A draw is a pure function of (seed, LP, event key, draw index):
// nothing to save or undo on rollback, and the same numbers in every kernel and on any number of
// ranks. Each event's stream is SplitMix64 (Steele, Lea & Flood, OOPSLA'14; passes BigCrush)
// started at a hash of (seed, LP, key): draw n is the SplitMix64 finaliser of
// start + (n + 1) * golden gamma. Until 2026-11-28 the draws were Philox4x32-10 blocks, whose ten
// dependent rounds sat on every event's critical path (bench/PHOLD.md).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "netwarp/engine/event_key.hpp"
#include "netwarp/engine/splitmix.hpp"

namespace netwarp::engine {

// Where the stream of (seed, LP, key) starts. Three independent hashes of disjoint parts of the
// identity, side by side rather than chained, so the first draw waits for only two finalisers
// in a row. Two different events (or LPs, or seeds) always differ in the input of at least one
// of them: (LP, creator) is packed injectively into one word.
inline std::uint64_t event_stream_start(std::uint64_t seed, LpId lp, const EventKey& key) {
  const std::uint64_t when =
      splitmix64_finalize(static_cast<std::uint64_t>(key.time.ps()) ^ (seed * kR2Multiplier));
  const std::uint64_t nth = splitmix64_finalize(key.counter * kGoldenGamma + seed);
  const std::uint64_t where = splitmix64_finalize(
      (static_cast<std::uint64_t>(lp) << 32 | key.creator) + seed * kWyhashPrime);
  return when ^ std::rotl(nth, 21) ^ std::rotl(where, 43);
}

// The random stream of one event handler. Cheap to create; draws are numbered from 0.
class EventRng {
 public:
  EventRng(std::uint64_t seed, LpId lp, const EventKey& key)
      : start_(event_stream_start(seed, lp, key)) {}

  std::uint64_t next_u64() { return splitmix64_draw(start_, index_++); }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, bound), bound > 0 (Lemire's multiply-shift, unbiased).
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t x = next_u64();
    const Uint128 m = static_cast<Uint128>(x) * bound;
    if (static_cast<std::uint64_t>(m) >= bound && bound > 0) [[likely]]
      return static_cast<std::uint64_t>(m >> 64);
    return below_rejecting(x, bound);
  }
  // Exponentially distributed with the given mean (> 0). 1 - u is exact for u's 53-bit
  // values, and log(1 - u) is log1p(-u) to the last bit or one unit off (7 % of draws), at
  // less than half log1p's cost.
  double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }
  std::uint32_t draws() const { return index_; }

 private:
  __extension__ using Uint128 = unsigned __int128;
  // below() when the first draw `x` lands in the low range that may need rejection.
  std::uint64_t below_rejecting(std::uint64_t x, std::uint64_t bound);

  std::uint64_t start_;
  std::uint32_t index_ = 0;
};

}  // namespace netwarp::engine
