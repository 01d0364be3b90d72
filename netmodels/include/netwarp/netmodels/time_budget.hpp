// The simulated-time budget of a run and a saturating worst-case time to check against it.
// Loaders estimate, for every product of a size, a rate and a time (bytes at a link rate,
// bytes times a per-byte cost, repetitions times a round trip, sums of compute times), the
// longest a run could need, and refuse a scenario or trace whose estimate passes the budget,
// naming the field. The budget is a ninth of what SimTime counts, so a handful of in-budget
// times (now + serialisation + latency + RTO ...) still add without overflow at run time.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace netwarp::netmodels {

// 1e18 ps = 1e6 s, about 11.6 days of simulated time.
inline constexpr std::uint64_t kTimeBudgetPs = 1'000'000'000'000'000'000;

// A duration in picoseconds that saturates at "too long" instead of wrapping.
class WorstCaseTime {
 public:
  constexpr WorstCaseTime() = default;
  static constexpr WorstCaseTime from_ps(std::uint64_t ps) { return WorstCaseTime(ps); }
  static constexpr WorstCaseTime from_ns(std::uint64_t ns) {
    return WorstCaseTime::from_ps(ns).times(1000);
  }
  // A real number of ns (a cost, a compute time): negative, NaN and infinite count as too long.
  static WorstCaseTime from_ns(double ns) {
    const double ps = ns * 1000;
    // 2^64 - 1 is 2^64 as a double: any ps below it converts without wrapping.
    if (!(ps >= 0) || !(ps < static_cast<double>(kSaturated))) return too_long();
    return WorstCaseTime(static_cast<std::uint64_t>(std::ceil(ps)));
  }
  // Time to put `bytes` on a link of `rate_bps` (rounded up, as serialisation_time does).
  static constexpr WorstCaseTime transfer(std::uint64_t bytes, std::uint64_t rate_bps) {
    __extension__ using U128 = unsigned __int128;
    if (rate_bps == 0) return bytes == 0 ? WorstCaseTime() : too_long();
    const U128 bits_ps = U128{bytes} * 8u * 1'000'000'000'000u;
    return saturated((bits_ps + rate_bps - 1) / rate_bps);
  }
  // `bytes` at a cost of `ns_per_byte` each.
  static WorstCaseTime per_byte(std::uint64_t bytes, double ns_per_byte) {
    return from_ns(static_cast<double>(bytes) * ns_per_byte);
  }
  static constexpr WorstCaseTime too_long() { return WorstCaseTime(kSaturated); }

  constexpr std::uint64_t ps() const { return ps_; }
  constexpr bool is_within_budget() const { return ps_ <= kTimeBudgetPs; }

  constexpr WorstCaseTime operator+(WorstCaseTime other) const {
    return other.ps_ > kSaturated - ps_ ? too_long() : WorstCaseTime(ps_ + other.ps_);
  }
  constexpr WorstCaseTime& operator+=(WorstCaseTime other) { return *this = *this + other; }
  constexpr WorstCaseTime times(std::uint64_t count) const {
    __extension__ using U128 = unsigned __int128;
    return saturated(U128{ps_} * count);
  }
  constexpr auto operator<=>(const WorstCaseTime&) const = default;

  // "1.68e+07 s" (or "more than 1.8e+07 s" when saturated).
  std::string describe() const {
    const double seconds = static_cast<double>(ps_) * 1e-12;
    return ps_ == kSaturated ? fmt::format("more than {:.3g} s", seconds)
                             : fmt::format("{:.3g} s", seconds);
  }

 private:
  static constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();
  constexpr explicit WorstCaseTime(std::uint64_t ps) : ps_(ps) {}
  template <class Wide>
  static constexpr WorstCaseTime saturated(Wide ps) {
    return ps >= kSaturated ? too_long() : WorstCaseTime(static_cast<std::uint64_t>(ps));
  }
  std::uint64_t ps_ = 0;
};

// The end of an error message about a time past the budget:
// "...take 1.68e+07 s of simulated time, more than the 1e+06 s (11.6 days) a run can simulate".
inline std::string over_budget(WorstCaseTime time) {
  return fmt::format("{} of simulated time, more than the {:.3g} s (11.6 days) a run can simulate",
                     time.describe(), static_cast<double>(kTimeBudgetPs) * 1e-12);
}

}  // namespace netwarp::netmodels
