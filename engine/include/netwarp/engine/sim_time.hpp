// Simulated time: a strong type over an integer count of picoseconds. No floating point
// time anywhere in the engine; conversions from real numbers round to the nearest ps.
#pragma once

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace netwarp::engine {

class SimTime {
 public:
  using Rep = std::int64_t;

  constexpr SimTime() = default;
  static constexpr SimTime from_ps(Rep ps) { return SimTime(ps); }
  static constexpr SimTime max() { return SimTime(std::numeric_limits<Rep>::max()); }
  static constexpr SimTime zero() { return SimTime(0); }
  // Rounds a real number of microseconds to the nearest picosecond; saturates at max() (and at
  // -max()) instead of overflowing.
  static SimTime from_us(double us) {
    const double ps = us * 1e6;
    if (!(ps < 9.2e18)) return max();
    if (ps <= -9.2e18) return SimTime(-max().ps_);
    return SimTime(round_half_away(ps));
  }

  constexpr Rep ps() const { return ps_; }
  constexpr double to_us() const { return static_cast<double>(ps_) * 1e-6; }
  constexpr double to_seconds() const { return static_cast<double>(ps_) * 1e-12; }
  constexpr bool is_max() const { return ps_ == std::numeric_limits<Rep>::max(); }

  constexpr auto operator<=>(const SimTime&) const = default;
  constexpr SimTime operator+(SimTime d) const { return SimTime(ps_ + d.ps_); }
  constexpr SimTime operator-(SimTime d) const { return SimTime(ps_ - d.ps_); }
  constexpr SimTime& operator+=(SimTime d) {
    ps_ += d.ps_;
    return *this;
  }
  // Saturates at max(), so "infinity + window" stays infinity.
  constexpr SimTime saturating_add(SimTime d) const {
    return d.ps_ > max().ps_ - ps_ ? max() : SimTime(ps_ + d.ps_);
  }

 private:
  // std::llround for |x| < 2^63, inline (the library call was 1.6 % of sequential PHOLD): x
  // minus its truncation is exact, so the halfway test is too.
  static Rep round_half_away(double x) {
    const auto whole = static_cast<Rep>(x);
    const double rest = x - static_cast<double>(whole);
    if (rest >= 0.5) return whole + 1;
    if (rest <= -0.5) return whole - 1;
    return whole;
  }
  constexpr explicit SimTime(Rep ps) : ps_(ps) {}
  Rep ps_ = 0;
};

// An event asked for at or past SimTime::max(): the model's times saturated there instead of
// wrapping. Loaders check their scenario's time budget, so this is a run that passed them.
class SimTimeOverflow : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr SimTime ps(std::int64_t n) {
  return SimTime::from_ps(n);
}
constexpr SimTime ns(std::int64_t n) {
  return SimTime::from_ps(n * 1000);
}
constexpr SimTime us(std::int64_t n) {
  return SimTime::from_ps(n * 1000'000);
}
constexpr SimTime ms(std::int64_t n) {
  return SimTime::from_ps(n * 1000'000'000);
}
constexpr SimTime seconds(std::int64_t n) {
  return SimTime::from_ps(n * 1000'000'000'000);
}

}  // namespace netwarp::engine
