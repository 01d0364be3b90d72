// The per-event random stream: the rare slow path of below(), and the tie orders' names.
#include "netwarp/engine/random.hpp"

#include "netwarp/engine/check.hpp"

namespace netwarp::engine {
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
