// SeededRng: the workload generators' random numbers. SplitMix64 (Steele, Lea and Flood,
// OOPSLA'14) with an explicit bounded draw and Fisher-Yates shuffle, so a seed gives the same
// workload with every compiler and standard library (std::uniform_int_distribution and
// std::shuffle are implementation-defined). Each (seed, stream) pair is an independent stream:
// generators use one stream per host, so a host's draws do not depend on the others'.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "netwarp/engine/splitmix.hpp"

namespace netwarp::netmodels::workload_detail {

class SeededRng {
 public:
  SeededRng(std::uint64_t seed, std::uint64_t stream)
      : sequence_(engine::splitmix64_finalize(
            seed ^ engine::splitmix64_finalize(stream + 0x632be59bd9b4e019ULL))) {}

  std::uint64_t next_u64() { return sequence_.next(); }

  // Uniform in [0, bound), bound > 0: rejects the lowest (2^64 mod bound) values, so unbiased.
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    for (;;) {
      const std::uint64_t r = next_u64();
      if (r >= threshold) return r % bound;
    }
  }

  // Fisher-Yates, from the back: every permutation equally likely.
  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  engine::SplitMix64 sequence_;
};

}  // namespace netwarp::netmodels::workload_detail
