// Counter-based random numbers (Philox4x32-10, Salmon et al., SC'11). A draw is a pure
// function of (seed, LP, event key, draw index): nothing to save or undo on rollback, and
// the same numbers in every kernel and on any number of ranks.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "netwarp/engine/event_key.hpp"

namespace netwarp::engine {

using PhiloxBlock = std::array<std::uint32_t, 4>;
using PhiloxKey = std::array<std::uint32_t, 2>;

// Inline: a handler's draws then need no call, and the rounds unroll in place.
inline PhiloxBlock philox4x32_10(PhiloxBlock c, PhiloxKey k) {
  constexpr std::uint32_t kMul0 = 0xD2511F53u;
  constexpr std::uint32_t kMul1 = 0xCD9E8D57u;
  constexpr std::uint32_t kWeyl0 = 0x9E3779B9u;
  constexpr std::uint32_t kWeyl1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = static_cast<std::uint64_t>(kMul0) * c[0];
    const std::uint64_t p1 = static_cast<std::uint64_t>(kMul1) * c[2];
    c = {static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<std::uint32_t>(p1),
         static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<std::uint32_t>(p0)};
    k[0] += kWeyl0;
    k[1] += kWeyl1;
  }
  return c;
}

// The random stream of one event handler. Cheap to create; draws are numbered from 0.
class EventRng {
 public:
  EventRng(std::uint64_t seed, LpId lp, const EventKey& key);

  std::uint64_t next_u64() {
    const std::uint32_t half = index_ & 1u;
    if (half == 0) {
      counter_[1] = index_ >> 1;
      block_ = philox4x32_10(counter_, key_);
    }
    ++index_;
    return static_cast<std::uint64_t>(block_[2 * half + 1]) << 32 | block_[2 * half];
  }
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

  PhiloxKey key_;
  PhiloxBlock counter_;
  PhiloxBlock block_{};
  std::uint32_t index_ = 0;
};

}  // namespace netwarp::engine
