// `netwarp flow`: scenario -> topology and workload (or a pattern file) -> MFS run -> summary
// on stdout, flow.json and flow_messages.csv. The model is sequential: under mpirun every rank
// computes it and rank 0 writes.
#include "cmd_flow.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "netwarp/validation/flow_report.hpp"
#include "netwarp/validation/flow_run.hpp"
#include "network_outputs.hpp"
#include "run_report.hpp"
#include "staged_folder.hpp"
#include "unit_options.hpp"

namespace netwarp::apps {
namespace {

validation::MfsOptions mfs_options(const FlowOptions& o) {
  validation::MfsOptions m;
  try {
    m.mode = validation::parse_flow_mode(o.mode);
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("--mode: {}", e.what()));
  }
  if (!(o.resolution_ns >= 0))
    throw UsageError(fmt::format("--resolution: must be >= 0 ns, got {}", o.resolution_ns));
  m.resolution_s = o.resolution_ns * 1e-9;
  m.synchronised_sends = o.synchronised_sends;
  m.route_latency = o.route_latency;
  return m;
}

validation::FlowPattern load_pattern(const FlowOptions& o, const scenarios::LoadedScenario& loaded,
                                     const netmodels::NetworkSpec& spec) {
  if (!o.pattern.empty()) {
    try {
      return validation::read_pattern_csv(o.pattern, spec.topology.host_count);
    } catch (const netmodels::FileInputError&) {
      throw;  // "FILE:LINE: message", printed as it is
    } catch (const netmodels::InputError& e) {
      throw UsageError(e.what());  // already "FILE:LINE: message"
    }
  }
  if (spec.workload.messages.empty())
    throw UsageError(fmt::format(
        "{}: no network workload to run (an mpi scenario?); give an MFS pattern with --pattern",
        loaded.path));
  try {
    return validation::pattern_from_workload(spec.workload);
  } catch (const netmodels::InputError& e) {
    throw UsageError(fmt::format("{}: {}", loaded.path, e.what()));
  }
}

struct FlowReport {
  const scenarios::LoadedScenario* loaded;
  const FlowOptions* options;
  const validation::MfsOptions* mfs;
  const validation::FlowNetwork* network;
  const validation::FlowPattern* pattern;
  const validation::MfsResult* result;
};

void write_outputs(const FlowReport& r, const std::string& dir) {
  nlohmann::ordered_json summary;
  summary["scenario"] = r.loaded->scenario.name();
  summary["scenario_file"] = r.loaded->path;
  summary["pattern"] = r.options->pattern.empty() ? "workload" : r.options->pattern;
  summary["hosts"] = r.network->host_count();
  summary["links"] = r.network->link_count();
  summary.update(validation::mfs_summary_json(*r.mfs, *r.result, r.pattern->messages.size()));
  const std::string json_path = dir + "/flow.json";
  std::ofstream json = open_for_writing(json_path);
  validation::write_mfs_json(json, summary, *r.pattern, *r.result);
  close_written(json, json_path);
  const std::string csv_path = dir + "/flow_messages.csv";
  std::ofstream csv = open_for_writing(csv_path);
  validation::write_mfs_messages_csv(csv, *r.pattern, *r.result);
  close_written(csv, csv_path);
}

void print_summary(const FlowReport& r, const std::string& dir) {
  const validation::MfsResult& res = *r.result;
  const bool is_max_min = r.mfs->mode == validation::FlowMode::max_min;
  std::printf("flow model    Mode %s (%s), %zu messages on %u hosts, %zu links\n",
              std::string(validation::flow_mode_name(r.mfs->mode)).c_str(),
              is_max_min ? "max-min fair" : "fair share per link", r.pattern->messages.size(),
              r.network->host_count(), r.network->link_count());
  std::printf("completion    %.3f us (virtual)\n", static_cast<double>(res.completion_ps) * 1e-6);
  std::printf("cycles        %llu, rate solves %llu", static_cast<unsigned long long>(res.cycles),
              static_cast<unsigned long long>(res.solver.rate_solves));
  if (is_max_min)
    std::printf(", max-min rounds %llu (at most %u per solve)",
                static_cast<unsigned long long>(res.solver.max_min_rounds),
                res.solver.max_min_rounds_max);
  std::printf("\nrun time      %.3f s\nresults       %s (flow.json, flow_messages.csv)\n",
              res.wall_seconds, dir.c_str());
}

}  // namespace

CLI::App* add_flow_command(CLI::App& app, FlowOptions& o) {
  CLI::App* flow = app.add_subcommand(
      "flow",
      "Run the flow-level model (MFS: flows share link bandwidth, no packets) on a scenario's "
      "topology and workload, or on an MFS pattern file");
  flow->add_option("scenario", o.scenario, "Scenario file in protobuf text format");
  flow->add_option("--mode", o.mode,
                   "F: each link's bandwidth split evenly, a flow takes its least share; "
                   "N: max-min fair shares (progressive filling)")
      ->default_str("F");
  flow->add_option("--pattern", o.pattern,
                   "MFS pattern file (CSV: sender,dest,order,bytes,delay_ns; hosts of the "
                   "scenario's topology) instead of the scenario's workload");
  flow->add_option("--set", o.sets, "Override a scenario field: path.to.field=value (repeatable)")
      ->allow_extra_args(false);
  flow->add_option("--out", o.out_dir, "Folder for flow.json and flow_messages.csv")
      ->default_str("out/<scenario name>");
  flow->add_option("--resolution", o.resolution_ns,
                   "Least cycle length in ns while flows are active (MFS's Resolu; 0: exact); a "
                   "unit may follow (10us)")
      ->transform(time_with_unit("ns"))
      ->default_str("0");
  flow->add_flag("--sync", o.synchronised_sends,
                 "Synchronised sends: a host sends its message of order k only after receiving "
                 "every message to it of order < k");
  flow->add_flag("--latency", o.route_latency,
                 "Delay each message's start by its route's propagation latency (MFS: none)");
  return flow;
}

int flow_command(const FlowOptions& o, const AppContext& context) {
  const validation::MfsOptions mfs = mfs_options(o);
  const scenarios::LoadedScenario loaded = o.scenario.empty()
                                               ? scenarios::built_in_default_scenario(o.sets)
                                               : scenarios::load_scenario(o.scenario, o.sets);
  const netmodels::NetworkSpec spec = scenarios::build_network_spec(loaded);
  const validation::FlowNetwork network =
      validation::FlowNetwork::from_topology(spec.topology, spec.nic.rate_bps);
  const validation::FlowPattern pattern = load_pattern(o, loaded, spec);
  try {
    validation::check_pattern_budget(pattern, network, o.pattern.empty() ? loaded.path : o.pattern);
  } catch (const netmodels::FileInputError&) {
    throw;  // "FILE:LINE: field: message", printed as it is
  } catch (const netmodels::InputError& e) {
    throw UsageError(e.what());
  }
  const std::string dir = out_dir_or_default(o.out_dir, loaded.scenario.name(), "flow");
  StagedFolder out(dir);
  context.check_on_root([&] { out.open(); });
  const validation::MfsResult result = validation::run_mfs(network, pattern, mfs);
  if (!context.is_root()) return 0;
  const FlowReport report{&loaded, &o, &mfs, &network, &pattern, &result};
  write_outputs(report, out.path());
  out.commit();
  print_summary(report, dir);
  return 0;
}

}  // namespace netwarp::apps
