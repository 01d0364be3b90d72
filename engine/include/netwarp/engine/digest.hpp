// Results digests. Each LP keeps a running hash of everything it commits (event keys,
// payloads, records, in key order) plus a hash of its final state; the run's digest hashes
// those per-LP values in LP order. Equal digests mean byte-identical committed output, so
// kernels and rank counts can be compared with one string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "netwarp/engine/event.hpp"
#include "netwarp/engine/lp.hpp"

namespace netwarp::engine {

// A streaming 64-bit hash (not cryptographic; stable across runs, ranks and machines of the
// same endianness).
class Hasher {
 public:
  explicit Hasher(std::uint64_t seed = 0x6E65747761727021ull) : h_(seed) {}
  void add(const void* data, std::size_t size);
  template <class T>
  void add_value(const T& value) {
    static_assert(std::has_unique_object_representations_v<T>);
    add(&value, sizeof value);
  }
  std::uint64_t finish() const;

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
std::uint64_t event_hash(const Event& event);
std::uint64_t fold_event_hash(std::uint64_t running, std::uint64_t event_hash);
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
