// ResultsSource: per-rank part files of committed records and their streamed merge.
#include "netwarp/netmodels/results_source.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace netwarp::netmodels {

void write_result_parts(const NetworkResults& sorted, const std::string& dir, int rank) {
  sorted.for_each_table([&]<class R>(const std::vector<R>& table) {
    write_record_file(table, part_path<R>(dir, rank));
  });
}

void remove_result_parts(const std::string& dir, int ranks) {
  for (int rank = 0; rank < ranks; ++rank)
    for_each_record_type(
        [&]<class R>(std::type_identity<R>) { std::remove(part_path<R>(dir, rank).c_str()); });
}

template <class R>
RecordRun<R>::RecordRun(const std::string& path)
    : file_(std::make_unique<std::ifstream>(path, std::ios::binary)) {
  if (!*file_) throw std::runtime_error(path + ": cannot read a results part file");
}

template <class R>
bool RecordRun<R>::refill() {
  if (!file_) return false;
  buffer_.resize(kChunk);
  file_->read(reinterpret_cast<char*>(buffer_.data()),
              static_cast<std::streamsize>(kChunk * sizeof(R)));
  const auto got = static_cast<std::size_t>(file_->gcount());
  if (got % sizeof(R) != 0) throw std::runtime_error("results part file: truncated record");
  records_ = std::span<const R>(buffer_.data(), got / sizeof(R));
  at_ = 0;
  return !records_.empty();
}

namespace {

template <class R>
const std::vector<R>& table_of(const NetworkResults& m) {
  return std::get<const std::vector<R>&>(
      std::tie(m.deliveries, m.flows, m.ports, m.queue_samples, m.packet_traces, m.cwnd_samples,
               m.receivers, m.port_samples, m.flow_samples, m.port_classes, m.switch_buffers,
               m.drops, m.pool_samples, m.pool_interval_samples, m.class_samples));
}

}  // namespace

ResultsSource::ResultsSource(const std::string& dir, int ranks) {
  for (int rank = 0; rank < ranks; ++rank) parts_.push_back(Part{{part_stem(dir, rank)}, nullptr});
}

template <class R>
MergedRecords<R> ResultsSource::open() const {
  std::vector<RecordRun<R>> runs;
  for (const Part& part : parts_) {
    for (const std::string& stem : part.stems) runs.emplace_back(table_path<R>(stem));
    if (const NetworkResults* m = part.newest) {
      runs.emplace_back(std::span<const R>(table_of<R>(*m)));
    }
  }
  return MergedRecords<R>(std::move(runs));
}

template <class R>
std::uint64_t ResultsSource::count() const {
  std::uint64_t records = 0;
  for (const Part& part : parts_) {
    for (const std::string& stem : part.stems) {
      std::error_code unreadable;  // opening it fails alike and says so
      const std::uintmax_t bytes = std::filesystem::file_size(table_path<R>(stem), unreadable);
      if (!unreadable) records += bytes / sizeof(R);
    }
    if (const NetworkResults* m = part.newest) {
      records += table_of<R>(*m).size();
    }
  }
  return records;
}

#define NETWARP_RECORD_TABLE(R)                             \
  template class RecordRun<R>;                              \
  template MergedRecords<R> ResultsSource::open<R>() const; \
  template std::uint64_t ResultsSource::count<R>() const;
NETWARP_RECORD_TABLE(DeliveryRecord)
NETWARP_RECORD_TABLE(FlowRecord)
NETWARP_RECORD_TABLE(PortRecord)
NETWARP_RECORD_TABLE(QueueSample)
NETWARP_RECORD_TABLE(PacketTrace)
NETWARP_RECORD_TABLE(CwndSample)
NETWARP_RECORD_TABLE(ReceiverRecord)
NETWARP_RECORD_TABLE(PortSample)
NETWARP_RECORD_TABLE(FlowSample)
NETWARP_RECORD_TABLE(PortClassRecord)
NETWARP_RECORD_TABLE(SwitchBufferRecord)
NETWARP_RECORD_TABLE(DropRecord)
NETWARP_RECORD_TABLE(PoolSample)
NETWARP_RECORD_TABLE(PoolIntervalSample)
NETWARP_RECORD_TABLE(ClassSample)
#undef NETWARP_RECORD_TABLE

NetworkTotals ResultsSource::totals(const Workload& workload) const {
  NetworkTotals t;
  t.messages = workload.messages.size();
  for (auto d = open<DeliveryRecord>(); const DeliveryRecord* r = d.peek(); d.pop()) {
    ++t.messages_delivered;
    t.completion_time_ps = std::max(t.completion_time_ps, r->delivered_ps);
    t.bytes_delivered += workload.messages.at(r->message).bytes;
  }
  for (auto f = open<FlowRecord>(); const FlowRecord* r = f.peek(); f.pop()) {
    t.retransmission_timeouts += r->timeouts;
    t.retransmitted_segments += r->retransmitted_segments;
    t.fast_retransmits += r->fast_retransmits;
    t.duplicate_acks += r->duplicate_acks;
    t.syn_retransmissions += r->syn_retransmissions;
    t.limited_transmits += r->limited_transmits;
  }
  for (auto rc = open<ReceiverRecord>(); const ReceiverRecord* r = rc.peek(); rc.pop())
    t.ooo_discarded_segments += r->ooo_discarded_segments;
  for (auto p = open<PortRecord>(); const PortRecord* r = p.peek(); p.pop()) {
    t.packets_dropped += r->packets_dropped;
    t.ecn_marked += r->ecn_marked;
  }
  return t;
}

std::int64_t ResultsSource::busy_span() const {
  std::int64_t span = 0;
  for (auto p = open<PortRecord>(); const PortRecord* r = p.peek(); p.pop())
    span = std::max(span, r->busy_until_ps);
  return span;
}

FlowRows::FlowRows(const ResultsSource& source)
    : flows_(source.open<FlowRecord>()),
      deliveries_(source.open<DeliveryRecord>()),
      receivers_(source.open<ReceiverRecord>()) {}

bool FlowRows::next(Row& row) {
  const FlowRecord* f = flows_.peek();
  if (f == nullptr) return false;
  row.flow = *f;
  flows_.pop();
  const DeliveryRecord* d = deliveries_.peek();
  while (d != nullptr && d->message < row.flow.flow) {
    deliveries_.pop();
    d = deliveries_.peek();
  }
  row.delivered_ps = d != nullptr && d->message == row.flow.flow ? d->delivered_ps : -1;
  const auto key = std::tie(row.flow.flow, row.flow.src);
  const ReceiverRecord* r = receivers_.peek();
  while (r != nullptr && std::tie(r->flow, r->src) < key) {
    receivers_.pop();
    r = receivers_.peek();
  }
  if (r != nullptr && std::tie(r->flow, r->src) == key)
    row.flow.ooo_discarded_segments = r->ooo_discarded_segments;
  return true;
}

}  // namespace netwarp::netmodels
