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

#include "exit_codes.hpp"

#include "deadlock_message.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/scenario_error.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "network_model.hpp"
#include "result_json.hpp"
#include "simgrid_run.hpp"

namespace {

namespace sgc = netwarp::simgrid_check;
namespace scenarios = netwarp::scenarios;
namespace exit_code = netwarp::apps::exit_code;

struct CliOptions {
  std::string scenario;
  std::vector<std::string> sets;
  std::string trace;
  std::string out;
  std::string platform_out;
  std::string network_model = sgc::kDefaultNetworkModel;
  bool verbose = false;
};

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
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

// Fails before the run when `path` cannot be written; leaves no (empty) file behind.
void check_writable(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  const bool existed = std::filesystem::exists(path, ec);
  {
    std::ofstream file(path, std::ios::app);
    if (!file) throw UsageError(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
  }
  if (!existed) std::filesystem::remove(path, ec);
}

// Through PATH.partial and a rename: `path` is never half written.
void write_text(const std::string& path, const std::string& text) {
  const std::string partial = path + ".partial";
  std::ofstream file(partial, std::ios::trunc);
  file << text;
  file.close();
  if (!file) throw UsageError(fmt::format("{}: write failed", path));
  std::error_code ec;
  std::filesystem::rename(partial, path, ec);
  if (ec) throw UsageError(fmt::format("{}: cannot write: {}", path, ec.message()));
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

int fail(const char* message, int status) {
  std::fprintf(stderr, "netwarp-simgrid: error: %s\n", message);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  google::protobuf::SetLogHandler(nullptr);  // our one line per error, not protobuf's too
  CLI::App app{
      "netwarp-simgrid: run an MPI scenario's workload on the same platform through SimGrid "
      "(flow-level network model) and report the predicted run time"};
  CliOptions options;
  add_options(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what(), exit_code::kBadInput);
  }
  try {
    return run(options);
  } catch (const scenarios::ScenarioError& e) {
    return fail(e.what(), exit_code::kBadInput);
  } catch (const netwarp::mpiemul::TraceError& e) {
    return fail(e.what(), exit_code::kBadInput);
  } catch (const UsageError& e) {
    return fail(e.what(), exit_code::kBadInput);
  } catch (const std::invalid_argument& e) {
    return fail(e.what(), exit_code::kBadInput);
  } catch (const std::bad_alloc&) {
    return fail("out of memory: reduce the scenario (hosts, messages, bytes)",
                exit_code::kOutOfMemory);
  } catch (const std::exception& e) {
    return fail(fmt::format("internal error: {}", e.what()).c_str(), exit_code::kInternal);
  }
}
