// NetworkResults: collecting committed records, their byte form for gathering, canonical order.
#include "netwarp/netmodels/network_results.hpp"

#include "netwarp/engine/record_tables.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <tuple>

namespace netwarp::netmodels {

namespace {

template <class R>
void keep(const engine::CommittedRecord& record, std::vector<R>& table) {
  table.push_back(record.as<R>());
}

using engine::put_table;
using engine::table_bytes;
using engine::take_table;

}  // namespace

void NetworkResults::write(const engine::CommittedRecord& record) {
  if (record.holds<DeliveryRecord>()) return keep(record, deliveries);
  if (record.holds<FlowRecord>()) return keep(record, flows);
  if (record.holds<PortRecord>()) return keep(record, ports);
  if (record.holds<QueueSample>()) return keep(record, queue_samples);
  if (record.holds<PacketTrace>()) return keep(record, packet_traces);
  if (record.holds<CwndSample>()) return keep(record, cwnd_samples);
  if (record.holds<ReceiverRecord>()) return keep(record, receivers);
  if (record.holds<PortSample>()) return keep(record, port_samples);
  if (record.holds<FlowSample>()) return keep(record, flow_samples);
}

std::vector<std::byte> NetworkResults::to_bytes() const {
  std::vector<std::byte> out(table_bytes(deliveries) + table_bytes(flows) + table_bytes(ports) +
                             table_bytes(queue_samples) + table_bytes(packet_traces) +
                             table_bytes(cwnd_samples) + table_bytes(receivers) +
                             table_bytes(port_samples) + table_bytes(flow_samples));
  std::byte* at = put_table(out.data(), deliveries);
  at = put_table(at, flows);
  at = put_table(at, ports);
  at = put_table(at, queue_samples);
  at = put_table(at, packet_traces);
  at = put_table(at, cwnd_samples);
  at = put_table(at, receivers);
  at = put_table(at, port_samples);
  put_table(at, flow_samples);
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
  take_table(bytes, flow_samples);
}

void NetworkResults::sort() {
  std::sort(deliveries.begin(), deliveries.end(),
            [](const auto& a, const auto& b) { return a.message < b.message; });
  std::sort(flows.begin(), flows.end(),
            [](const auto& a, const auto& b) { return a.flow < b.flow; });
  std::sort(ports.begin(), ports.end(), [](const auto& a, const auto& b) {
    return std::tie(a.node, a.port) < std::tie(b.node, b.port);
  });
  // Stable: samples of one port at one instant keep the order their LP emitted them in.
  std::stable_sort(queue_samples.begin(), queue_samples.end(), [](const auto& a, const auto& b) {
    return std::tie(a.node, a.port, a.time_ps) < std::tie(b.node, b.port, b.time_ps);
  });
  std::stable_sort(packet_traces.begin(), packet_traces.end(), [](const auto& a, const auto& b) {
    return std::tie(a.node, a.time_ps) < std::tie(b.node, b.time_ps);
  });
  std::stable_sort(cwnd_samples.begin(), cwnd_samples.end(), [](const auto& a, const auto& b) {
    return std::tie(a.flow, a.time_ps) < std::tie(b.flow, b.time_ps);
  });
  std::sort(receivers.begin(), receivers.end(), [](const auto& a, const auto& b) {
    return std::tie(a.flow, a.src) < std::tie(b.flow, b.src);
  });
  std::sort(port_samples.begin(), port_samples.end(), [](const auto& a, const auto& b) {
    return std::tie(a.node, a.port, a.interval_start_ps) <
           std::tie(b.node, b.port, b.interval_start_ps);
  });
  std::sort(flow_samples.begin(), flow_samples.end(), [](const auto& a, const auto& b) {
    return std::tie(a.flow, a.interval_start_ps) < std::tie(b.flow, b.interval_start_ps);
  });
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
