// TcpRevRanges: a TcpRangeStore over an LP's RevMap, so that the ranges of every connection of
// the LP live in one reversible map keyed by (connection, begin) and rollback undoes them.
#pragma once

#include <compare>
#include <cstdint>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/rev_map.hpp"
#include "netwarp/netmodels/tcp_ranges.hpp"

namespace netwarp::netmodels {

struct TcpRangeKey {
  std::uint32_t connection = 0;  // the LP's own index of the flow or peer
  std::uint32_t begin = 0;
  auto operator<=>(const TcpRangeKey&) const = default;
};
using TcpRangeTable = engine::RevMap<TcpRangeKey, std::uint32_t>;  // -> end

class TcpRevRanges final : public TcpRangeStore {
 public:
  TcpRevRanges(TcpRangeTable& table, std::uint32_t connection, engine::EventCtx* ctx)
      : table_(table), connection_(connection), ctx_(ctx) {}

  std::optional<TcpRange> first_at_or_after(std::uint32_t seq) const override {
    const auto it = table_.lower_bound(TcpRangeKey{connection_, seq});
    if (it == table_.end() || it->first.connection != connection_) return std::nullopt;
    return TcpRange{it->first.begin, it->second};
  }
  std::optional<TcpRange> last_before(std::uint32_t seq) const override {
    auto it = table_.lower_bound(TcpRangeKey{connection_, seq});
    if (it == table_.begin()) return std::nullopt;
    --it;
    if (it->first.connection != connection_) return std::nullopt;
    return TcpRange{it->first.begin, it->second};
  }
  void put(TcpRange range) override {
    ctx_->put(table_, TcpRangeKey{connection_, range.begin}, range.end);
  }
  void erase(std::uint32_t begin) override { ctx_->erase(table_, TcpRangeKey{connection_, begin}); }

 private:
  TcpRangeTable& table_;
  const std::uint32_t connection_;
  engine::EventCtx* ctx_;  // null only for read-only use
};

}  // namespace netwarp::netmodels
