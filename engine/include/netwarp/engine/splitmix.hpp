// SplitMix64 (Steele, Lea & Flood, OOPSLA'14): the finaliser every counter-based draw and hash of
// netwarp is built on (event random streams, tie draws, workload generators, multipath routes).
#pragma once

#include <cstdint>

namespace netwarp::engine {

inline constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;
// Two more odd multipliers (wyhash's first prime; the 2-D golden-ratio constant of the R2
// sequence) that spread the fields of a hashed identity before they are combined.
inline constexpr std::uint64_t kWyhashPrime = 0xA0761D6478BD642Full;
inline constexpr std::uint64_t kR2Multiplier = 0xD1B54A32D192ED03ull;

// SplitMix64's output function (Stafford's "Mix13" finaliser): a bijection of 64-bit words.
constexpr std::uint64_t splitmix64_finalize(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Draw `n` (from 0) of the SplitMix64 sequence seeded with `start`.
constexpr std::uint64_t splitmix64_draw(std::uint64_t start, std::uint64_t n) {
  return splitmix64_finalize(start + (n + 1) * kGoldenGamma);
}

// The same sequence drawn in order (splitmix64.c): for generators that keep a state.
class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed) : state_(seed) {}
  constexpr std::uint64_t next() { return splitmix64_finalize(state_ += kGoldenGamma); }

 private:
  std::uint64_t state_;
};

}  // namespace netwarp::engine
