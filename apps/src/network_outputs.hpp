// What `netwarp run` writes for a packet-network run: results.json (engine statistics, the
// digest, workload totals, per-flow and per-port tables, the effective scenario), CSV tables,
// queue traces and pcap files. Also the summary printed on stdout. Tables are streamed from a
// ResultsSource (every rank's part files, merged as they are read), row by row: nothing that
// grows with the run is built in memory.
#pragma once

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "csv_table.hpp"
#include "file_share.hpp"
#include "netwarp/engine/kernel.hpp"
#include "netwarp/netmodels/ideal_fct.hpp"
#include "netwarp/netmodels/network_results.hpp"
#include "netwarp/netmodels/network_spec.hpp"
#include "netwarp/netmodels/results_source.hpp"
#include "run_report.hpp"
#include "table_row.hpp"

namespace netwarp::apps {

class RowChannel;

struct NetworkRunReport {
  std::string scenario_path;
  std::string scenario_name;
  std::string effective_scenario;  // protobuf text
  const netmodels::NetworkSpec* spec = nullptr;
  const engine::RunStats* stats = nullptr;
  double window_us = -1;  // the optimism window in force (< 0: unbounded)
  const netmodels::ResultsSource* results = nullptr;     // every rank's records, in order
  netmodels::NetworkTotals totals;                       // of `results`
  const std::vector<RankMemory>* rank_memory = nullptr;  // every rank's, when measured
  // The flows' ideal completion times, made on the first slowdown asked for (flow_slowdown).
  mutable std::shared_ptr<netmodels::IdealCompletionTimes> ideal;
};

// Every output file into `dir` (which exists: the run's staged folder); returns the files
// written, results.json first. `before_json` runs once before results.json is begun (the caller
// measures there the peak memory it reports): after the other files where they are written
// first (on one thread, where flows.csv and ports.csv go out in results.json's pass: JsonTable),
// before them where the files are written side by side. That is on two threads when the
// process has CPUs to spare and the files rows enough to repay a thread (kSideBySideRows on the
// helper's side, by OutputFile::rows): the helper builds the rows of flows and ports and hands
// them over (RowChannel) to this thread, which writes them to results.json, flows.csv and
// ports.csv; then each thread takes the other files, the largest first (FileQueue).
std::vector<std::string> write_network_outputs(const NetworkRunReport& report,
                                               const std::string& dir,
                                               const std::function<void()>& before_json);
inline constexpr std::size_t kSideBySideRows = 10'000;
// The tables results.json holds too (its "flows" and "ports"): their CSV files are written in
// results.json's pass when both are written on one thread, each row then built once.
enum class JsonTable : std::uint8_t { none, flows, ports };
// One file of a run's outputs: its path, the rows it will hold (from the record counts, to share
// the files out over threads) and how to write it.
struct OutputFile {
  std::string path;
  std::uint64_t rows = 0;
  std::function<void(const std::string& path)> write;
  JsonTable table = JsonTable::none;
};
// Every file but results.json, in the order they are listed.
std::vector<OutputFile> network_table_files(const NetworkRunReport& report, const std::string& dir);
// CSV files that get each row results.json's "flows" and "ports" get (null: none).
struct CsvMirrors {
  CsvTableStream* flows = nullptr;
  CsvTableStream* ports = nullptr;
};
// results.json, and the tables of `mirrors` in the same pass.
// `built_rows` (optional): the rows of "flows" and "ports" as another thread builds them.
void write_network_results_json(const NetworkRunReport& report, const std::string& path,
                                const CsvMirrors& mirrors = {}, RowChannel* built_rows = nullptr);
std::string format_network_summary(const NetworkRunReport& report);
// results.json's window_us: the optimism window in force, or null when there is none (the
// sequential kernel, an unbounded window, or a run whose sole rank needed none).
nlohmann::json window_json(double window_us, const engine::RunStats& stats);

// Pieces shared with the MPI run's outputs.
void write_flows_csv(const NetworkRunReport& report, const std::string& path);
nlohmann::ordered_json ports_json(const NetworkRunReport& report, std::int64_t span);
// Per port and traffic class (SwitchConfig::classes): port_classes.csv and results.json.
nlohmann::ordered_json port_classes_json(const NetworkRunReport& report);
// Appends a TCP sender's counters (segments_sent .. ooo_discarded_segments) to a table row.
void add_tcp_counters(nlohmann::ordered_json& row, const netmodels::FlowRecord& f);
void add_tcp_counters(TableRow& row, const netmodels::FlowRecord& f);
template <class Fn>  // fn(key, std::uint64_t value), the key a literal, in the tables' column order
void for_each_tcp_counter(const netmodels::FlowRecord& f, Fn&& fn) {
  fn("segments_sent", f.segments_sent);
  fn("retransmitted_segments", f.retransmitted_segments);
  fn("duplicate_acks", f.duplicate_acks);
  fn("fast_retransmits", f.fast_retransmits);
  fn("retransmission_timeouts", f.timeouts);
  fn("syns_sent", f.syns_sent);
  fn("syn_retransmissions", f.syn_retransmissions);
  fn("limited_transmits", f.limited_transmits);
  fn("ooo_discarded_segments", f.ooo_discarded_segments);
}
std::int64_t busy_span(const netmodels::NetworkResults& results);  // last bit any port sent
// DIR/<node>.pcap per traced node (what it sent and received) and DIR/<node>.p<port>.pcap per
// mirrored port (what left through it).
std::vector<std::string> write_pcaps(const NetworkRunReport& report, const std::string& dir);

}  // namespace netwarp::apps
