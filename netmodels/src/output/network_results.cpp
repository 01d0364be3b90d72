// NetworkResults: collecting committed records, their byte form for gathering, canonical order.
#include "netwarp/netmodels/network_results.hpp"

#include "netwarp/engine/record_tables.hpp"
#include "netwarp/netmodels/results_source.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace netwarp::netmodels {

namespace {

template <class R>
void keep(const engine::CommittedRecord& record, std::vector<R>& table) {
  table.push_back(record.as<R>());
}

using engine::put_table;
using engine::table_bytes;
using engine::take_table;

// Tables often come in order already (one traced port's samples, in time): checking costs a
// pass, sorting them again n log n comparisons. Records of equal keys are equal wherever the
// order reaches the output (every rank count gives the same bytes), so skipping an unstable
// sort of a sorted table changes nothing.
template <class R>
void sort_table(std::vector<R>& table) {
  if (std::is_sorted(table.begin(), table.end(), RecordOrder<R>::less)) return;
  std::sort(table.begin(), table.end(), RecordOrder<R>::less);
}
template <class R>
void stable_sort_table(std::vector<R>& table) {
  if (std::is_sorted(table.begin(), table.end(), RecordOrder<R>::less)) return;
  std::stable_sort(table.begin(), table.end(), RecordOrder<R>::less);
}

// The leading part of a table's order, before its time: the port, flow or node whose LP emitted
// the record, as one number ordered as RecordOrder orders them.
std::uint64_t group_of(const QueueSample& r) {
  return std::uint64_t{r.node} << 16 | r.port;
}
std::uint64_t group_of(const PortSample& r) {
  return std::uint64_t{r.node} << 16 | r.port;
}
std::uint64_t group_of(const FlowSample& r) {
  return r.flow;
}
std::uint64_t group_of(const CwndSample& r) {
  return r.flow;
}
std::uint64_t group_of(const PacketTrace& r) {
  return r.node;
}

// stable_sort_table's result in linear time for the usual table: an LP emits its records in time
// order, so one stable pass by group (few groups: ports, flows) leaves each group sorted, which
// is checked (and sorted where not).
template <class R>
void sort_by_group(std::vector<R>& table) {
  if (std::is_sorted(table.begin(), table.end(), RecordOrder<R>::less)) return;
  std::unordered_map<std::uint64_t, std::uint32_t> bucket_of;
  std::vector<std::uint64_t> groups;
  std::vector<std::size_t> sizes;
  std::vector<std::uint32_t> bucket(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    const std::uint64_t group = group_of(table[i]);
    const auto [it, added] =
        bucket_of.try_emplace(group, static_cast<std::uint32_t>(groups.size()));
    if (added) {
      groups.push_back(group);
      sizes.push_back(0);
    }
    bucket[i] = it->second;
    ++sizes[it->second];
  }
  std::vector<std::uint32_t> by_group(groups.size());
  std::iota(by_group.begin(), by_group.end(), 0u);
  std::sort(by_group.begin(), by_group.end(),
            [&](std::uint32_t a, std::uint32_t b) { return groups[a] < groups[b]; });
  std::vector<std::size_t> next(groups.size());
  std::size_t at = 0;
  for (const std::uint32_t b : by_group) {
    next[b] = at;
    at += sizes[b];
  }
  std::vector<R> sorted(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) sorted[next[bucket[i]]++] = table[i];
  for (auto begin = sorted.begin(); const std::uint32_t b : by_group) {
    const auto end = begin + static_cast<std::ptrdiff_t>(sizes[b]);
    if (!std::is_sorted(begin, end, RecordOrder<R>::less))
      std::stable_sort(begin, end, RecordOrder<R>::less);
    begin = end;
  }
  table = std::move(sorted);
}

bool is_idle(const PortRecord& port) {
  return port.packets_sent == 0 && port.packets_dropped == 0;
}

}  // namespace

void NetworkResults::write(const engine::CommittedRecord& record) {
  if (record.holds<DeliveryRecord>()) return keep(record, deliveries);
  if (record.holds<FlowRecord>()) return keep(record, flows);
  if (record.holds<PortRecord>()) {
    if (skip_idle_ports && is_idle(record.as<PortRecord>())) return;
    return keep(record, ports);
  }
  if (record.holds<QueueSample>()) return keep(record, queue_samples);
  if (record.holds<PacketTrace>()) return keep(record, packet_traces);
  if (record.holds<CwndSample>()) return keep(record, cwnd_samples);
  if (record.holds<ReceiverRecord>()) return keep(record, receivers);
  if (record.holds<PortSample>()) return keep(record, port_samples);
  if (record.holds<FlowSample>()) return keep(record, flow_samples);
  if (record.holds<PortClassRecord>()) return keep(record, port_classes);
  if (record.holds<SwitchBufferRecord>()) return keep(record, switch_buffers);
  if (record.holds<DropRecord>()) return keep(record, drops);
  if (record.holds<PoolSample>()) return keep(record, pool_samples);
  if (record.holds<PoolIntervalSample>()) return keep(record, pool_interval_samples);
  if (record.holds<ClassSample>()) return keep(record, class_samples);
}

std::vector<std::byte> NetworkResults::to_bytes() const {
  std::vector<std::byte> out(
      table_bytes(deliveries) + table_bytes(flows) + table_bytes(ports) +
      table_bytes(queue_samples) + table_bytes(packet_traces) + table_bytes(cwnd_samples) +
      table_bytes(receivers) + table_bytes(port_samples) + table_bytes(flow_samples) +
      table_bytes(port_classes) + table_bytes(switch_buffers) + table_bytes(drops) +
      table_bytes(pool_samples) + table_bytes(pool_interval_samples) + table_bytes(class_samples));
  std::byte* at = put_table(out.data(), deliveries);
  at = put_table(at, flows);
  at = put_table(at, ports);
  at = put_table(at, queue_samples);
  at = put_table(at, packet_traces);
  at = put_table(at, cwnd_samples);
  at = put_table(at, receivers);
  at = put_table(at, port_samples);
  at = put_table(at, flow_samples);
  at = put_table(at, port_classes);
  at = put_table(at, switch_buffers);
  at = put_table(at, drops);
  at = put_table(at, pool_samples);
  at = put_table(at, pool_interval_samples);
  put_table(at, class_samples);
  return out;
}

void NetworkResults::append_bytes(std::span<const std::byte> bytes) {
  bytes = take_table(bytes, deliveries);
  bytes = take_table(bytes, flows);
  bytes = take_table(bytes, ports);
  bytes = take_table(bytes, queue_samples);
  bytes = take_table(bytes, packet_traces);
  bytes = take_table(bytes, cwnd_samples);
  bytes = take_table(bytes, receivers);
  bytes = take_table(bytes, port_samples);
  bytes = take_table(bytes, flow_samples);
  bytes = take_table(bytes, port_classes);
  bytes = take_table(bytes, switch_buffers);
  bytes = take_table(bytes, drops);
  bytes = take_table(bytes, pool_samples);
  bytes = take_table(bytes, pool_interval_samples);
  take_table(bytes, class_samples);
}

std::size_t NetworkResults::bytes_held() const {
  std::size_t bytes = 0;
  for_each_table([&](const auto& table) { bytes += table.size() * sizeof table.front(); });
  return bytes;
}

void NetworkResults::sort() {
  sort_table(deliveries);
  sort_table(flows);
  sort_table(ports);
  sort_by_group(queue_samples);
  sort_by_group(packet_traces);
  sort_by_group(cwnd_samples);
  sort_table(receivers);
  sort_by_group(port_samples);  // unique keys: sorted stably or not, the same table
  sort_by_group(flow_samples);
  sort_table(port_classes);
  sort_table(switch_buffers);
  sort_table(drops);
  stable_sort_table(pool_samples);
  sort_table(pool_interval_samples);
  sort_table(class_samples);
  join_receivers();
}

// Copies each receiver's counters into the sender's record of the same connection.
void NetworkResults::join_receivers() {
  for (FlowRecord& f : flows) {
    const auto it = std::lower_bound(
        receivers.begin(), receivers.end(), std::tie(f.flow, f.src),
        [](const ReceiverRecord& r, const auto& key) { return std::tie(r.flow, r.src) < key; });
    if (it != receivers.end() && it->flow == f.flow && it->src == f.src)
      f.ooo_discarded_segments = it->ooo_discarded_segments;
  }
}

NetworkTotals NetworkResults::totals(const Workload& workload) const {
  NetworkTotals t;
  t.messages = workload.messages.size();
  t.messages_delivered = deliveries.size();
  for (const DeliveryRecord& d : deliveries) {
    t.completion_time_ps = std::max(t.completion_time_ps, d.delivered_ps);
    t.bytes_delivered += workload.messages.at(d.message).bytes;
  }
  for (const FlowRecord& f : flows) {
    t.retransmission_timeouts += f.timeouts;
    t.retransmitted_segments += f.retransmitted_segments;
    t.fast_retransmits += f.fast_retransmits;
    t.duplicate_acks += f.duplicate_acks;
    t.syn_retransmissions += f.syn_retransmissions;
    t.limited_transmits += f.limited_transmits;
  }
  for (const ReceiverRecord& r : receivers) t.ooo_discarded_segments += r.ooo_discarded_segments;
  for (const PortRecord& p : ports) {
    t.packets_dropped += p.packets_dropped;
    t.ecn_marked += p.ecn_marked;
  }
  return t;
}

}  // namespace netwarp::netmodels
