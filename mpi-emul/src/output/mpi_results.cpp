// MpiResults: collecting committed records, their byte form for gathering, canonical order.
#include "netwarp/mpiemul/mpi_results.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <tuple>

namespace netwarp::mpiemul {

namespace {

// Byte form: for each table, a 64-bit count, then the records; the network's byte form last.
template <class R>
std::size_t table_bytes(const std::vector<R>& table) {
  return sizeof(std::uint64_t) + table.size() * sizeof(R);
}

template <class R>
std::byte* put_table(std::byte* out, const std::vector<R>& table) {
  const std::uint64_t n = table.size();
  std::memcpy(out, &n, sizeof n);
  if (n != 0) std::memcpy(out + sizeof n, table.data(), n * sizeof(R));
  return out + table_bytes(table);
}

template <class R>
std::span<const std::byte> take_table(std::span<const std::byte> in, std::vector<R>& table) {
  std::uint64_t n = 0;
  if (in.size() < sizeof n) throw std::runtime_error("mpi results: truncated bytes");
  std::memcpy(&n, in.data(), sizeof n);
  in = in.subspan(sizeof n);
  if (in.size() / sizeof(R) < n) throw std::runtime_error("mpi results: truncated bytes");
  const std::size_t at = table.size();
  table.resize(at + n);
  if (n != 0) std::memcpy(&table[at], in.data(), n * sizeof(R));
  return in.subspan(n * sizeof(R));
}

}  // namespace

void MpiResults::write(const engine::CommittedRecord& record) {
  if (record.holds<CallRecord>()) return calls.push_back(record.as<CallRecord>());
  if (record.holds<MessageRecord>()) return messages.push_back(record.as<MessageRecord>());
  if (record.holds<RankSummary>()) return ranks.push_back(record.as<RankSummary>());
  network.write(record);
}

std::vector<std::byte> MpiResults::to_bytes() const {
  const std::vector<std::byte> network_bytes = network.to_bytes();
  std::vector<std::byte> out(table_bytes(calls) + table_bytes(messages) + table_bytes(ranks) +
                             network_bytes.size());
  std::byte* at = put_table(out.data(), calls);
  at = put_table(at, messages);
  at = put_table(at, ranks);
  std::copy(network_bytes.begin(), network_bytes.end(), at);
  return out;
}

void MpiResults::append_bytes(std::span<const std::byte> bytes) {
  bytes = take_table(bytes, calls);
  bytes = take_table(bytes, messages);
  bytes = take_table(bytes, ranks);
  network.append_bytes(bytes);
}

void MpiResults::sort() {
  std::sort(calls.begin(), calls.end(), [](const CallRecord& a, const CallRecord& b) {
    return std::tie(a.rank, a.call) < std::tie(b.rank, b.call);
  });
  // A sender's op sends one message, so (src, send_op) already makes the order total.
  std::sort(messages.begin(), messages.end(), [](const MessageRecord& a, const MessageRecord& b) {
    return std::tie(a.dst, a.matched_ps, a.src, a.send_op) <
           std::tie(b.dst, b.matched_ps, b.src, b.send_op);
  });
  std::sort(ranks.begin(), ranks.end(),
            [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
  network.sort();
}

}  // namespace netwarp::mpiemul
