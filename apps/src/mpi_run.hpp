// `netwarp run` of an MPI scenario: the ranks' program on the packet network, then
// results.json, timeline.json (Perfetto), calls.csv and the network's tables on rank 0.
#pragma once

#include <string>

#include "app_context.hpp"
#include "netwarp/engine/kernel.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::apps {

struct PointTotals;  // run_sweep.hpp

struct MpiRunInputs {
  const scenarios::LoadedScenario* loaded = nullptr;
  scenarios::MpiRunSpec* spec = nullptr;  // its network spec is moved into the model
  engine::KernelConfig config;
  double window_us = -1;  // the optimism window in force, for the report
  std::string out_dir;
  std::int64_t baseline_run_time_ps = -1;  // --baseline: the job's run time alone; -1: none
  PointTotals* point_totals = nullptr;     // a sweep's point: its row, filled (run_sweep.hpp)
};

// The MPI job of `in` alone on the network (the scenario's workloads left out): its run time,
// or -1 when it did not finish. Writes nothing.
std::int64_t run_job_alone(const scenarios::LoadedScenario& loaded, const std::string& trace,
                           double compute_scale, const engine::KernelConfig& config,
                           const AppContext& context);

// Returns the exit status (exit_codes.hpp): 0; 3 when the program deadlocked, 4 when the
// scenario's end_time stopped it first (the results are still written, and the stuck ranks named
// on stderr).
int run_mpi_scenario(MpiRunInputs inputs, const AppContext& context);

}  // namespace netwarp::apps
