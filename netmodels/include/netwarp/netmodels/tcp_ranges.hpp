// Byte ranges of one TCP connection, kept outside the fixed-size state structs: the receiver's
// out-of-order data (any number of ranges) and the sender's SACK scoreboard (RFC 6675 section
// 3). The pure state machines reach them through TcpRangeStore; the LPs back it with a RevMap
// (TcpRevRanges, so rollback undoes every change), tests and scratch work with TcpRangeMap.
// Ranges are half-open [begin, end), disjoint and never touching, keyed by begin.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <type_traits>

namespace netwarp::netmodels {

struct TcpRange {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;  // one past the last byte
  std::uint32_t length() const { return end - begin; }
  bool operator==(const TcpRange&) const = default;
};
static_assert(std::is_trivially_copyable_v<TcpRange> &&
              std::has_unique_object_representations_v<TcpRange>);

class TcpRangeStore {
 public:
  virtual std::optional<TcpRange> first_at_or_after(std::uint32_t seq) const = 0;
  virtual std::optional<TcpRange> last_before(std::uint32_t seq) const = 0;  // begin < seq
  virtual void put(TcpRange range) = 0;  // inserts, or replaces the range with its begin
  virtual void erase(std::uint32_t begin) = 0;

 protected:
  ~TcpRangeStore() = default;
};

// What inserting one range did to the store.
struct TcpRangeInsert {
  TcpRange merged;                // the stored range that now holds the inserted bytes
  std::uint64_t added_bytes = 0;  // bytes not stored before
  std::int32_t range_delta = 0;   // change in the number of ranges (1, 0 or negative)
};

// Stores [range.begin, range.end), merged with every range it overlaps or touches.
TcpRangeInsert tcp_insert_range(TcpRangeStore& store, TcpRange range);
// True if inserting `range` would add a range (it overlaps or touches none).
bool tcp_range_is_new(const TcpRangeStore& store, TcpRange range);
// The range holding byte `seq`, if any.
std::optional<TcpRange> tcp_range_containing(const TcpRangeStore& store, std::uint32_t seq);
// Forgets every byte below `seq`; returns the bytes and ranges removed.
struct TcpRangeTrim {
  std::uint64_t removed_bytes = 0;
  std::uint32_t removed_ranges = 0;
};
TcpRangeTrim tcp_trim_ranges_below(TcpRangeStore& store, std::uint32_t seq);

// A plain in-memory store (tests, and state machines driven without an engine).
class TcpRangeMap final : public TcpRangeStore {
 public:
  std::optional<TcpRange> first_at_or_after(std::uint32_t seq) const override;
  std::optional<TcpRange> last_before(std::uint32_t seq) const override;
  void put(TcpRange range) override { ranges_[range.begin] = range.end; }
  void erase(std::uint32_t begin) override { ranges_.erase(begin); }
  std::size_t size() const { return ranges_.size(); }
  const std::map<std::uint32_t, std::uint32_t>& ranges() const { return ranges_; }

 private:
  std::map<std::uint32_t, std::uint32_t> ranges_;  // begin -> end
};

}  // namespace netwarp::netmodels
