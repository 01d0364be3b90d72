// Philox4x32-10 and the per-event random stream built on it.
#include "netwarp/engine/random.hpp"

#include "netwarp/engine/check.hpp"

namespace netwarp::engine {
namespace {

constexpr std::uint32_t kMul0 = 0xD2511F53u;
constexpr std::uint32_t kMul1 = 0xCD9E8D57u;
constexpr std::uint32_t kWeyl0 = 0x9E3779B9u;
constexpr std::uint32_t kWeyl1 = 0xBB67AE85u;

__extension__ using Uint128 = unsigned __int128;

inline void mul_hi_lo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi, std::uint32_t& lo) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  lo = static_cast<std::uint32_t>(p);
}

std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

PhiloxBlock philox4x32_10(PhiloxBlock c, PhiloxKey k) {
  for (int round = 0; round < 10; ++round) {
    std::uint32_t hi0, lo0, hi1, lo1;
    mul_hi_lo(kMul0, c[0], hi0, lo0);
    mul_hi_lo(kMul1, c[2], hi1, lo1);
    c = {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
    k[0] += kWeyl0;
    k[1] += kWeyl1;
  }
  return c;
}

EventRng::EventRng(std::uint64_t seed, LpId lp, const EventKey& key) {
  key_ = {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
  // 128 counter bits: the LP, the draw block, and a 64-bit digest of the event key.
  const std::uint64_t key_digest =
      mix64(mix64(static_cast<std::uint64_t>(key.time.ps())) ^ key.counter) ^
      mix64(key.creator + 0x9E3779B97F4A7C15ull);
  counter_ = {lp, 0, static_cast<std::uint32_t>(key_digest),
              static_cast<std::uint32_t>(key_digest >> 32)};
}

std::uint64_t EventRng::next_u64() {
  const std::uint32_t half = index_ & 1u;
  if (half == 0) {
    counter_[1] = index_ >> 1;
    block_ = philox4x32_10(counter_, key_);
  }
  ++index_;
  const std::uint32_t lo = block_[2 * half];
  const std::uint32_t hi = block_[2 * half + 1];
  return static_cast<std::uint64_t>(hi) << 32 | lo;
}

std::uint64_t EventRng::below(std::uint64_t bound) {
  NW_CHECK(bound > 0, "EventRng::below(0): no integer in [0, 0)");
  std::uint64_t x = next_u64();
  Uint128 m = static_cast<Uint128>(x) * bound;
  auto low = static_cast<std::uint64_t>(m);
  if (low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      x = next_u64();
      m = static_cast<Uint128>(x) * bound;
      low = static_cast<std::uint64_t>(m);
    }
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
