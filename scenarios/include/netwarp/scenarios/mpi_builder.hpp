// From a loaded MPI scenario (one with an `mpi` section) to what an MPI run needs: the
// platform, the program (a built-in kernel, or a trace from the scenario or --trace) and the
// ranks' configuration. Scenario problems come out as ScenarioError; trace problems as
// mpiemul::TraceError (`FILE:LINE: message`).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "netwarp/mpiemul/mpi_config.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "netwarp/netmodels/network_spec.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::scenarios {

struct MpiRunSpec {
  netmodels::NetworkSpec network;
  std::shared_ptr<const mpiemul::Program> program;
  mpiemul::MpiConfig config;
  std::string program_name;  // "pingpong", "alltoall algorithm_a", "trace FILE", ...
  std::string class_name;    // its traffic class beside workloads: mpi.name, or "mpi"
  // The ping-pong kernel's sizes and rounds (empty for other programs), for its RTT report.
  std::vector<std::uint64_t> pingpong_sizes;
  std::uint32_t pingpong_repetitions = 0;
  bool pingpong_has_compute = false;
};

bool is_mpi_scenario(const LoadedScenario& loaded);
// An MPI job with packet workloads beside it (only `netwarp run` models them together): the
// models that see the job alone refuse such a scenario in one line (`what` they do).
bool has_workloads_beside_job(const LoadedScenario& loaded);
ScenarioError job_alone_refusal(const LoadedScenario& loaded, const std::string& what);
// `trace_path` (from --trace; empty: none) replaces the scenario's program; its compute and
// sleep times are multiplied by `compute_scale` (--compute-scale).
MpiRunSpec build_mpi_run(const LoadedScenario& loaded, const std::string& trace_path = {},
                         double compute_scale = 1.0);

}  // namespace netwarp::scenarios
