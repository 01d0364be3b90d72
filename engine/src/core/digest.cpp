// Hashing of committed output and LP state.
#include "netwarp/engine/digest.hpp"

#include <algorithm>
#include <cstring>

namespace netwarp::engine {
namespace {

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
