// MpiResults: collecting committed records, their byte form for gathering, canonical order.
#include "netwarp/mpiemul/mpi_results.hpp"

#include "netwarp/engine/record_tables.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <tuple>

namespace netwarp::mpiemul {

using engine::put_table;
using engine::table_bytes;
using engine::take_table;

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
