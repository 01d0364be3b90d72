// SplitMix64 (Steele, Lea & Flood, OOPSLA'14): the finaliser every counter-based draw and hash of
// netwarp is built on (event random streams, tie draws, workload generators, multipath routes).
#pragma once

#include <cstdint>

namespace netwarp::engine {

inline constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

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

}  // namespace netwarp::engine
