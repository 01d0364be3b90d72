// Time series CSV tables and flow completion times, from committed records.
#include "netwarp/netmodels/timeseries.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <ostream>
#include <string>
#include <utility>

#include "netwarp/netmodels/csv_text.hpp"

namespace netwarp::netmodels {

namespace {

const std::string& name_of(const NetworkSpec& spec, NodeId node) {
  return spec.topology.nodes[node].name;
}

bool is_same_port(const PortSample& a, const PortSample& b) {
  return a.node == b.node && a.port == b.port;
}

// The shared pools' time series (PoolIntervalSample, by node and interval), joined into the
// rows of their switches' ports: the pool's highest and mean occupancy over a row's intervals.
class PoolIntervals {
 public:
  PoolIntervals(const ResultsSource& results, const NetworkSpec& spec)
      : length_(spec.outputs.sample_interval_ps),
        is_shared_(spec.switches.shared_buffer.bytes != 0) {
    if (!is_shared_) return;
    auto rows = results.open<PoolIntervalSample>();
    for (; const PoolIntervalSample* r = rows.peek(); rows.pop()) rows_.push_back(*r);
  }
  bool is_shared() const { return is_shared_; }
  // ",max,mean" for a switch port's row; ",," for a host's.
  void append(const PortSample& s, const NetworkSpec& spec, CsvBuffer& out) const {
    if (spec.topology.is_host(s.node)) return out.row(FMT_COMPILE(",,"));
    const std::int64_t from = s.interval_start_ps;
    const std::int64_t to = from + static_cast<std::int64_t>(s.intervals) * length_;
    std::uint64_t max = 0;
    double area = 0;  // mean occupancy x intervals
    // Rows are by (node, interval), each node's intervals disjoint and increasing: the first
    // one of this node that ends after `from` (a search, not a walk from the node's first row,
    // which made a long run's file quadratic in its intervals).
    const auto first = std::partition_point(rows_.begin(), rows_.end(), [&](const auto& r) {
      return r.node < s.node || (r.node == s.node && end_of(r) <= from);
    });
    for (auto r = first; r != rows_.end() && r->node == s.node && r->interval_start_ps < to; ++r) {
      const std::int64_t overlap = std::min(to, end_of(*r)) - std::max(from, r->interval_start_ps);
      max = std::max(max, r->max_used_bytes);
      area += static_cast<double>(r->mean_used_bytes) * static_cast<double>(overlap / length_);
    }
    out.row(FMT_COMPILE(",{},{}"), max,
            static_cast<std::uint64_t>(area / static_cast<double>(s.intervals)));
  }

 private:
  std::int64_t end_of(const PoolIntervalSample& r) const {
    return r.interval_start_ps + static_cast<std::int64_t>(r.intervals) * length_;
  }

  std::int64_t length_;
  bool is_shared_;
  std::vector<PoolIntervalSample> rows_;
};

void write_port_row(const PortSample& s, const NetworkSpec& spec, const PoolIntervals& pools,
                    CsvBuffer& out) {
  const std::int64_t length = spec.outputs.sample_interval_ps;
  const NodeId peer = spec.topology.nodes[s.node].ports[s.port].peer;
  out.number(s.interval_start_ps).comma().text(name_of(spec, s.node)).comma().number(s.port);
  out.comma().text(name_of(spec, peer)).comma().number(s.max_queue_bytes).comma();
  out.number(s.mean_queue_bytes).comma();
  out.fixed6(static_cast<double>(s.busy_ps) / static_cast<double>(length)).comma();
  out.number(s.packets_dropped).comma().number(s.bytes_dropped).comma().number(s.intervals);
  if (pools.is_shared()) pools.append(s, spec, out);
  out.end_row();
}

// A row of zeros for the interval after `s`'s last when the port's next row is not that interval.
void write_idle_row_after(const PortSample& s, const PortSample* next, const NetworkSpec& spec,
                          const PoolIntervals& pools, CsvBuffer& out) {
  const std::int64_t after = s.interval_start_ps + static_cast<std::int64_t>(s.intervals) *
                                                       spec.outputs.sample_interval_ps;
  if (next != nullptr && is_same_port(s, *next) && next->interval_start_ps == after) return;
  PortSample idle;
  idle.interval_start_ps = after;
  idle.node = s.node;
  idle.port = s.port;
  write_port_row(idle, spec, pools, out);
}

// A sender's event that left what a row shows as it was (a stopped timer firing late) makes
// no row of its own.
bool shows_no_change(const FlowSample& before, const FlowSample& s) {
  return s.cwnd == before.cwnd && s.ssthresh == before.ssthresh &&
         s.acked_bytes == before.acked_bytes && s.timeouts == before.timeouts;
}

}  // namespace

bool has_ssthresh(std::uint64_t ssthresh) {
  return ssthresh < static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}

void write_ports_timeseries_csv(const ResultsSource& results, const NetworkSpec& spec,
                                std::ostream& out) {
  const PoolIntervals pools(results, spec);
  out << "interval_start_ps,node,port,peer,max_queue_bytes,mean_queue_bytes,utilisation,"
         "packets_dropped,bytes_dropped,intervals"
      << (pools.is_shared() ? ",pool_max_bytes,pool_mean_bytes\n" : "\n");
  CsvBuffer buffer(out);
  auto rows = results.open<PortSample>();
  for (const PortSample* row = rows.peek(); row != nullptr;) {
    const PortSample current = *row;
    rows.pop();
    row = rows.peek();
    write_port_row(current, spec, pools, buffer);
    write_idle_row_after(current, row, spec, pools, buffer);
  }
}

void write_classes_timeseries_csv(const ResultsSource& results, const NetworkSpec& spec,
                                  std::ostream& out) {
  const bool has_pfc = spec.switches.pfc.enabled;
  out << "interval_start_ps,node,port,priority,max_queue_bytes,end_queue_bytes,packets_sent,"
         "bytes_sent,packets_dropped,bytes_dropped,ecn_marked"
      << (has_pfc ? ",pause_frames,pause_frames_received\n" : "\n");
  CsvBuffer buffer(out);
  auto rows = results.open<ClassSample>();
  for (; const ClassSample* s = rows.peek(); rows.pop()) {
    buffer.number(s->interval_start_ps).comma().text(name_of(spec, s->node)).comma();
    buffer.number(s->port).comma().number(s->priority).comma().number(s->max_queue_bytes).comma();
    buffer.number(s->end_queue_bytes).comma().number(s->packets_sent).comma();
    buffer.number(s->bytes_sent).comma().number(s->packets_dropped).comma();
    buffer.number(s->bytes_dropped).comma().number(s->ecn_marked);
    if (has_pfc)
      buffer.comma().number(s->pause_frames_sent).comma().number(s->pause_frames_received);
    buffer.end_row();
  }
}

void write_flows_timeseries_csv(const ResultsSource& results, const NetworkSpec& spec,
                                std::ostream& out) {
  out << "interval_start_ps,flow,src,dst,cwnd_bytes,ssthresh_bytes,delivered_bytes,acked_bytes,"
         "rto_events\n";
  const auto& messages = spec.workload.messages;
  FlowSample previous;
  bool has_previous = false;
  CsvBuffer buffer(out);
  auto samples = results.open<FlowSample>();
  for (; const FlowSample* s = samples.peek(); samples.pop()) {
    if (has_previous && previous.flow != s->flow) has_previous = false;
    const std::uint64_t acked_before = has_previous ? previous.acked_bytes : 0;
    const std::uint64_t timeouts_before = has_previous ? previous.timeouts : 0;
    if (has_previous && shows_no_change(previous, *s)) continue;
    const bool is_known = s->flow < messages.size();
    buffer.number(s->interval_start_ps).comma().number(s->flow).comma();
    if (is_known) buffer.text(name_of(spec, messages[s->flow].src));
    buffer.comma();
    if (is_known) buffer.text(name_of(spec, messages[s->flow].dst));
    buffer.comma().number(s->cwnd).comma();
    if (has_ssthresh(s->ssthresh)) buffer.number(s->ssthresh);
    buffer.comma().number(s->acked_bytes - acked_before).comma().number(s->acked_bytes).comma();
    buffer.number(s->timeouts - timeouts_before).end_row();
    previous = *s;
    has_previous = true;
  }
}

void write_ports_timeseries_csv(const NetworkResults& results, const NetworkSpec& spec,
                                std::ostream& out) {
  write_ports_timeseries_csv(ResultsSource(results), spec, out);
}

void write_flows_timeseries_csv(const NetworkResults& results, const NetworkSpec& spec,
                                std::ostream& out) {
  write_flows_timeseries_csv(ResultsSource(results), spec, out);
}

std::vector<std::int64_t> flow_completion_times(const ResultsSource& results) {
  std::vector<std::int64_t> times;
  FlowRows rows(results);
  for (FlowRows::Row row; rows.next(row);)
    if (row.delivered_ps >= 0 && row.flow.start_ps >= 0)
      times.push_back(row.delivered_ps - row.flow.start_ps);
  std::sort(times.begin(), times.end());
  return times;
}

std::vector<std::int64_t> flow_completion_times(const NetworkResults& results) {
  return flow_completion_times(ResultsSource(results));
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
  CsvBuffer buffer(out);
  for (std::size_t i = 0; i < ascending.size(); ++i)
    buffer.number(ascending[i]).comma().fixed6(static_cast<double>(i + 1) / n).end_row();
}

}  // namespace netwarp::netmodels
