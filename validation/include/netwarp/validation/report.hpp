// The report of `netwarp validate`: per sweep point, the packet simulation's run time and
// per-rank breakdown beside each model's prediction and error, as report.json, report.md and a
// plot (gnuplot, PNG and SVG) of predicted vs simulated time over the sweep variable.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "netwarp/validation/call_compare.hpp"
#include "netwarp/validation/replay.hpp"
#include "netwarp/validation/step_compare.hpp"

namespace netwarp::validation {

struct ModelResult {
  std::string model;
  bool available = true;
  std::string note;  // why unavailable, or what the model assumed
  std::int64_t predicted_ps = 0;
  double error_pct = 0;          // 100 x (predicted - simulated) / simulated
  std::vector<TimeSplit> ranks;  // ns; empty when the model gives no breakdown
  std::string params_file;       // relative to the report folder; empty when none
  double wall_seconds = 0;       // fitting excluded
};

// What the packet network did besides finishing: losses and TCP's recovery from them.
struct PacketCounters {
  std::uint64_t packets_dropped = 0;
  std::uint64_t retransmission_timeouts = 0;
  std::uint64_t retransmitted_segments = 0;
  std::uint64_t fast_retransmits = 0;
};

// One message's times and recovery counters, from the packet run or from netwarp-ns3.
struct FlowSample {
  std::uint32_t flow = 0;
  std::string src;
  std::string dst;
  std::uint64_t bytes = 0;
  std::int64_t start_ps = -1;
  std::int64_t delivered_ps = -1;
  std::int64_t completed_ps = -1;  // the sender saw the last byte acknowledged
  std::uint64_t retransmitted_segments = 0;
  std::uint64_t retransmission_timeouts = 0;
  std::int64_t fct_ps() const { return completed_ps < 0 ? -1 : completed_ps - start_ps; }
};

// The ns-3 cross-check of one sweep point (ModelKind::ns3): its counters and flows beside the
// packet run's flows.
struct Ns3Comparison {
  std::int64_t completion_time_ps = -1;  // ns-3's last delivery
  PacketCounters counters;
  std::vector<FlowSample> packet_flows;
  std::vector<FlowSample> ns3_flows;
};

// A model's flow completion against the packet run's (class_compare.hpp), for one class or
// one size bucket of it: FCT slowdown percentiles of the flows both delivered.
// `packet_*_loss`: the packet run's flow at that percentile recovered from a loss
// (retransmitted), which a model without losses cannot represent: no error is given there.
struct ClassErrorRow {
  std::string class_name;
  std::uint64_t min_bytes = 0;  // exclusive; 0 and max_bytes UINT64_MAX for the whole class
  std::uint64_t max_bytes = UINT64_MAX;
  std::size_t flows = 0;
  std::size_t lossy_flows = 0;  // packet-run flows of the row that retransmitted
  double packet_p50 = 0, packet_p99 = 0;
  double model_p50 = 0, model_p99 = 0;
  bool p50_loss = false, p99_loss = false;
  bool whole_class() const { return min_bytes == 0 && max_bytes == UINT64_MAX; }
};

struct ClassComparison {  // one model at one sweep point
  std::string model;
  std::vector<ClassErrorRow> rows;  // per class: the whole class, then its non-empty buckets
};

struct SweepPointResult {
  std::string value;  // the sweep fields' values, ", " between them; empty without a sweep
  std::vector<std::string> values;  // one per sweep field
  std::string run_dir;              // --keep-runs: the packet outputs, relative to the report
  std::int64_t simulated_ps = 0;
  std::vector<TimeSplit> simulated_ranks;  // ns
  double simulated_wall_seconds = 0;
  std::uint64_t simulated_events = 0;
  PacketCounters counters;
  std::vector<ModelResult> models;
  std::optional<Ns3Comparison> ns3;  // when ns3 was asked for and ran
  // MPI points: calls_compare.csv of this point (relative to the report folder) and, per model
  // with per-call predictions, where the call-time error is.
  std::string calls_file;
  std::string timeline_file;  // the packet run's and the models' calls side by side (Perfetto)
  std::string timeline_note;  // what --timelines summary left out of it; empty: nothing
  std::vector<CallErrorTable> call_errors;
  // steps_compare.csv of this point (empty: no model predicts messages inside collectives) and
  // per model where the error is among the steps of its collectives.
  std::string steps_file;
  std::vector<StepErrorTable> step_errors;
  // Network workloads: per model that predicts each flow, its slowdown error by class and size.
  std::vector<ClassComparison> class_errors;
};

struct ValidationReport {
  std::string scenario;
  std::string scenario_file;
  std::string program;      // the MPI program, or "workload <kind>" for a network workload
  std::string sweep_field;  // empty: no sweep; a grid's fields joined by " x "
  std::string sweep_label;
  std::vector<std::string> sweep_fields;  // a grid: one per dimension
  std::vector<std::string> sweep_labels;
  std::vector<std::string> models;
  std::vector<SweepPointResult> points;
};

double error_pct(std::int64_t predicted_ps, std::int64_t simulated_ps);

// {"compute_ps", "overhead_ps", "send_wait_ps", "recv_wait_ps", "sync_ps"}, rounded to ps.
nlohmann::ordered_json time_split_json(const TimeSplit& split);

nlohmann::ordered_json report_json(const ValidationReport& report);
// A summary table first (point, packet, each model and its error), then the error by call kind,
// call source and collective step, losses, run times and where the time goes; the per-rank
// breakdowns are in the CSV files of write_rank_tables, which it links.
std::string report_markdown(const ValidationReport& report);
// ranks/<point>.csv (ranks/run.csv without a sweep): per rank and source (packet, each model
// with a breakdown) the time split in ps. Returns the files written, relative to `dir`.
std::vector<std::string> write_rank_tables(const ValidationReport& report,
                                           const std::filesystem::path& dir);
// Writes the plots' data and gnuplot scripts into `dir` and runs gnuplot for PNG and SVG:
// without a sweep a bar chart of the run times (report.*); one sweep field, the run times over
// it above each model's error in % (report.*); a grid, one plot per field (report-<field>.*),
// a line per combination of the other fields. Returns the files written; when gnuplot is
// missing or fails, `note` says so and only the data and scripts are written.
// The PNG files write_plots draws, relative to the report folder.
std::vector<std::string> plot_images(const ValidationReport& report);
std::vector<std::filesystem::path> write_plots(const ValidationReport& report,
                                               const std::filesystem::path& dir, std::string& note);

}  // namespace netwarp::validation
