// Byte ranges of one TCP connection, kept outside the fixed-size state structs: the receiver's
// out-of-order data (any number of ranges) and the sender's SACK scoreboard (RFC 6675 section
// 3). The pure state machines reach them through TcpRangeStore; the LPs back it with a RevMap
// (TcpRevRanges, so rollback undoes every change), tests and scratch work with TcpRangeMap.
// Ranges are half-open [begin, end), disjoint and never touching, keyed by begin.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <type_traits>

#include "netwarp/engine/check.hpp"
#include "netwarp/engine/state_visitor.hpp"

namespace netwarp::netmodels {

// A byte's offset in its connection's stream, from 0. 64-bit, so a connection carries any
// number of bytes; only the wire (Packet) keeps RFC 793's 32-bit sequence numbers, which wrap
// (tcp_unwrap in tcp.hpp turns them back into offsets).
using TcpSeq = std::uint64_t;

// The bytes a TCP state had when its offsets were 32-bit, for its digest (visit_bytes): runs
// whose streams stay under 4 GiB keep the digests they had (recorded in bench/ and the
// README). The offsets' high halves are hashed last, and only when one of them is not zero, so
// the digest and the reverse check still see every bit.
class TcpLegacyBytes {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    NW_CHECK(sizeof(T) <= bytes_.size() - size_,
             "TcpLegacyBytes: {} more bytes do not fit ({} of {} used)", sizeof(T), size_,
             bytes_.size());
    std::memcpy(bytes_.data() + size_, &value, sizeof(T));
    size_ += sizeof(T);
  }
  void put_seq(TcpSeq seq) {
    NW_CHECK(high_count_ < highs_.size(), "TcpLegacyBytes: more than {} offsets", highs_.size());
    put(static_cast<std::uint32_t>(seq));
    highs_[high_count_++] = static_cast<std::uint32_t>(seq >> 32);
    has_high_ = has_high_ || seq >> 32 != 0;
  }
  // Hashes what was put since the last flush as one piece, as the old layout's bytes were.
  void flush(engine::StateVisitor& v) {
    v.bytes(bytes_.data(), size_);
    size_ = 0;
  }
  void finish(engine::StateVisitor& v) {
    if (size_ > 0) flush(v);
    if (has_high_) v.bytes(highs_.data(), high_count_ * sizeof(std::uint32_t));
  }

 private:
  std::array<std::byte, 512> bytes_ = {};
  std::size_t size_ = 0;
  std::array<std::uint32_t, 24> highs_ = {};
  std::size_t high_count_ = 0;
  bool has_high_ = false;
};

struct TcpRange {
  TcpSeq begin = 0;
  TcpSeq end = 0;  // one past the last byte
  std::uint64_t length() const { return end - begin; }
  bool operator==(const TcpRange&) const = default;
};
static_assert(std::is_trivially_copyable_v<TcpRange> &&
              std::has_unique_object_representations_v<TcpRange>);

class TcpRangeStore {
 public:
  virtual std::optional<TcpRange> first_at_or_after(TcpSeq seq) const = 0;
  virtual std::optional<TcpRange> last_before(TcpSeq seq) const = 0;  // begin < seq
  virtual void put(TcpRange range) = 0;  // inserts, or replaces the range with its begin
  virtual void erase(TcpSeq begin) = 0;

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
std::optional<TcpRange> tcp_range_containing(const TcpRangeStore& store, TcpSeq seq);
// Forgets every byte below `seq`; returns the bytes and ranges removed.
struct TcpRangeTrim {
  std::uint64_t removed_bytes = 0;
  std::uint32_t removed_ranges = 0;
};
TcpRangeTrim tcp_trim_ranges_below(TcpRangeStore& store, TcpSeq seq);

// A plain in-memory store (tests, and state machines driven without an engine).
class TcpRangeMap final : public TcpRangeStore {
 public:
  std::optional<TcpRange> first_at_or_after(TcpSeq seq) const override;
  std::optional<TcpRange> last_before(TcpSeq seq) const override;
  void put(TcpRange range) override { ranges_[range.begin] = range.end; }
  void erase(TcpSeq begin) override { ranges_.erase(begin); }
  std::size_t size() const { return ranges_.size(); }
  const std::map<TcpSeq, TcpSeq>& ranges() const { return ranges_; }

 private:
  std::map<TcpSeq, TcpSeq> ranges_;  // begin -> end
};

}  // namespace netwarp::netmodels
