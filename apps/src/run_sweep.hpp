// `netwarp run SCENARIO --sweep field=v1,v2,... [--sweep ...]`: a grid of points run one after
// another in this process (the program's start, the scenario schema and the first parse paid
// once), each into OUT/p<i> as `netwarp run --set field=value` would write it, and a table of
// them, OUT/sweep.csv.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "app_context.hpp"
#include "cmd_run.hpp"
#include "netwarp/engine/kernel.hpp"
#include "netwarp/netmodels/network_results.hpp"

namespace netwarp::apps {

// A point's run as sweep.csv lists it (filled by the run, when it wrote results).
struct PointTotals {
  bool has_results = false;
  bool completed = false;
  std::uint64_t messages = 0;
  std::uint64_t messages_delivered = 0;
  std::int64_t completion_time_ps = 0;
  std::int64_t mpi_run_time_ps = -1;  // an MPI job's run time; -1: none, or it did not finish
  std::uint64_t packets_dropped = 0;
  std::uint64_t retransmission_timeouts = 0;
  std::uint64_t events_processed = 0;
  double wall_seconds = 0;
  std::string digest;
};
// The row of a run that wrote results: its packet workload's totals (of an MPI run, the
// workloads beside the job) and the engine's statistics; an MPI run adds its job's.
PointTotals point_totals(const netmodels::NetworkTotals& network, const engine::RunStats& stats);

// Runs every point of `options.sweeps` (every combination, the last field varying fastest) with
// `run_point`, which gets the options of one point: the sweep's values appended to --set, --out
// OUT/p<i>, and the point's scenario already loaded (RunOptions::loaded). Every point's scenario
// is loaded first, so a bad value stops the sweep before any run. Returns the first point's status
// that is not success (exit_codes.hpp), else 0; every point runs. UsageError for a malformed or
// repeated --sweep, or under mpirun.
int run_sweep(const RunOptions& options, const AppContext& context,
              const std::function<int(RunOptions&)>& run_point);

}  // namespace netwarp::apps
