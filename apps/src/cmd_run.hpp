// `netwarp run [SCENARIO] [--out DIR] [--kernel ...] [--set path=value ...]`: loads a scenario
// (or the built-in incast), builds the packet network, runs it and writes the results.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app_context.hpp"
#include "kernel_options.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace CLI {
class App;  // CLI11: only the files that add options include it
}  // namespace CLI

namespace netwarp::apps {

struct PointTotals;  // run_sweep.hpp

struct RunOptions {
  std::string scenario;  // empty: the built-in default
  std::string out_dir;   // empty: out/<scenario name>
  std::vector<std::string> sets;
  std::string trace;           // --trace: replay this MPI trace on the scenario's platform
  double compute_scale = 1.0;  // --compute-scale: multiplies the trace's compute times
  KernelOptions kernel;  // flags given on the command line override the scenario's engine block
  std::uint64_t max_memory_bytes = 0;  // --max-memory; 0: the machine's physical memory
  bool plot = false;                   // --plot: draw the figures into OUT/plots afterwards
  bool baseline = false;            // --baseline: also run the MPI job alone, report its slowdown
  std::vector<std::string> sweeps;  // --sweep field=v1,v2,...: a grid of points (run_sweep.hpp)
  int jobs = 1;                     // --jobs: sweep points run side by side
  // A point of a sweep: its scenario as the sweep loaded it (else loaded from the fields above),
  // and its row of sweep.csv, filled when the run wrote results.
  const scenarios::LoadedScenario* loaded = nullptr;
  PointTotals* point_totals = nullptr;
  CLI::App* command = nullptr;
};

CLI::App* add_run_command(CLI::App& app, RunOptions& options);
int run_command(RunOptions& options, const AppContext& context);
// The scenario `netwarp run` would load with these options (UsageError, ScenarioError).
scenarios::LoadedScenario load_run_scenario(const RunOptions& options);

}  // namespace netwarp::apps
