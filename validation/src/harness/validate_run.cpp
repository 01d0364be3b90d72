// The validation loop: sweep points x (packet simulation, models, SimGrid).
#include "netwarp/validation/validate_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cross_check_process.hpp"
#include "netwarp/mpiemul/mpi_outputs.hpp"
#include "netwarp/netmodels/csv_line.hpp"
#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/validation/class_compare.hpp"
#include "netwarp/validation/flow_report.hpp"
#include "netwarp/validation/flow_run.hpp"
#include "netwarp/validation/model_fitting.hpp"
#include "netwarp/validation/model_prediction.hpp"
#include "netwarp/validation/ns3_check.hpp"
#include "netwarp/validation/packet_bench.hpp"
#include "netwarp/validation/step_compare.hpp"
#include "shell_quote.hpp"

namespace netwarp::validation {
namespace {

namespace fs = std::filesystem;

using proto_sweep = scenarios::proto::Sweep;

void say(const ValidateOptions& o, const std::string& line) {
  if (o.progress) o.progress(line);
}

FlowMode flow_mode_of(ModelKind kind) {
  return kind == ModelKind::flow_f ? FlowMode::fair_share : FlowMode::max_min;
}

// The models asked for: --models, else the scenario's, else loggps (MPI) or flow (workload).
std::vector<ModelKind> chosen_models(const ValidateOptions& o,
                                     const scenarios::LoadedScenario& loaded, bool mpi) {
  if (o.models) return *o.models;
  const auto& names = loaded.scenario.validation().models();
  if (names.empty()) return {mpi ? ModelKind::loggps : ModelKind::flow};
  std::vector<ModelKind> models;
  for (int i = 0; i < names.size(); ++i) {
    try {
      models.push_back(parse_model_name(names[i]));
    } catch (const std::invalid_argument& e) {
      throw loaded.error(fmt::format("validation.models[{}]", i), e.what());
    }
  }
  return models;
}

std::vector<TimeSplit> packet_ranks(const mpiemul::MpiTotals& totals) {
  std::vector<TimeSplit> ranks;
  const auto ns = [](std::int64_t ps) { return static_cast<double>(ps) / 1000.0; };
  for (const auto& r : totals.ranks)
    ranks.push_back({ns(r.calls.compute_ps), ns(r.calls.overhead_ps), ns(r.calls.send_wait_ps),
                     ns(r.calls.recv_wait_ps), ns(r.calls.sync_ps)});
  return ranks;
}

void write_json(const fs::path& path, const nlohmann::ordered_json& j) {
  std::ofstream out(path);
  out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  out.close();
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write", path.string()));
}

ModelResult run_simgrid(const ValidateOptions& o, const std::vector<std::string>& sets,
                        const fs::path& out_file) {
  ModelResult m;
  m.model = "simgrid";
  if (o.simgrid_program.empty() || !fs::exists(o.simgrid_program)) {
    m.available = false;
    m.note =
        "cross-check unavailable: netwarp-simgrid was not built (install libsimgrid-dev "
        "and rebuild)";
    return m;
  }
  std::string command = shell_quote(o.simgrid_program) + " " + shell_quote(o.scenario);
  for (const auto& s : sets) command += " --set " + shell_quote(s);
  if (!o.trace.empty()) command += " --trace " + shell_quote(o.trace);
  command += " --out " + shell_quote(out_file.string());
  const auto start = std::chrono::steady_clock::now();
  const CrossCheckOutcome outcome = run_cross_check(command, out_file);
  if (!outcome.ok) {
    m.available = false;
    m.note = "netwarp-simgrid: " + outcome.error;
    return m;
  }
  m.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ifstream in(out_file);
  const nlohmann::json j = nlohmann::json::parse(in);
  m.predicted_ps = j.at("predicted_ps").get<std::int64_t>();
  m.note = fmt::format("SimGrid {} network model {}", j.value("simgrid_version", "?"),
                       j.value("network_model", "?"));
  m.params_file = out_file.filename().string();
  return m;
}

// ns3 asked for on an MPI program: its row says why, the other models run.
constexpr const char* kNs3OnMpi =
    "not run: netwarp-ns3 cross-checks network workloads over TCP (workload { ... }); an MPI "
    "program is compared with simgrid and the analytic models";

ModelResult unavailable(ModelKind kind, const std::string& why) {
  ModelResult m;
  m.model = std::string(model_name(kind));
  m.available = false;
  m.note = why;
  return m;
}

// `calls` receives the model's per-call prediction (none when it is unavailable).
ModelResult run_model(ModelKind kind, const scenarios::LoadedScenario& loaded,
                      const scenarios::MpiRunSpec& spec, const fs::path& params_path,
                      Prediction& calls) {
  ModelResult m;
  m.model = std::string(model_name(kind));
  try {
    const nlohmann::ordered_json params =
        kind == ModelKind::flow || kind == ModelKind::flow_f
            ? flow_params(spec, flow_mode_of(kind))
            : fit_model(kind, loaded, spec,
                        {.w_ns = loaded.scenario.validation().fit_w_us() * 1e3});
    // Predicted before the file is written: parameters the model rejects leave no file.
    const ModelPrediction p = predict_with(params, params_path.string(), loaded, spec);
    write_json(params_path, params);
    m.params_file = fs::path("params") / params_path.filename();
    m.predicted_ps = std::llround(p.prediction.run_time_ns * 1000.0);
    for (const auto& r : p.prediction.ranks) m.ranks.push_back(r.split);
    m.note = p.note;
    m.wall_seconds = p.wall_seconds;
    calls.calls = p.prediction.calls;
    calls.matched = p.prediction.matched;
  } catch (const std::invalid_argument& e) {
    m.available = false;
    m.note = e.what();
  } catch (const netmodels::InputError& e) {  // the model rejects what was fitted for it
    m.available = false;
    m.note = fmt::format("fitted parameters rejected: {}", e.what());
  }
  return m;
}

// The flow model on a network workload: MFS with every host's messages in order, as the packet
// workload sends them (each after the previous one is delivered).
// `fcts` receives each message's completion time from its start (by message id).
ModelResult run_workload_flow(ModelKind kind, const netmodels::NetworkSpec& spec,
                              const fs::path& params_path, ModelFcts& fcts) {
  ModelResult m;
  m.model = std::string(model_name(kind));
  const FlowNetwork network = FlowNetwork::from_topology(spec.topology, spec.nic.rate_bps);
  FlowPattern pattern;
  try {
    pattern = pattern_from_workload(spec.workload);
    check_pattern_budget(pattern, network, "the workload");
  } catch (const netmodels::InputError& e) {
    m.available = false;  // past what the model can count: refused, never a wrapped time
    m.note = e.what();
    return m;
  }
  MfsOptions options;
  options.mode = flow_mode_of(kind);
  const MfsResult result = run_mfs(network, pattern, options);
  write_json(params_path, mfs_summary_json(options, result, pattern.messages.size()));
  m.params_file = fs::path("params") / params_path.filename();
  m.predicted_ps = result.completion_ps;
  m.wall_seconds = result.wall_seconds;
  m.note = fmt::format("MFS Mode {} on the topology's own routes, {} cycles",
                       flow_mode_name(options.mode), result.cycles);
  fcts.assign(spec.workload.messages.size(), -1);
  for (std::size_t i = 0; i < pattern.messages.size(); ++i)
    fcts[spec.workload.messages[i].id] =
        result.messages[i].end_ps - pattern.messages[i].not_before.ps();
  return m;
}

PacketCounters counters_of(const netmodels::NetworkTotals& t) {
  return {t.packets_dropped, t.retransmission_timeouts, t.retransmitted_segments,
          t.fast_retransmits};
}

// What validate advises after program_sweep_problem's message.
constexpr const char* kNoProgramSweepAdvice =
    "; pass --no-sweep, or --sweep a platform field (FIELD=V1,V2,...)";

std::vector<proto_sweep> chosen_sweeps(const ValidateOptions& o,
                                       const scenarios::LoadedScenario& base) {
  if (o.no_sweep) return {};
  if (o.sweeps.empty()) {
    const proto_sweep& own = base.scenario.validation().sweep();
    if (own.field().empty()) return {};
    if (!o.trace.empty() && is_program_field(own.field()))
      throw base.error("validation.sweep.field",
                       program_sweep_problem(own.field()) + kNoProgramSweepAdvice);
    return {own};
  }
  std::vector<proto_sweep> sweeps;
  for (const std::string& text : o.sweeps) {
    const auto [field, values] = parse_sweep_option(text);
    if (!o.trace.empty() && is_program_field(field))
      throw netmodels::InputError("--sweep", program_sweep_problem(field) + kNoProgramSweepAdvice);
    proto_sweep sweep;
    sweep.set_field(field);
    for (const auto& v : values) sweep.add_values(v);
    sweeps.push_back(sweep);
  }
  return sweeps;
}

std::vector<std::vector<std::string>> grid_points(const std::vector<proto_sweep>& sweeps) {
  std::vector<std::vector<std::string>> values;
  for (const proto_sweep& sweep : sweeps)
    values.emplace_back(sweep.values().begin(), sweep.values().end());
  return sweep_grid(values);
}

std::string joined(const std::vector<std::string>& parts, const char* between) {
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : between) + part;
  return out;
}

std::vector<std::string> sets_for(const ValidateOptions& o, const ValidationReport& report,
                                  const std::vector<std::string>& values) {
  std::vector<std::string> sets = o.sets;
  for (std::size_t i = 0; i < values.size(); ++i)
    sets.push_back(report.sweep_fields[i] + "=" + values[i]);
  return sets;
}

// --keep-runs: the point's packet outputs as `netwarp run` names them.
void keep_mpi_run(const ValidateOptions& o, const PacketRun& truth, const mpiemul::Program& program,
                  SweepPointResult& point, const std::string& tag) {
  if (!o.keep_runs) return;
  point.run_dir = (fs::path("runs") / tag).string();
  const fs::path dir = fs::path(o.out_dir) / point.run_dir;
  fs::create_directories(dir);
  std::ofstream calls(dir / "calls.csv");
  mpiemul::write_calls_csv(truth.results, calls);
  std::ofstream timeline(dir / "timeline.json");
  mpiemul::write_timeline_json(truth.results, program, timeline);
  nlohmann::ordered_json results;
  results["run_time_ps"] = truth.totals.run_time_ps;
  results["mpi"] = mpiemul::mpi_results_json(truth.results, truth.totals, program);
  write_json(dir / "results.json", results);
  calls.close();
  timeline.close();
  if (!calls || !timeline) throw std::runtime_error(fmt::format("{}: cannot write", dir.string()));
}

fs::path params_path(const ValidateOptions& o, ModelKind kind, const std::string& tag) {
  return fs::path(o.out_dir) / "params" / fmt::format("{}-{}.json", model_name(kind), tag);
}

// steps_compare.csv (-TAG in a sweep) and the per-step error tables of the messages inside
// collectives; no file when no model predicts them.
void compare_point_steps(const ValidateOptions& o, const std::string& tag, const PacketRun& truth,
                         const scenarios::MpiRunSpec& spec, const std::vector<ModelCalls>& models,
                         SweepPointResult& point) {
  const std::string name =
      tag == "run" ? "steps_compare.csv" : fmt::format("steps_compare-{}.csv", tag);
  const fs::path path = fs::path(o.out_dir) / name;
  std::ofstream steps(path);
  point.step_errors = compare_steps(truth.results, *spec.program, models, steps);
  steps.close();
  if (!steps) throw std::runtime_error(fmt::format("{}: cannot write", path.string()));
  if (point.step_errors.empty())
    fs::remove(path);
  else
    point.steps_file = name;
}

// calls_compare.csv (calls_compare-TAG.csv in a sweep), the per-call error tables, the
// per-step ones and timeline_compare.json (-TAG) as --timelines asks.
void compare_point_calls(const ValidateOptions& o, const std::string& tag, const PacketRun& truth,
                         const scenarios::MpiRunSpec& spec, const std::vector<ModelKind>& models,
                         const std::vector<Prediction>& predicted, SweepPointResult& point) {
  std::vector<ModelCalls> with_calls;
  for (std::size_t i = 0; i < models.size(); ++i)
    if (models[i] != ModelKind::simgrid && models[i] != ModelKind::ns3)
      with_calls.push_back({std::string(model_name(models[i])), &predicted[i]});
  point.calls_file = tag == "run" ? "calls_compare.csv" : fmt::format("calls_compare-{}.csv", tag);
  std::ofstream csv(fs::path(o.out_dir) / point.calls_file);
  point.call_errors =
      compare_calls(truth.results, *spec.program, spec.program_name, with_calls, csv);
  csv.close();
  if (!csv)
    throw std::runtime_error(fmt::format("{}/{}: cannot write", o.out_dir, point.calls_file));
  compare_point_steps(o, tag, truth, spec, with_calls, point);
  if (o.timelines == "none") return;
  point.timeline_file =
      tag == "run" ? "timeline_compare.json" : fmt::format("timeline_compare-{}.json", tag);
  const TimelineLimit limit = o.timelines == "full" ? TimelineLimit{} : TimelineLimit::summary();
  std::ofstream timeline(fs::path(o.out_dir) / point.timeline_file);
  point.timeline_note =
      write_compare_timeline(truth.results, *spec.program, with_calls, timeline, limit);
  timeline.close();
  if (!timeline)
    throw std::runtime_error(fmt::format("{}/{}: cannot write", o.out_dir, point.timeline_file));
}

// --keep-runs for a network workload: its messages (flows.csv) and totals (results.json).
void keep_workload_run(const ValidateOptions& o, const WorkloadRun& truth, SweepPointResult& point,
                       const std::string& tag) {
  if (!o.keep_runs) return;
  point.run_dir = (fs::path("runs") / tag).string();
  const fs::path dir = fs::path(o.out_dir) / point.run_dir;
  fs::create_directories(dir);
  std::ofstream flows(dir / "flows.csv");
  flows << "flow,src,dst,bytes,start_ps,delivered_ps,completed_ps,retransmitted_segments,"
           "retransmission_timeouts\n";
  // Empty for a message not delivered (not acknowledged), as `netwarp run` writes it.
  const auto time = [](std::int64_t ps) { return ps < 0 ? std::string() : std::to_string(ps); };
  for (const FlowSample& f : truth.flows)
    flows << fmt::format("{},{},{},{},{},{},{},{},{}\n", f.flow, f.src, f.dst, f.bytes, f.start_ps,
                         time(f.delivered_ps), time(f.completed_ps), f.retransmitted_segments,
                         f.retransmission_timeouts);
  nlohmann::ordered_json results;
  results["completion_time_ps"] = truth.totals.completion_time_ps;
  results["packets_dropped"] = truth.totals.packets_dropped;
  results["retransmission_timeouts"] = truth.totals.retransmission_timeouts;
  write_json(dir / "results.json", results);
  flows.close();
  if (!flows) throw std::runtime_error(fmt::format("{}: cannot write", dir.string()));
}

SweepPointResult mpi_point(const ValidateOptions& o, ValidationReport& report,
                           const std::vector<ModelKind>& models,
                           const std::vector<std::string>& values, const std::string& tag) {
  const std::vector<std::string> sets = sets_for(o, report, values);
  const scenarios::LoadedScenario loaded = scenarios::load_scenario(o.scenario, sets);
  const scenarios::MpiRunSpec spec = scenarios::build_mpi_run(loaded, o.trace);
  report.program = spec.program_name;
  SweepPointResult point;
  point.values = values;
  point.value = joined(values, ", ");
  const PacketRun truth =
      run_on_platform(spec, spec.program, scenarios::engine_settings(loaded).seed);
  point.simulated_ps = truth.totals.run_time_ps;
  point.simulated_ranks = packet_ranks(truth.totals);
  point.simulated_wall_seconds = truth.wall_seconds;
  point.simulated_events = truth.events;
  point.counters = counters_of(truth.results.network.totals(spec.network.workload));
  std::vector<Prediction> predicted(models.size());
  for (std::size_t i = 0; i < models.size(); ++i) {
    const ModelKind kind = models[i];
    say(o, fmt::format("validate: {}: model {}", tag, model_name(kind)));
    if (kind == ModelKind::ns3)
      point.models.push_back(unavailable(kind, kNs3OnMpi));
    else
      point.models.push_back(
          kind == ModelKind::simgrid
              ? run_simgrid(o, sets, fs::path(o.out_dir) / fmt::format("simgrid-{}.json", tag))
              : run_model(kind, loaded, spec, params_path(o, kind, tag), predicted[i]));
  }
  compare_point_calls(o, tag, truth, spec, models, predicted, point);
  keep_mpi_run(o, truth, *spec.program, point, tag);
  return point;
}

SweepPointResult workload_point(const ValidateOptions& o, ValidationReport& report,
                                const std::vector<ModelKind>& models,
                                const std::vector<std::string>& values, const std::string& tag) {
  const std::vector<std::string> sets = sets_for(o, report, values);
  const scenarios::LoadedScenario loaded = scenarios::load_scenario(o.scenario, sets);
  const netmodels::NetworkSpec spec = scenarios::build_network_spec(loaded);
  report.program = "workload " + spec.workload.kind;
  SweepPointResult point;
  point.values = values;
  point.value = joined(values, ", ");
  const WorkloadRun truth = run_workload(spec, scenarios::engine_settings(loaded).seed);
  point.simulated_ps = truth.totals.completion_time_ps;
  point.simulated_wall_seconds = truth.wall_seconds;
  point.simulated_events = truth.events;
  point.counters = counters_of(truth.totals);
  keep_workload_run(o, truth, point, tag);
  for (ModelKind kind : models) {
    say(o, fmt::format("validate: {}: model {}", tag, model_name(kind)));
    if (kind == ModelKind::ns3) {
      point.models.push_back(run_ns3_check(
          {o.ns3_program, o.scenario, sets, fs::path(o.out_dir) / fmt::format("ns3-{}.json", tag)},
          truth.flows, point));
      continue;
    }
    ModelFcts fcts;
    point.models.push_back(run_workload_flow(kind, spec, params_path(o, kind, tag), fcts));
    if (point.models.back().available)
      point.class_errors.push_back(
          compare_classes(spec, truth.flows, fcts, point.models.back().model));
  }
  return point;
}

void check_workload_models(const scenarios::LoadedScenario& base,
                           const std::vector<ModelKind>& models) {
  for (ModelKind kind : models)
    if (kind != ModelKind::flow && kind != ModelKind::flow_f && kind != ModelKind::ns3)
      throw base.error("validation.models",
                       fmt::format("model '{}' predicts MPI programs; a network workload is "
                                   "compared with flow, flow-f and ns3 only",
                                   model_name(kind)));
}

}  // namespace

std::string program_sweep_problem(const std::string& field) {
  return fmt::format(
      "{} is a field of the MPI program, which --trace replaces: every point would replay the "
      "same trace",
      field);
}

bool is_program_field(const std::string& field) {
  if (!field.starts_with("mpi.")) return false;
  const std::string member = field.substr(4, field.find_first_of(".[", 4) - 4);
  const auto* f = scenarios::proto::Mpi::descriptor()->FindFieldByName(member);
  return f != nullptr && f->containing_oneof() != nullptr &&
         f->containing_oneof()->name() == "program";
}

std::vector<std::pair<std::string, std::vector<std::string>>> parse_sweep_options(
    const std::vector<std::string>& texts) {
  std::vector<std::pair<std::string, std::vector<std::string>>> sweeps;
  for (const std::string& text : texts) {
    auto sweep = parse_sweep_option(text);
    for (const auto& earlier : sweeps)
      if (earlier.first == sweep.first)
        throw std::invalid_argument(fmt::format("{} is swept twice", sweep.first));
    sweeps.push_back(std::move(sweep));
  }
  return sweeps;
}

std::vector<std::vector<std::string>> sweep_grid(
    const std::vector<std::vector<std::string>>& values) {
  std::vector<std::vector<std::string>> points{{}};
  for (const std::vector<std::string>& field : values) {
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : points)
      for (const std::string& v : field) {
        next.push_back(prefix);
        next.back().push_back(v);
      }
    points = std::move(next);
  }
  return points;
}

std::pair<std::string, std::vector<std::string>> parse_sweep_option(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument(fmt::format("'{}': expected field=value,value,...", text));
  // ';' separates the values when a value is itself a list ("dims=10,10;12,12").
  const char separator = text.find(';', eq) != std::string::npos ? ';' : ',';
  std::vector<std::string> values;
  std::size_t start = eq + 1;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(separator, start), text.size());
    const std::string_view value =
        netmodels::trim_blanks(std::string_view(text).substr(start, end - start));
    if (value.empty()) throw std::invalid_argument(fmt::format("'{}': empty value", text));
    values.emplace_back(value);
    start = end + 1;
  }
  return {text.substr(0, eq), values};
}

ValidationReport run_validation(const ValidateOptions& o) {
  const scenarios::LoadedScenario base = scenarios::load_scenario(o.scenario, o.sets);
  const bool mpi = scenarios::is_mpi_scenario(base) || !o.trace.empty();
  if (scenarios::has_workloads_beside_job(base))
    throw scenarios::job_alone_refusal(base, "validate's models predict");
  ValidationReport report;
  report.scenario = base.scenario.name();
  report.scenario_file = base.path;
  const std::vector<proto_sweep> sweeps = chosen_sweeps(o, base);
  for (const proto_sweep& sweep : sweeps) {
    report.sweep_fields.push_back(sweep.field());
    report.sweep_labels.push_back(sweep.label().empty() ? sweep.field() : sweep.label());
  }
  report.sweep_field = joined(report.sweep_fields, " x ");
  report.sweep_label = joined(report.sweep_labels, " x ");
  const std::vector<ModelKind> models = chosen_models(o, base, mpi);
  if (!mpi) check_workload_models(base, models);
  for (ModelKind k : models) report.models.emplace_back(model_name(k));
  const std::vector<std::vector<std::string>> grid = grid_points(sweeps);
  fs::create_directories(fs::path(o.out_dir) / "params");
  for (std::size_t i = 0; i < grid.size(); ++i) {
    const std::vector<std::string>& values = grid[i];
    const std::string tag = values.empty() ? std::string("run") : fmt::format("p{}", i);
    std::string where;
    for (std::size_t f = 0; f < values.size(); ++f)
      where += fmt::format(" {}={}", report.sweep_fields[f], values[f]);
    say(o, fmt::format("validate: {}{}: packet simulation", report.scenario, where));
    SweepPointResult point = mpi ? mpi_point(o, report, models, values, tag)
                                 : workload_point(o, report, models, values, tag);
    for (ModelResult& m : point.models)
      if (m.available) m.error_pct = error_pct(m.predicted_ps, point.simulated_ps);
    report.points.push_back(std::move(point));
  }
  return report;
}

}  // namespace netwarp::validation
