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
  std::uint32_t reserved = 0;
  TcpSeq begin = 0;
  auto operator<=>(const TcpRangeKey&) const = default;
  void visit_bytes(engine::StateVisitor& v) const {  // as {connection, 32-bit begin} was
    TcpLegacyBytes b;
    b.put(connection);
    b.put_seq(begin);
    b.finish(v);
  }
};
struct TcpRangeEnd {
  TcpSeq end = 0;
  void visit_bytes(engine::StateVisitor& v) const {  // as a 32-bit end was
    TcpLegacyBytes b;
    b.put_seq(end);
    b.finish(v);
  }
};
using TcpRangeTable = engine::RevMap<TcpRangeKey, TcpRangeEnd>;

class TcpRevRanges final : public TcpRangeStore {
 public:
  TcpRevRanges(TcpRangeTable& table, std::uint32_t connection, engine::EventCtx* ctx)
      : table_(table), connection_(connection), ctx_(ctx) {}

  std::optional<TcpRange> first_at_or_after(TcpSeq seq) const override {
    const auto it = table_.lower_bound(TcpRangeKey{connection_, 0, seq});
    if (it == table_.end() || it->first.connection != connection_) return std::nullopt;
    return TcpRange{it->first.begin, it->second.end};
  }
  std::optional<TcpRange> last_before(TcpSeq seq) const override {
    auto it = table_.lower_bound(TcpRangeKey{connection_, 0, seq});
    if (it == table_.begin()) return std::nullopt;
    --it;
    if (it->first.connection != connection_) return std::nullopt;
    return TcpRange{it->first.begin, it->second.end};
  }
  void put(TcpRange range) override {
    ctx_->put(table_, TcpRangeKey{connection_, 0, range.begin}, TcpRangeEnd{range.end});
  }
  void erase(TcpSeq begin) override { ctx_->erase(table_, TcpRangeKey{connection_, 0, begin}); }

 private:
  TcpRangeTable& table_;
  const std::uint32_t connection_;
  engine::EventCtx* ctx_;  // null only for read-only use
};

}  // namespace netwarp::netmodels
