// Time series CSV tables and flow completion times, from committed records.
#include "netwarp/netmodels/timeseries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <ostream>
#include <utility>

namespace netwarp::netmodels {

namespace {

const std::string& name_of(const NetworkSpec& spec, NodeId node) {
  return spec.topology.nodes[node].name;
}

bool is_same_port(const PortSample& a, const PortSample& b) {
  return a.node == b.node && a.port == b.port;
}

// Rows are formatted into one buffer, written out in large pieces.
class CsvBuffer {
 public:
  explicit CsvBuffer(std::ostream& out) : out_(out) {}
  ~CsvBuffer() { flush(); }
  CsvBuffer(const CsvBuffer&) = delete;
  CsvBuffer& operator=(const CsvBuffer&) = delete;

  template <class... Args>
  void row(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
    if (buffer_.size() > (1u << 20)) flush();
  }

 private:
  void flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }
  std::ostream& out_;
  fmt::memory_buffer buffer_;
};

void write_port_row(const PortSample& s, const NetworkSpec& spec, CsvBuffer& out) {
  const std::int64_t length = spec.outputs.sample_interval_ps;
  const NodeId peer = spec.topology.nodes[s.node].ports[s.port].peer;
  out.row("{},{},{},{},{},{},{:.6f},{},{}\n", s.interval_start_ps, name_of(spec, s.node), s.port,
          name_of(spec, peer), s.max_queue_bytes, s.mean_queue_bytes,
          static_cast<double>(s.busy_ps) / static_cast<double>(length), s.packets_dropped,
          s.bytes_dropped);
}

// A row of zeros for the interval after `s` when the port's next row is not that interval.
void write_idle_row_after(const PortSample& s, const PortSample* next, const NetworkSpec& spec,
                          CsvBuffer& out) {
  const std::int64_t after = s.interval_start_ps + spec.outputs.sample_interval_ps;
  if (next != nullptr && is_same_port(s, *next) && next->interval_start_ps == after) return;
  PortSample idle;
  idle.interval_start_ps = after;
  idle.node = s.node;
  idle.port = s.port;
  write_port_row(idle, spec, out);
}

}  // namespace

void write_ports_timeseries_csv(const NetworkResults& results, const NetworkSpec& spec,
                                std::ostream& out) {
  out << "interval_start_ps,node,port,peer,max_queue_bytes,mean_queue_bytes,utilisation,"
         "packets_dropped,bytes_dropped\n";
  const auto& rows = results.port_samples;
  CsvBuffer buffer(out);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    write_port_row(rows[i], spec, buffer);
    write_idle_row_after(rows[i], i + 1 < rows.size() ? &rows[i + 1] : nullptr, spec, buffer);
  }
}

void write_flows_timeseries_csv(const NetworkResults& results, const NetworkSpec& spec,
                                std::ostream& out) {
  out << "interval_start_ps,flow,src,dst,cwnd_bytes,ssthresh_bytes,delivered_bytes,acked_bytes,"
         "rto_events\n";
  const auto& messages = spec.workload.messages;
  const FlowSample* previous = nullptr;
  CsvBuffer buffer(out);
  for (const FlowSample& s : results.flow_samples) {
    if (previous != nullptr && previous->flow != s.flow) previous = nullptr;
    const std::uint64_t acked_before = previous == nullptr ? 0 : previous->acked_bytes;
    const std::uint64_t timeouts_before = previous == nullptr ? 0 : previous->timeouts;
    const bool is_known = s.flow < messages.size();
    buffer.row("{},{},{},{},{},{},{},{},{}\n", s.interval_start_ps, s.flow,
               is_known ? name_of(spec, messages[s.flow].src) : "",
               is_known ? name_of(spec, messages[s.flow].dst) : "", s.cwnd, s.ssthresh,
               s.acked_bytes - acked_before, s.acked_bytes, s.timeouts - timeouts_before);
    previous = &s;
  }
}

std::vector<std::int64_t> flow_completion_times(const NetworkResults& results) {
  std::vector<std::int64_t> times;
  for (const DeliveryRecord& d : results.deliveries) {
    const auto it = std::lower_bound(results.flows.begin(), results.flows.end(), d.message,
                                     [](const FlowRecord& f, MessageId id) { return f.flow < id; });
    if (it == results.flows.end() || it->flow != d.message || it->start_ps < 0) continue;
    times.push_back(d.delivered_ps - it->start_ps);
  }
  std::sort(times.begin(), times.end());
  return times;
}

std::int64_t percentile(const std::vector<std::int64_t>& ascending, double p) {
  if (ascending.empty()) return -1;
  const auto rank =
      static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(ascending.size())));
  return ascending[std::clamp<std::size_t>(rank, 1, ascending.size()) - 1];
}

void write_fct_cdf_csv(const std::vector<std::int64_t>& ascending, std::ostream& out) {
  out << "fct_ps,fraction\n";
  const double n = static_cast<double>(ascending.size());
  for (std::size_t i = 0; i < ascending.size(); ++i)
    out << fmt::format("{},{:.6f}\n", ascending[i], static_cast<double>(i + 1) / n);
}

}  // namespace netwarp::netmodels
