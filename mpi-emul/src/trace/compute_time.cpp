// compute_time: flops at a flop rate in integer picoseconds, rounded to nearest with ties away
// from zero. Whole numbers below 2^53 (every flop count a TIT trace holds in practice) are
// divided exactly in 128-bit integers, so the result does not depend on floating-point
// rounding; other values go through long double.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

namespace {

__extension__ typedef unsigned __int128 Wide;

constexpr double kExactLimit = 9007199254740992.0;  // 2^53
constexpr std::uint64_t kPsPerSecond = 1'000'000'000'000;
constexpr auto kMaxPs = static_cast<std::uint64_t>(std::numeric_limits<SimTime::Rep>::max());

bool is_exact_whole(double value) {
  return value < kExactLimit && value == std::floor(value);
}

[[noreturn]] void too_long(double flops, double flops_per_second) {
  throw std::invalid_argument(
      fmt::format("{} flops at {} flops per second last longer than the simulated time can count",
                  flops, flops_per_second));
}

SimTime exact_time(double flops, double flops_per_second) {
  const auto divisor = static_cast<std::uint64_t>(flops_per_second);
  const Wide scaled = static_cast<Wide>(static_cast<std::uint64_t>(flops)) * kPsPerSecond;
  const Wide quotient = (scaled + divisor / 2) / divisor;
  if (quotient > kMaxPs) too_long(flops, flops_per_second);
  return SimTime::from_ps(static_cast<SimTime::Rep>(quotient));
}

}  // namespace

SimTime compute_time(double flops, double flops_per_second) {
  if (!std::isfinite(flops) || flops < 0)
    throw std::invalid_argument(fmt::format("{} flops: must be a finite number >= 0", flops));
  if (!std::isfinite(flops_per_second) || flops_per_second <= 0)
    throw std::invalid_argument(
        fmt::format("flop rate {}: must be a finite number > 0", flops_per_second));
  if (is_exact_whole(flops) && is_exact_whole(flops_per_second))
    return exact_time(flops, flops_per_second);
  const long double ps = static_cast<long double>(flops) * kPsPerSecond / flops_per_second;
  if (!(ps < static_cast<long double>(kMaxPs))) too_long(flops, flops_per_second);
  return SimTime::from_ps(std::llroundl(ps));
}

}  // namespace netwarp::mpiemul
