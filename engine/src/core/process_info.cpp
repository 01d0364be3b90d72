// Wall clock and peak memory of this process.
#include <sys/resource.h>

#include <chrono>

#include "lp_steps.hpp"

namespace netwarp::engine {

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

std::uint64_t wall_clock_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

double wall_seconds_since(std::uint64_t start_ns) {
  return static_cast<double>(wall_clock_ns() - start_ns) * 1e-9;
}

}  // namespace netwarp::engine
