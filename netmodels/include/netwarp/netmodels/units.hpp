// Units on the wire: rates in bits per second, sizes in bytes, time in integer picoseconds.
// Serialisation time rounds up, so a packet is never on the wire for less than its bits need.
#pragma once

#include <cstdint>

#include "netwarp/engine/sim_time.hpp"

namespace netwarp::netmodels {

using engine::SimTime;

constexpr std::uint64_t kbps(std::uint64_t n) {
  return n * 1000;
}
constexpr std::uint64_t mbps(std::uint64_t n) {
  return n * 1000'000;
}
constexpr std::uint64_t gbps(std::uint64_t n) {
  return n * 1000'000'000;
}

// Time to put `bytes` on a link of `rate_bps`: ceil(bytes * 8 * 1e12 / rate_bps) ps, or
// SimTime::max() when that does not fit (the engine refuses to schedule an event there).
constexpr SimTime serialisation_time(std::uint64_t bytes, std::uint64_t rate_bps) {
  // A frame's time in 64 bits: every packet pays this, and a 128-bit division is a library
  // call (__udivti3, about 1 % of a RoCE incast's time).
  if (bytes < (std::uint64_t{1} << 20) && rate_bps < (std::uint64_t{1} << 62)) {
    const std::uint64_t bits_ps = bytes * 8u * 1000'000'000'000u;  // < 8.4e18
    return SimTime::from_ps(static_cast<SimTime::Rep>((bits_ps + rate_bps - 1) / rate_bps));
  }
  __extension__ using U128 = unsigned __int128;
  const U128 bits_ps = U128{bytes} * 8u * 1000'000'000'000u;
  const U128 time_ps = (bits_ps + rate_bps - 1) / rate_bps;
  if (time_ps >= static_cast<U128>(SimTime::max().ps())) return SimTime::max();
  return SimTime::from_ps(static_cast<SimTime::Rep>(time_ps));
}

}  // namespace netwarp::netmodels
