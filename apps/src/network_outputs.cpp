// Results of a packet-network run as files a person can open: JSON, CSV, pcap.
#include "network_outputs.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <future>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "app_context.hpp"
#include "class_results.hpp"
#include "netwarp/engine/cpu_pinning.hpp"
#include "netwarp/netmodels/csv_text.hpp"
#include "netwarp/netmodels/network_context.hpp"
#include "netwarp/netmodels/pcap_writer.hpp"
#include "netwarp/netmodels/timeseries.hpp"
#include "pfc_report.hpp"
#include "row_channel.hpp"
#include "run_report.hpp"
#include "run_timeseries.hpp"

namespace netwarp::apps {
namespace {

using netmodels::NetworkResults;
using netmodels::NetworkSpec;

const std::string& node_name(const NetworkSpec& spec, netmodels::NodeId n) {
  return spec.topology.nodes[n].name;
}

const std::string& class_name(const netmodels::Workload& w, std::uint16_t class_id) {
  static const std::string kDefault = "workload";
  return class_id < w.classes.size() ? w.classes[class_id].name : kDefault;
}

}  // namespace

void add_tcp_counters(nlohmann::ordered_json& row, const netmodels::FlowRecord& f) {
  for_each_tcp_counter(f, [&](const char* key, std::uint64_t value) { row[key] = value; });
}

void add_tcp_counters(TableRow& row, const netmodels::FlowRecord& f) {
  for_each_tcp_counter(f, [&](TableRow::Key key, std::uint64_t value) { row.add(key, value); });
}

namespace {

// One row per message: the sender's record joined with the receiver's delivery.
TableRow flow_row(const NetworkRunReport& rep, const netmodels::FlowRows::Row& row) {
  const auto& f = row.flow;
  const auto& m = rep.spec->workload.messages[f.flow];
  TableRow r;
  r.add("flow", f.flow);
  r.add("src", std::string_view(node_name(*rep.spec, m.src)));
  r.add("dst", std::string_view(node_name(*rep.spec, m.dst)));
  r.add("bytes", f.bytes);
  r.add_time_or_null("start_ps", f.start_ps);            // null: not started when the run stopped
  r.add_time_or_null("delivered_ps", row.delivered_ps);  // null: not delivered
  r.add_time_or_null("completed_ps", f.completed_ps);    // null: never acknowledged
  r.add("class", std::string_view(class_name(rep.spec->workload, m.class_id)));
  if (row.delivered_ps >= 0 && f.start_ps >= 0) {
    r.add("slowdown", flow_slowdown(rep, f.flow, row.delivered_ps - f.start_ps));
  } else {
    r.add_absent("slowdown");
  }
  add_tcp_counters(r, f);
  return r;
}

template <class Fn>
void for_each_flow_row(const NetworkRunReport& rep, Fn&& fn) {
  netmodels::FlowRows rows(*rep.results);
  for (netmodels::FlowRows::Row row; rows.next(row);) fn(flow_row(rep, row));
}

// Busy fraction over the run: up to the last bit any port sent (a host port runs at the NIC
// rate when one is set).
double utilisation(const NetworkSpec& spec, const netmodels::PortRecord& p, std::int64_t span) {
  auto rate = spec.topology.nodes[p.node].ports[p.port].rate_bps;
  if (spec.topology.is_host(p.node) && spec.nic.rate_bps != 0) rate = spec.nic.rate_bps;
  if (span <= 0 || rate == 0) return 0;
  return static_cast<double>(p.bytes_sent) * 8 / (static_cast<double>(rate) * 1e-12 * span);
}

TableRow port_row(const NetworkRunReport& rep, const netmodels::PortRecord& p, std::int64_t span) {
  TableRow r;
  r.add("node", std::string_view(node_name(*rep.spec, p.node)));
  r.add("port", p.port);
  r.add("peer", std::string_view(node_name(*rep.spec, p.peer)));
  r.add("packets_sent", p.packets_sent);
  r.add("bytes_sent", p.bytes_sent);
  r.add("packets_dropped", p.packets_dropped);
  r.add("bytes_dropped", p.bytes_dropped);
  r.add("ecn_marked", p.ecn_marked);
  r.add("max_queue_bytes", p.max_queue_bytes);
  r.add("max_queue_packets", p.max_queue_packets);
  r.add("utilisation", utilisation(*rep.spec, p, span));
  // From its first bit sent to its last.
  r.add("busy_utilisation", utilisation(*rep.spec, p, p.busy_until_ps - p.first_sent_ps));
  return r;
}

// Ports that carried or dropped anything; under PFC with their PAUSE frames and paused time.
template <class Fn>
void for_each_port_row(const NetworkRunReport& rep, std::int64_t span, Fn&& fn) {
  const bool has_pfc = rep.spec->switches.pfc.enabled;
  const PfcSummary pfc = has_pfc ? summarise_pfc(*rep.spec, *rep.results) : PfcSummary{};
  auto ports = rep.results->open<netmodels::PortRecord>();
  for (; const netmodels::PortRecord* p = ports.peek(); ports.pop()) {
    if (p->packets_sent == 0 && p->packets_dropped == 0) continue;
    TableRow row = port_row(rep, *p, span);
    if (has_pfc) {
      const auto found = pfc.ports.find({p->node, p->port});
      const PortPauses pauses = found != pfc.ports.end() ? found->second : PortPauses{};
      row.add("pause_frames", pauses.frames_sent);
      row.add("pause_frames_received", pauses.frames_received);
      row.add("paused_ps", pauses.paused_ps);
    }
    fn(row);
  }
}

// The rows of a table results.json holds (flows, ports), in their order.
template <class Fn>
void for_each_table_row(const NetworkRunReport& rep, JsonTable table, Fn&& fn) {
  if (table == JsonTable::flows) return for_each_flow_row(rep, fn);
  for_each_port_row(rep, rep.results->busy_span(), fn);
}

// results.json's rows of `table`: built by another thread (`built`) or here.
template <class Fn>
void json_table_rows(const NetworkRunReport& rep, JsonTable table, RowChannel* built, Fn&& fn) {
  if (built != nullptr) return built->read_table(fn);
  for_each_table_row(rep, table, fn);
}

// results.json's rows of flows and ports, built here and handed to its thread through `built`.
void build_json_rows(const NetworkRunReport& rep, RowChannel& built) {
  for (const JsonTable table : {JsonTable::flows, JsonTable::ports}) {
    for_each_table_row(rep, table, [&](const TableRow& row) { built.put(row); });
    built.end_table();
  }
}

TableRow port_class_row(const NetworkRunReport& rep, const netmodels::PortClassRecord& c) {
  TableRow r;
  r.add("node", std::string_view(node_name(*rep.spec, c.node)));
  r.add("port", c.port);
  r.add("priority", c.priority);
  r.add("packets_sent", c.packets_sent);
  r.add("bytes_sent", c.bytes_sent);
  r.add("packets_dropped", c.packets_dropped);
  r.add("bytes_dropped", c.bytes_dropped);
  r.add("ecn_marked", c.ecn_marked);
  r.add("max_queue_bytes", c.max_queue_bytes);
  if (!rep.spec->switches.pfc.enabled) return r;
  r.add("pause_frames", c.pause_frames_sent);
  r.add("pause_frames_received", c.pause_frames_received);
  r.add("paused_ps", c.paused_ps);
  r.add("max_ingress_bytes", c.max_ingress_bytes);
  r.add("max_headroom_bytes", c.max_headroom_bytes);
  r.add("ingress_overflows", c.ingress_overflows);
  return r;
}

// The traffic classes of every port that has them (SwitchConfig::classes), by port and priority.
template <class Fn>
void for_each_port_class_row(const NetworkRunReport& rep, Fn&& fn) {
  auto classes = rep.results->open<netmodels::PortClassRecord>();
  for (; const netmodels::PortClassRecord* c = classes.peek(); classes.pop())
    fn(port_class_row(rep, *c));
}

// The shared buffer of every switch (SwitchConfig::shared_buffer): its size, its unreserved
// part, and its peak occupancy.
template <class Fn>
void for_each_switch_buffer_row(const NetworkRunReport& rep, Fn&& fn) {
  auto buffers = rep.results->open<netmodels::SwitchBufferRecord>();
  for (; const netmodels::SwitchBufferRecord* b = buffers.peek(); buffers.pop()) {
    TableRow r;
    r.add("node", std::string_view(node_name(*rep.spec, b->node)));
    r.add("pool_bytes", b->pool_bytes);
    r.add("shared_bytes", b->shared_bytes);
    r.add("max_used_bytes", b->max_used_bytes);
    fn(r);
  }
}

bool has_port_classes(const NetworkRunReport& rep) {
  return netmodels::has_class_queues(rep.spec->switches);
}

}  // namespace

nlohmann::ordered_json port_classes_json(const NetworkRunReport& rep) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for_each_port_class_row(rep, [&](const TableRow& row) { rows.push_back(row.to_json()); });
  return rows;
}

nlohmann::ordered_json ports_json(const NetworkRunReport& rep, std::int64_t span) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for_each_port_row(rep, span, [&](const TableRow& row) { rows.push_back(row.to_json()); });
  return rows;
}

std::int64_t busy_span(const netmodels::NetworkResults& results) {
  std::int64_t span = 0;
  for (const auto& port : results.ports) span = std::max(span, port.busy_until_ps);
  return span;
}

namespace {

// results.json's fields before the tables.
nlohmann::ordered_json results_head_json(const NetworkRunReport& rep) {
  const netmodels::NetworkTotals& t = rep.totals;
  nlohmann::ordered_json j;
  j["scenario"] = rep.scenario_name;
  j["scenario_file"] = rep.scenario_path;
  j["completed"] = t.messages_delivered == t.messages;
  j["completion_time_ps"] = t.completion_time_ps;
  j["messages"] = t.messages;
  j["messages_delivered"] = t.messages_delivered;
  j["bytes_delivered"] = t.bytes_delivered;
  j["packets_dropped"] = t.packets_dropped;
  j["retransmission_timeouts"] = t.retransmission_timeouts;
  j["retransmitted_segments"] = t.retransmitted_segments;
  j["fast_retransmits"] = t.fast_retransmits;
  j["duplicate_acks"] = t.duplicate_acks;
  j["syn_retransmissions"] = t.syn_retransmissions;
  j["limited_transmits"] = t.limited_transmits;
  j["ecn_marked"] = t.ecn_marked;
  j["ooo_discarded_segments"] = t.ooo_discarded_segments;
  j["hosts"] = rep.spec->topology.host_count;
  j["switches"] = rep.spec->topology.switch_count();
  const nlohmann::ordered_json engine_stats = stats_to_json(*rep.stats);
  for (const auto& [key, value] : engine_stats.items()) j[key] = value;
  j["window_us"] = window_json(rep.window_us, *rep.stats);
  if (rep.rank_memory) j["rank_memory"] = rank_memory_json(*rep.rank_memory);
  j["sample_interval_ps"] = rep.spec->outputs.sample_interval_ps;  // time series; 0: none
  j["flow_completion"] = flow_completion_json(*rep.results);
  j["classes"] = classes_json(class_results(rep));
  if (rep.spec->switches.pfc.enabled) {
    const PfcSummary pfc = summarise_pfc(*rep.spec, *rep.results);
    j["pause_frames"] = pfc.frames_sent;  // per port: the ports table
    j["paused_ps"] = pfc.paused_ps;
  }
  return j;
}

}  // namespace

namespace {

// With a shared buffer: the switch's pool occupancy at each queue sample (its last change at or
// before the sample's time; 0 before any), from the pool's own samples.
class PoolLevels {
 public:
  explicit PoolLevels(const NetworkRunReport& rep)
      : is_shared_(rep.spec->switches.shared_buffer.bytes != 0) {
    if (!is_shared_) return;
    auto samples = rep.results->open<netmodels::PoolSample>();
    for (; const netmodels::PoolSample* s = samples.peek(); samples.pop()) samples_.push_back(*s);
  }
  bool is_shared() const { return is_shared_; }
  std::uint64_t at(netmodels::NodeId node, std::int64_t time_ps) const {
    const auto after = std::upper_bound(
        samples_.begin(), samples_.end(), std::pair{node, time_ps},
        [](const std::pair<netmodels::NodeId, std::int64_t>& key, const netmodels::PoolSample& s) {
          return key < std::pair{s.node, s.time_ps};
        });
    if (after == samples_.begin() || std::prev(after)->node != node) return 0;
    return std::prev(after)->used_bytes;
  }

 private:
  bool is_shared_;
  std::vector<netmodels::PoolSample> samples_;  // by node, then time (emission order)
};

void write_queue_csv(const NetworkRunReport& rep, const std::string& path) {
  static constexpr std::string_view kEvents[] = {"admitted", "departed", "dropped"};
  const PoolLevels pools(rep);
  auto out = open_for_writing(path);
  const bool has_classes = has_port_classes(rep);
  out << "time_ps,node,port,event,queue_bytes,queue_packets"
      << (pools.is_shared() ? ",pool_bytes" : "") << (has_classes ? ",priority\n" : "\n");
  netmodels::CsvBuffer csv(out);
  auto samples = rep.results->open<netmodels::QueueSample>();
  for (; const netmodels::QueueSample* s = samples.peek(); samples.pop()) {
    csv.number(s->time_ps).comma().text(node_name(*rep.spec, s->node)).comma().number(s->port);
    csv.comma().text(kEvents[s->event]).comma().number(s->bytes).comma().number(s->packets);
    if (pools.is_shared()) {
      csv.comma();
      if (!rep.spec->topology.is_host(s->node)) csv.number(pools.at(s->node, s->time_ps));
    }
    // A class's row (OutputPort::sample_class) holds 1 + its priority; the port's, 0.
    if (has_classes) {
      csv.comma();
      if (s->reserved != 0) csv.number(s->reserved - 1);
    }
    csv.end_row();
  }
  csv.flush();
  close_written(out, path);
}

void write_cwnd_csv(const NetworkRunReport& rep, const std::string& path) {
  auto out = open_for_writing(path);
  out << "time_ps,flow,cwnd_bytes,ssthresh_bytes\n";
  netmodels::CsvBuffer csv(out);
  auto samples = rep.results->open<netmodels::CwndSample>();
  for (; const netmodels::CwndSample* s = samples.peek(); samples.pop()) {
    csv.number(s->time_ps).comma().number(s->flow).comma().number(s->cwnd).comma();
    if (netmodels::has_ssthresh(s->ssthresh)) csv.number(s->ssthresh);
    csv.end_row();
  }
  csv.flush();
  close_written(out, path);
}

struct PcapFile {
  std::string path;
  netmodels::PortRef at;
  bool mirrored_port = false;  // else the node's own traffic
};

std::vector<PcapFile> pcap_files(const NetworkRunReport& rep, const std::string& dir) {
  std::vector<PcapFile> files;
  for (netmodels::NodeId n : rep.spec->outputs.pcap_nodes)
    files.push_back({fmt::format("{}/{}.pcap", dir, node_name(*rep.spec, n)), {n, 0}, false});
  for (const netmodels::PortRef& p : rep.spec->outputs.pcap_ports)
    files.push_back(
        {fmt::format("{}/{}.p{}.pcap", dir, node_name(*rep.spec, p.node), p.port), p, true});
  return files;
}

void write_pcap(const NetworkRunReport& rep, const PcapFile& file) {
  using netmodels::trace_direction::port_departure;
  netmodels::PcapWriter pcap(file.path);
  auto traces = rep.results->open<netmodels::PacketTrace>();
  for (; const netmodels::PacketTrace* t = traces.peek(); traces.pop()) {
    const bool wanted =
        file.mirrored_port
            ? t->node == file.at.node && t->port == file.at.port && t->direction == port_departure
            : t->node == file.at.node && t->direction != port_departure;
    if (wanted) pcap.write(*t);
  }
  pcap.flush();
}

}  // namespace

std::vector<std::string> write_pcaps(const NetworkRunReport& rep, const std::string& dir) {
  std::vector<std::string> written;
  for (const PcapFile& file : pcap_files(rep, dir)) {
    write_pcap(rep, file);
    written.push_back(file.path);
  }
  return written;
}

void write_flows_csv(const NetworkRunReport& rep, const std::string& path) {
  CsvTableStream flows(path);
  for_each_flow_row(rep, [&](const TableRow& row) { flows.row(row); });
  flows.close();
}

std::vector<OutputFile> network_table_files(const NetworkRunReport& rep, const std::string& dir) {
  const netmodels::ResultsSource* results = rep.results;
  const NetworkRunReport* report = &rep;  // the writers run later, maybe on another thread
  std::vector<OutputFile> files;
  files.push_back({dir + "/flows.csv", rep.spec->workload.messages.size(),
                   [report](const std::string& path) { write_flows_csv(*report, path); },
                   JsonTable::flows});
  files.push_back({dir + "/ports.csv", results->count<netmodels::PortRecord>(),
                   [report](const std::string& path) {
                     CsvTableStream ports(path);
                     for_each_port_row(*report, report->results->busy_span(),
                                       [&](const TableRow& row) { ports.row(row); });
                     ports.close();
                   },
                   JsonTable::ports});
  if (has_port_classes(rep))
    files.push_back({dir + "/port_classes.csv", results->count<netmodels::PortClassRecord>(),
                     [report](const std::string& path) {
                       CsvTableStream classes(path);
                       for_each_port_class_row(*report,
                                               [&](const TableRow& row) { classes.row(row); });
                       classes.close();
                     }});
  if (!rep.spec->outputs.queue_ports.empty())
    files.push_back({dir + "/queues.csv", results->count<netmodels::QueueSample>(),
                     [report](const std::string& path) { write_queue_csv(*report, path); }});
  if (rep.spec->outputs.cwnd_trace)
    files.push_back({dir + "/cwnd.csv", results->count<netmodels::CwndSample>(),
                     [report](const std::string& path) { write_cwnd_csv(*report, path); }});
  // Each pcap file reads every packet trace.
  const std::uint64_t traces = results->count<netmodels::PacketTrace>();
  for (const PcapFile& pcap : pcap_files(rep, dir))
    files.push_back(
        {pcap.path, traces, [report, pcap](const std::string&) { write_pcap(*report, pcap); }});
  add_timeseries_files(rep, dir, true, files);
  return files;
}

namespace {

// A results.json row (a flow, a port) costs about as much to write as this many CSV rows: it
// names every field. The 50^3 permutation's results.json took 0.91 s for 1.125 M rows, its CSV
// tables 0.91 s for 4.0 M (bench/SCALE.md, "Outputs side by side"): 3.5, rounded up.
constexpr std::uint64_t kJsonRowCost = 4;

// Rows built ahead for results.json's thread, at most: 8 batches of 256 rows (2.4 MB reserved, a
// row's unused fields never touched).
constexpr std::size_t kRowBatches = 8;
constexpr std::size_t kRowsPerBatch = 256;

std::uint64_t results_json_rows(const NetworkRunReport& rep) {
  return kJsonRowCost *
         (rep.spec->workload.messages.size() + rep.results->count<netmodels::PortRecord>() +
          rep.results->count<netmodels::PortClassRecord>());
}

// The files results.json does not mirror (JsonTable::none), by index: they are written apart.
std::vector<std::size_t> unmirrored(const std::vector<OutputFile>& files) {
  std::vector<std::size_t> apart;
  for (std::size_t i = 0; i < files.size(); ++i)
    if (files[i].table == JsonTable::none) apart.push_back(i);
  return apart;
}

// flows.csv and ports.csv, written in results.json's pass from the rows it gets (JsonTable).
class MirrorFiles {
 public:
  explicit MirrorFiles(const std::vector<OutputFile>& files) {
    for (const OutputFile& file : files) {
      if (file.table == JsonTable::flows) mirrors_.flows = &flows_.emplace(file.path);
      if (file.table == JsonTable::ports) mirrors_.ports = &ports_.emplace(file.path);
    }
  }
  const CsvMirrors& mirrors() const { return mirrors_; }
  void close() {
    if (flows_) flows_->close();
    if (ports_) ports_->close();
  }

 private:
  std::optional<CsvTableStream> flows_;
  std::optional<CsvTableStream> ports_;
  CsvMirrors mirrors_;
};

// On one thread: the files results.json mirrors in its pass, the others before it.
void write_in_turn(const NetworkRunReport& rep, const std::string& json,
                   const std::vector<OutputFile>& files, const std::function<void()>& before_json) {
  MirrorFiles mirror_files(files);
  for (const std::size_t i : unmirrored(files)) files[i].write(files[i].path);
  before_json();
  write_network_results_json(rep, json, mirror_files.mirrors());
  mirror_files.close();
}

}  // namespace

std::vector<std::string> write_network_outputs(const NetworkRunReport& rep, const std::string& dir,
                                               const std::function<void()>& before_json) {
  const std::string json = dir + "/results.json";
  const std::vector<OutputFile> files = network_table_files(rep, dir);
  std::vector<std::uint64_t> rows;
  for (const OutputFile& file : files) rows.push_back(file.rows);
  const std::size_t cpus = engine::process_cpus();
  const bool side_by_side =
      cpus > 1 && helper_rows(rows, results_json_rows(rep)) >= kSideBySideRows;
  // Every slowdown's ideal time first: the writers on both threads read them.
  if (!rep.ideal) rep.ideal = std::make_shared<netmodels::IdealCompletionTimes>(*rep.spec);
  rep.ideal->compute_all(side_by_side ? cpus : 1);
  if (side_by_side) {
    before_json();
    // The helper first builds the rows of flows and ports and hands them over; this thread
    // writes them to results.json, flows.csv and ports.csv. Then both take the other files from
    // one queue. A failure on either thread stops both the rows and the queue: the other ends
    // with the file it is writing (this thread's failure: the future's end waits for it).
    const std::vector<std::size_t> apart = unmirrored(files);
    std::vector<std::uint64_t> apart_rows;
    for (const std::size_t i : apart) apart_rows.push_back(files[i].rows);
    FileQueue queue(apart_rows);
    RowChannel built_rows(kRowBatches, kRowsPerBatch);
    const auto stop = [&] {
      built_rows.cancel();
      queue.stop();
    };
    const auto write_taken = [&] {
      while (const std::optional<std::size_t> taken = queue.take())
        files[apart[*taken]].write(files[apart[*taken]].path);
    };
    std::future<void> helper = std::async(std::launch::async, [&] {
      engine::run_on_process_cpus();
      try {
        build_json_rows(rep, built_rows);
        write_taken();
      } catch (...) {
        stop();
        throw;
      }
    });
    try {
      MirrorFiles mirror_files(files);
      write_network_results_json(rep, json, mirror_files.mirrors(), &built_rows);
      mirror_files.close();
      write_taken();
    } catch (const RowChannel::Cancelled&) {
      helper.get();  // the helper's failure, which cancelled the rows
      throw std::logic_error("results.json: its rows' thread stopped without an error");
    } catch (...) {
      stop();
      throw;
    }
    helper.get();
  } else {
    write_in_turn(rep, json, files, before_json);
  }
  std::vector<std::string> written{json};
  for (const OutputFile& file : files) written.push_back(file.path);
  return written;
}

// Streamed: the head, then the tables row by row, then the effective scenario. Written in place:
// the run's staged folder (StagedFolder) already keeps a half-written file from ever showing.
void write_network_results_json(const NetworkRunReport& rep, const std::string& path,
                                const CsvMirrors& mirrors, RowChannel* built_rows) {
  std::ofstream out = open_for_writing(path);
  {
    JsonObjectStream j(out);
    j.fields(results_head_json(rep));
    j.begin_array("flows");
    json_table_rows(rep, JsonTable::flows, built_rows, [&](const TableRow& row) {
      j.row(row);
      if (mirrors.flows != nullptr) mirrors.flows->row(row);
    });
    j.end_array();
    j.begin_array("ports");
    json_table_rows(rep, JsonTable::ports, built_rows, [&](const TableRow& row) {
      j.row(row);
      if (mirrors.ports != nullptr) mirrors.ports->row(row);
    });
    j.end_array();
    if (has_port_classes(rep)) {
      j.begin_array("port_classes");
      for_each_port_class_row(rep, [&](const TableRow& row) { j.row(row); });
      j.end_array();
    }
    if (rep.spec->switches.shared_buffer.bytes != 0) {
      j.begin_array("switch_buffers");
      for_each_switch_buffer_row(rep, [&](const TableRow& row) { j.row(row); });
      j.end_array();
    }
    j.field("effective_scenario", rep.effective_scenario);
    j.close();
  }
  close_written(out, path);
}

namespace {

// How the switch ports mark: RED's thresholds or the step threshold, and when.
std::string marking_rule(const netmodels::SwitchConfig& sw) {
  const std::string when = sw.mark_at == netmodels::MarkAt::dequeue ? " at dequeue" : "";
  if (sw.red.enabled())
    return fmt::format("by RED between {} and {} B{}", sw.red.min_bytes, sw.red.max_bytes, when);
  return fmt::format("above {} B{}", sw.ecn_threshold_bytes, when);
}

}  // namespace

std::string format_network_summary(const NetworkRunReport& rep) {
  const netmodels::NetworkTotals& t = rep.totals;
  const auto& topo = rep.spec->topology;
  std::string out = fmt::format("netwarp run: {} ({}): {} hosts, {} switches, {} {} workload\n",
                                rep.scenario_name, rep.scenario_path, topo.host_count,
                                topo.switch_count(), topo.kind, rep.spec->workload.kind);
  out += fmt::format("workload      {} of {} messages delivered, {} bytes; completion {:.3f} us\n",
                     t.messages_delivered, t.messages, t.bytes_delivered,
                     static_cast<double>(t.completion_time_ps) * 1e-6);
  out += fmt::format(
      "losses        {} packets dropped, {} retransmitted segments, {} fast retransmits, "
      "{} retransmission timeouts, {} SYN retransmissions\n",
      t.packets_dropped, t.retransmitted_segments, t.fast_retransmits, t.retransmission_timeouts,
      t.syn_retransmissions);
  out += format_class_summary(class_results(rep));
  if (t.ecn_marked > 0 || rep.spec->switches.ecn_threshold_bytes > 0)
    out += fmt::format("marks         {} packets ECN-marked (CE) at switch ports {}\n",
                       t.ecn_marked, marking_rule(rep.spec->switches));
  if (rep.spec->switches.pfc.enabled) {
    const PfcSummary pfc = summarise_pfc(*rep.spec, *rep.results);
    if (pfc.frames_sent > 0)
      out += fmt::format("pfc           {} pause frames (resumes included), {:.3f} us paused\n",
                         pfc.frames_sent, static_cast<double>(pfc.paused_ps) * 1e-6);
  }
  if (t.messages_delivered < t.messages)
    out += fmt::format("warning       {} messages were not delivered by the end of the run\n",
                       t.messages - t.messages_delivered);
  return out + format_summary(*rep.stats);
}

nlohmann::json window_json(double window_us, const engine::RunStats& stats) {
  const bool used = window_us > 0 && stats.kernel == "optimistic" && stats.sole_rank < 0;
  return used ? nlohmann::json(window_us) : nlohmann::json(nullptr);
}

}  // namespace netwarp::apps
