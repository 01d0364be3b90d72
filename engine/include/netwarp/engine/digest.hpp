// Results digests. Each LP keeps a running hash of everything it commits (event keys,
// payloads, records, in key order) plus a hash of its final state; the run's digest hashes
// those per-LP values in LP order. Equal digests mean byte-identical committed output, so
// kernels and rank counts can be compared with one string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "netwarp/engine/event.hpp"
#include "netwarp/engine/lp.hpp"

namespace netwarp::engine {

namespace digest_detail {
inline constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
inline constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
inline std::uint64_t rotl(std::uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}
inline std::uint64_t avalanche(std::uint64_t h) {
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime1;
  return h ^ (h >> 32);
}
}  // namespace digest_detail

// A streaming 64-bit hash (not cryptographic; stable across runs, ranks and machines of the
// same endianness).
class Hasher {
 public:
  explicit Hasher(std::uint64_t seed = 0x6E65747761727021ull) : h_(seed) {}
  // Inline, so hashing a fixed-size value unrolls to a few multiplies (event_hash runs on every
  // committed event).
  void add(const void* data, std::size_t size) {
    using namespace digest_detail;
    const auto* p = static_cast<const unsigned char*>(data);
    length_ += size;
    while (size >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      h_ = rotl(h_ ^ (w * kPrime2), 31) * kPrime1;
      p += 8;
      size -= 8;
    }
    if (size > 0) {
      std::uint64_t w = 0;
      std::memcpy(&w, p, size);
      h_ = rotl(h_ ^ ((w ^ (size << 56)) * kPrime2), 31) * kPrime1;
    }
  }
  template <class T>
  void add_value(const T& value) {
    static_assert(std::has_unique_object_representations_v<T>);
    add(&value, sizeof value);
  }
  std::uint64_t finish() const { return digest_detail::avalanche(h_ ^ length_); }

 private:
  std::uint64_t h_;
  std::uint64_t length_ = 0;
};

struct LpDigest {
  LpId lp = kNoLp;
  std::uint32_t reserved = 0;
  std::uint64_t committed_events = 0;
  std::uint64_t committed_hash = 0;  // running hash of the committed stream
  std::uint64_t state_hash = 0;      // hash of the final state (visit_state)
};

// The hash of one event's key, destination and payload, and folding such a hash (or one record)
// into an LP's running hash of its committed stream.
inline std::uint64_t event_hash(const Event& event) {
  Hasher h;
  h.add_value(event.key.time.ps());
  h.add_value(event.key.creator);
  h.add_value(event.key.counter);
  h.add_value(event.dest);
  h.add_value(event.tag);
  h.add(event.payload, event.size);
  return h.finish();
}
inline std::uint64_t fold_event_hash(std::uint64_t running, std::uint64_t hash) {
  using namespace digest_detail;
  return avalanche((running ^ hash) * kPrime1 + kPrime2);
}
std::uint64_t fold_record(std::uint64_t running, PayloadTag tag, std::span<const std::byte> bytes);

// Hash of an LP's state as listed by visit_state (field names and bytes).
std::uint64_t state_hash(const LpBase& lp);

// Per-field hashes, for telling which field differs.
struct FieldHash {
  std::string name;
  std::uint64_t hash;
  friend bool operator==(const FieldHash&, const FieldHash&) = default;
};
std::vector<FieldHash> field_hashes(const LpBase& lp);

// The run digest over per-LP digests sorted by LP id.
std::uint64_t combine_digests(const std::vector<LpDigest>& lps);
std::string digest_hex(std::uint64_t digest);

}  // namespace netwarp::engine
