// Hashing of committed output and LP state.
#include "netwarp/engine/digest.hpp"

#include <algorithm>
#include <cstring>

namespace netwarp::engine {
namespace {

constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;

std::uint64_t rotl(std::uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}
std::uint64_t avalanche(std::uint64_t h) {
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime1;
  return h ^ (h >> 32);
}

class DigestVisitor final : public StateVisitor {
 public:
  void begin_field(std::string_view name) override { hasher_.add(name.data(), name.size()); }
  void bytes(const void* data, std::size_t size) override { hasher_.add(data, size); }
  std::uint64_t finish() const { return hasher_.finish(); }

 private:
  Hasher hasher_;
};

class FieldVisitor final : public StateVisitor {
 public:
  void begin_field(std::string_view name) override {
    fields_.push_back(FieldHash{std::string(name), 0});
    hasher_ = Hasher();
  }
  void bytes(const void* data, std::size_t size) override { hasher_.add(data, size); }
  void end_field() override { fields_.back().hash = hasher_.finish(); }
  std::vector<FieldHash> take() { return std::move(fields_); }

 private:
  Hasher hasher_;
  std::vector<FieldHash> fields_;
};

}  // namespace

void Hasher::add(const void* data, std::size_t size) {
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

std::uint64_t Hasher::finish() const {
  return avalanche(h_ ^ length_);
}

std::uint64_t fold_event_hash(std::uint64_t running, std::uint64_t hash) {
  return avalanche((running ^ hash) * kPrime1 + kPrime2);
}

std::uint64_t event_hash(const Event& event) {
  Hasher h;
  h.add_value(event.key.time.ps());
  h.add_value(event.key.creator);
  h.add_value(event.key.counter);
  h.add_value(event.dest);
  h.add_value(event.tag);
  h.add(event.payload, event.size);
  return h.finish();
}

std::uint64_t fold_record(std::uint64_t running, PayloadTag tag, std::span<const std::byte> bytes) {
  Hasher h(running ^ 0x5245434F5244ull);
  h.add_value(tag);
  h.add(bytes.data(), bytes.size());
  return h.finish();
}

std::uint64_t state_hash(const LpBase& lp) {
  DigestVisitor v;
  lp.visit_state(v);
  return v.finish();
}

std::vector<FieldHash> field_hashes(const LpBase& lp) {
  FieldVisitor v;
  lp.visit_state(v);
  return v.take();
}

std::uint64_t combine_digests(const std::vector<LpDigest>& lps) {
  Hasher h;
  for (const LpDigest& d : lps) {
    h.add_value(d.lp);
    h.add_value(d.committed_events);
    h.add_value(d.committed_hash);
    h.add_value(d.state_hash);
  }
  return h.finish();
}

std::string digest_hex(std::uint64_t digest) {
  return fmt::format("{:016x}", digest);
}

}  // namespace netwarp::engine
