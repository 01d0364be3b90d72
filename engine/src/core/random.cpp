// Philox4x32-10 and the per-event random stream built on it.
#include "netwarp/engine/random.hpp"

#include "netwarp/engine/check.hpp"

namespace netwarp::engine {
namespace {

std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

EventRng::EventRng(std::uint64_t seed, LpId lp, const EventKey& key) {
  key_ = {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
  // 128 counter bits: the LP, the draw block, and a 64-bit digest of the event key.
  const std::uint64_t key_digest =
      mix64(mix64(static_cast<std::uint64_t>(key.time.ps())) ^ key.counter) ^
      mix64(key.creator + 0x9E3779B97F4A7C15ull);
  counter_ = {lp, 0, static_cast<std::uint32_t>(key_digest),
              static_cast<std::uint32_t>(key_digest >> 32)};
}

std::uint64_t EventRng::below_rejecting(std::uint64_t x, std::uint64_t bound) {
  NW_CHECK(bound > 0, "EventRng::below(0): no integer in [0, 0)");
  Uint128 m = static_cast<Uint128>(x) * bound;
  auto low = static_cast<std::uint64_t>(m);
  const std::uint64_t threshold = (0 - bound) % bound;
  while (low < threshold) {
    x = next_u64();
    m = static_cast<Uint128>(x) * bound;
    low = static_cast<std::uint64_t>(m);
  }
  return static_cast<std::uint64_t>(m >> 64);
}

std::string_view tie_order_name(TieOrder order) {
  switch (order) {
    case TieOrder::fifo:
      return "fifo";
    case TieOrder::creator:
      return "creator";
    case TieOrder::fifo_creator:
      return "fifo_creator";
  }
  return "?";
}

}  // namespace netwarp::engine
