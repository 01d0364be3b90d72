// NetworkResults: the committed records of a network run, collected from the engine's sink,
// merged across MPI ranks, put in a canonical order and summed into the totals results.json
// reports. What a person reads comes from here, never from LP state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "netwarp/engine/event.hpp"
#include "netwarp/netmodels/records.hpp"
#include "netwarp/netmodels/workload.hpp"

namespace netwarp::netmodels {

struct NetworkTotals {
  std::int64_t completion_time_ps = 0;  // last delivery (0 if none)
  std::uint64_t messages = 0;
  std::uint64_t messages_delivered = 0;
  std::uint64_t bytes_delivered = 0;
  std::uint64_t packets_dropped = 0;
  std::uint64_t retransmission_timeouts = 0;
  std::uint64_t retransmitted_segments = 0;
  std::uint64_t fast_retransmits = 0;
  std::uint64_t duplicate_acks = 0;
  std::uint64_t syn_retransmissions = 0;
  std::uint64_t limited_transmits = 0;
  std::uint64_t ecn_marked = 0;
  std::uint64_t ooo_discarded_segments = 0;  // TCP receivers' max_ooo_ranges discards
};

class NetworkResults final : public engine::RecordSink {
 public:
  void write(const engine::CommittedRecord& record) override;

  // Everything collected, as bytes for RankExchange::gather, and the merge of such parts.
  std::vector<std::byte> to_bytes() const;
  void append_bytes(std::span<const std::byte> bytes);
  // Sorts every table into a canonical order (by id, then time), so output does not depend on
  // the kernel or the rank count.
  void sort();
  void join_receivers();
  NetworkTotals totals(const Workload& workload) const;
  std::size_t bytes_held() const;  // the records of every table
  // fn(table) for every record table, in one fixed order: the one list of the tables that
  // per-table loops (part files, spilled runs) go through.
  template <class Fn>
  void for_each_table(Fn&& fn) const {
    fn(deliveries);
    fn(flows);
    fn(ports);
    fn(queue_samples);
    fn(packet_traces);
    fn(cwnd_samples);
    fn(receivers);
    fn(port_samples);
    fn(flow_samples);
    fn(port_classes);
    fn(switch_buffers);
    fn(drops);
    fn(pool_samples);
    fn(pool_interval_samples);
    fn(class_samples);
  }

  // Drop the PortRecords of ports that neither sent nor dropped anything: outputs list only
  // ports that carried traffic, and idle ones are most ports of a big network with a small
  // workload (a record each would cost more than the ports' state).
  bool skip_idle_ports = false;

  std::vector<DeliveryRecord> deliveries;
  std::vector<FlowRecord> flows;
  std::vector<PortRecord> ports;
  std::vector<QueueSample> queue_samples;
  std::vector<PacketTrace> packet_traces;
  std::vector<CwndSample> cwnd_samples;
  std::vector<ReceiverRecord> receivers;
  std::vector<PortSample> port_samples;                   // time series, by (node, port, interval)
  std::vector<FlowSample> flow_samples;                   // time series, by (flow, interval)
  std::vector<PortClassRecord> port_classes;              // by (node, port, priority)
  std::vector<SwitchBufferRecord> switch_buffers;         // by node
  std::vector<DropRecord> drops;                          // by (time, node, port, flow)
  std::vector<PoolSample> pool_samples;                   // by (node, time)
  std::vector<PoolIntervalSample> pool_interval_samples;  // by (node, interval)
  std::vector<ClassSample> class_samples;                 // by (node, port, priority, interval)
};

// fn(std::type_identity<R>{}) for every record table R, in for_each_table's order.
template <class Fn>
void for_each_record_type(Fn&& fn) {
  NetworkResults{}.for_each_table(
      [&]<class R>(const std::vector<R>&) { fn(std::type_identity<R>{}); });
}

}  // namespace netwarp::netmodels
