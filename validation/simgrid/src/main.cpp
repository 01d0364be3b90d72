// netwarp-simgrid: the SimGrid cross-check. Runs an MPI scenario's workload (as `netwarp run`
// builds it) on the same platform through SimGrid's flow-level network model and reports the
// predicted run time as JSON. Every failure is one line on stderr; the exit status follows
// netwarp's table (apps/src/exit_codes.hpp): bad input 2, deadlock 3, out of memory 5, internal 70.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <google/protobuf/stubs/logging.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <stdexcept>

#include "cross_check_cli.hpp"
#include "exit_codes.hpp"

#include "deadlock_message.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/scenario_error.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "netwarp/validation/field_coverage.hpp"
#include "network_model.hpp"
#include "result_json.hpp"
#include "simgrid_run.hpp"

namespace {

namespace sgc = netwarp::simgrid_check;
namespace scenarios = netwarp::scenarios;
namespace exit_code = netwarp::apps::exit_code;
namespace cross_check = netwarp::apps::cross_check;
using cross_check::check_writable;
using cross_check::UsageError;
using cross_check::write_text;

struct CliOptions {
  std::string scenario;
  std::vector<std::string> sets;
  std::string trace;
  std::string out;
  std::string platform_out;
  std::string network_model = sgc::kDefaultNetworkModel;
  bool verbose = false;
};

void add_options(CLI::App& app, CliOptions& o) {
  app.add_option("scenario", o.scenario,
                 "MPI scenario (.pbtxt); default with --trace: the library's cluster.pbtxt");
  app.add_option("--set", o.sets, "Override a scenario field: path.to.field=value (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--trace", o.trace,
                 "Replay an MPI trace (SimGrid TIT file or folder, or .pb/.pbtxt) instead of the "
                 "scenario's program");
  app.add_option("--out", o.out, "JSON report to write")->required();
  app.add_option("--platform-out", o.platform_out, "Also keep the SimGrid platform XML here");
  app.add_option(
         "--network-model", o.network_model,
         fmt::format("SimGrid network model: {}", fmt::join(sgc::network_model_names(), ", ")))
      ->default_str(sgc::kDefaultNetworkModel);
  app.add_flag("--verbose", o.verbose, "Keep SimGrid's own log output on stderr");
}

// As `netwarp run`: the scenario, or for a bare trace the library's cluster platform.
scenarios::LoadedScenario load(const CliOptions& o) {
  if (!o.scenario.empty()) return scenarios::load_scenario(o.scenario, o.sets);
  if (!o.trace.empty())
    return scenarios::load_scenario(scenarios::scenario_library_dir() + "/cluster.pbtxt", o.sets);
  throw UsageError("SCENARIO is required (or --trace to replay on the default cluster)");
}

int run(const CliOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  sgc::find_network_model(o.network_model);  // fail on a bad name before any work
  const scenarios::LoadedScenario loaded = load(o);
  if (!scenarios::is_mpi_scenario(loaded))
    throw UsageError(fmt::format(
        "{}: no mpi section: netwarp-simgrid runs MPI workloads only (use an MPI scenario, or "
        "--trace with a platform such as {}/cluster.pbtxt)",
        loaded.path, scenarios::scenario_library_dir()));
  // Every setting SimGrid cannot run as netwarp would is refused by name
  // (validation/src/coverage/simgrid_fields.cpp).
  namespace nv = netwarp::validation;
  if (const auto refused = nv::first_refused(nv::simgrid_fields(), loaded.scenario))
    throw loaded.error(refused->field, refused->message);
  const scenarios::MpiRunSpec spec = scenarios::build_mpi_run(loaded, o.trace);
  check_writable(o.out);
  if (!o.platform_out.empty()) check_writable(o.platform_out);

  const sgc::SimgridRunResult result =
      sgc::run_simgrid(spec, {o.network_model, o.platform_out, o.verbose});
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
  const sgc::ReportContext context{loaded.path, spec.program_name, o.network_model, o.platform_out,
                                   wall.count()};
  write_text(o.out, sgc::result_json(result, context));
  if (!result.finished()) {
    std::fprintf(stderr, "netwarp-simgrid: error: %s\n",
                 sgc::deadlock_message(result, *spec.program).c_str());
    return exit_code::kDeadlock;
  }
  std::printf("%s\n", sgc::summary_line(result, context, o.out).c_str());
  return exit_code::kSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "netwarp-simgrid: run an MPI scenario's workload on the same platform through SimGrid "
      "(flow-level network model) and report the predicted run time"};
  CliOptions options;
  add_options(app, options);
  return cross_check::guarded_main("netwarp-simgrid", app, argc, argv,
                                   [&] { return run(options); });
}
