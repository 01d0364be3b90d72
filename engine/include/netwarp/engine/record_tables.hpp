// Tables of committed records as bytes, for gathering results from every rank: for each
// table a 64-bit count, then the records as they are (records are padding-free).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

namespace netwarp::engine {

template <class R>
std::size_t table_bytes(const std::vector<R>& table) {
  return sizeof(std::uint64_t) + table.size() * sizeof(R);
}

// Writes `table` at `out` (table_bytes(table) bytes); returns the end.
template <class R>
std::byte* put_table(std::byte* out, const std::vector<R>& table) {
  const std::uint64_t n = table.size();
  std::memcpy(out, &n, sizeof n);
  if (n != 0) std::memcpy(out + sizeof n, table.data(), n * sizeof(R));
  return out + table_bytes(table);
}

// Appends the table at the front of `in` to `table`; returns the rest of `in`.
template <class R>
std::span<const std::byte> take_table(std::span<const std::byte> in, std::vector<R>& table) {
  std::uint64_t n = 0;
  if (in.size() < sizeof n) throw std::runtime_error("record table: truncated bytes");
  std::memcpy(&n, in.data(), sizeof n);
  in = in.subspan(sizeof n);
  if (in.size() / sizeof(R) < n) throw std::runtime_error("record table: truncated bytes");
  const std::size_t at = table.size();
  table.resize(at + n);
  if (n != 0) std::memcpy(&table[at], in.data(), n * sizeof(R));
  return in.subspan(n * sizeof(R));
}

}  // namespace netwarp::engine
