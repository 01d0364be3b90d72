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

PhiloxBlock philox4x32_10(PhiloxBlock counter, PhiloxKey key);

// The random stream of one event handler. Cheap to create; draws are numbered from 0.
class EventRng {
 public:
  EventRng(std::uint64_t seed, LpId lp, const EventKey& key);

  std::uint64_t next_u64();
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, bound), bound > 0 (Lemire's multiply-shift, unbiased).
  std::uint64_t below(std::uint64_t bound);
  // Exponentially distributed with the given mean (> 0).
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }
  std::uint32_t draws() const { return index_; }

 private:
  PhiloxKey key_;
  PhiloxBlock counter_;
  PhiloxBlock block_{};
  std::uint32_t index_ = 0;
};

}  // namespace netwarp::engine
