// `netwarp validate SCENARIO --models LIST --out DIR`.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cmd_validation.hpp"
#include "csv_table.hpp"
#include "netwarp/validation/validate_run.hpp"
#include "progress_line.hpp"
#include "run_report.hpp"
#include "staged_folder.hpp"

namespace netwarp::apps {
namespace {

namespace fs = std::filesystem;

// netwarp-simgrid and netwarp-ns3 are built next to netwarp when SimGrid and ns-3 are
// installed.
std::string sibling_program(const char* name) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path candidate = self.parent_path() / name;
  return fs::exists(candidate) ? candidate.string() : std::string();
}

void print_table(const validation::ValidationReport& r) {
  std::printf("%-16s %14s", r.sweep_field.empty() ? "point" : r.sweep_field.c_str(), "packet_us");
  for (const auto& m : r.models) std::printf(" %14s %9s", (m + "_us").c_str(), "err%");
  std::printf("\n");
  for (const auto& p : r.points) {
    std::printf("%-16s %14.3f", p.value.empty() ? "-" : p.value.c_str(),
                static_cast<double>(p.simulated_ps) / 1e6);
    for (const auto& m : p.models) {
      if (m.available)
        std::printf(" %14.3f %+9.2f", static_cast<double>(m.predicted_ps) / 1e6, m.error_pct);
      else
        std::printf(" %14s %9s", "n/a", "n/a");
    }
    std::printf("\n");
  }
}

}  // namespace

CLI::App* add_validate_command(CLI::App& app, ValidateOptions& o) {
  CLI::App* validate = app.add_subcommand(
      "validate",
      "Run a scenario's MPI program (or network workload) in the packet simulator, fit and "
      "predict it with each model (and SimGrid), and write report.md, report.json and plots");
  validate->add_option("scenario", o.scenario, "Scenario (.pbtxt)")->required();
  validate->add_option(
      "--models", o.models,
      "Comma-separated: hockney, loggp, loggps, plogp, plogp-br, mpiete, flow (max-min), flow-f "
      "(MFS Mode F), simgrid, ns3 (packet-level TCP cross-check); a network workload takes "
      "flow, flow-f and ns3 only (default: the scenario's validation.models, else loggps for MPI "
      "and flow for a workload)");
  validate->add_option("--out", o.out, "Report folder")->default_str("out/validate-<scenario>");
  validate->add_option("--trace", o.trace, "Replay this MPI trace instead of the program");
  validate->add_option("--set", o.sets, "Override a scenario field: path.to.field=value")
      ->allow_extra_args(false);
  validate
      ->add_option("--sweep", o.sweeps,
                   "Sweep this field over these values instead of the scenario's sweep: "
                   "path.to.field=v1,v2,... (';' between values that are lists: "
                   "topology.torus.dims=10,10;12,12); several --sweep make a grid of every "
                   "combination")
      ->allow_extra_args(false);
  validate->add_flag("--no-sweep", o.no_sweep,
                     "One point: leave out the scenario's validation.sweep (as --trace needs when "
                     "that sweeps a field of the MPI program it replaces)");
  validate
      ->add_option("--timelines", o.timelines,
                   "timeline_compare.json: none; summary (16 ranks, their first 4096 calls: "
                   "small enough for ui.perfetto.dev); full (every call of every rank)")
      ->check(CLI::IsMember({"none", "summary", "full"}))
      ->capture_default_str();
  validate->add_flag("--keep-runs", o.keep_runs,
                     "Keep each point's packet outputs (calls.csv, timeline.json, results.json; "
                     "flows.csv for a workload) in runs/<point>/ of the report folder");
  return validate;
}

int validate_command(const ValidateOptions& o, const AppContext& context) {
  if (!context.is_root()) return 0;
  validation::ValidateOptions v;
  v.scenario = o.scenario;
  v.sets = o.sets;
  v.trace = o.trace;
  v.sweeps = o.sweeps;
  v.keep_runs = o.keep_runs;
  v.no_sweep = o.no_sweep;
  v.timelines = o.timelines;
  if (o.no_sweep && !o.sweeps.empty())
    throw UsageError("--no-sweep: leaves the sweep out, --sweep gives one: pass one of them");
  try {
    validation::parse_sweep_options(v.sweeps);  // checked now, used by run_validation
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("--sweep: {}", e.what()));
  }
  if (!o.models.empty()) {
    try {
      v.models = validation::parse_model_list(o.models);
    } catch (const std::invalid_argument& e) {
      throw UsageError(fmt::format("--models: {}", e.what()));
    }
  }
  // Written through a staging folder: a validation that fails leaves the folder as it was.
  StagedFolder out(o.out.empty() ? "out/validate-" + fs::path(o.scenario).stem().string() : o.out);
  out.open();
  v.out_dir = out.path();
  v.simgrid_program = sibling_program("netwarp-simgrid");
  v.ns3_program = sibling_program("netwarp-ns3");
  const bool quiet = !progress_wanted();
  v.progress = [quiet](const std::string& line) {
    if (!quiet) std::fprintf(stderr, "%s\n", line.c_str());
  };
  const validation::ValidationReport report = validation::run_validation(v);
  write_json_file(v.out_dir + "/report.json", validation::report_json(report));
  validation::write_rank_tables(report, v.out_dir);
  std::string plot_note;
  const auto plots = validation::write_plots(report, v.out_dir, plot_note);
  {
    const std::string md_path = v.out_dir + "/report.md";
    std::ofstream md = open_for_writing(md_path);
    md << validation::report_markdown(report);
    if (!plot_note.empty()) md << "\nNote: " << plot_note << "\n";
    close_written(md, md_path);
  }
  out.commit();
  std::printf("netwarp validate: %s (%s), %s\n", report.scenario.c_str(),
              report.scenario_file.c_str(), report.program.c_str());
  print_table(report);
  for (const auto& p : report.points)
    for (const auto& m : p.models)
      if (!m.available) std::printf("%s: %s\n", m.model.c_str(), m.note.c_str());
  if (!plot_note.empty()) std::printf("note: %s\n", plot_note.c_str());
  std::printf("report        %s/report.md, report.json (%zu plot files)\n", out.target().c_str(),
              plots.size());
  return 0;
}

}  // namespace netwarp::apps
