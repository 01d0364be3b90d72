// One SimGrid run of an MPI scenario: write the platform, configure SimGrid's network model,
// load the platform file, run the ranks, collect when each rank ended.
//
//   SimgridRunResult r = run_simgrid(spec, {.network_model = "CM02"});
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mpi_world.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"

namespace netwarp::simgrid_check {

struct SimgridRunSettings {
  std::string network_model = "CM02";
  std::string platform_out;  // where the platform XML goes; empty: a temporary file
  bool verbose = false;      // keep SimGrid's own log output
};

struct SimgridRunResult {
  std::string simgrid_version;  // of the library in use, "3.32.0"
  std::vector<RankOutcome> ranks;
  std::uint64_t transfers = 0;  // SimGrid communications
  bool finished() const;
  std::int64_t predicted_ps() const;  // the last rank's end; -1 unless finished()
};

// SimGrid's engine is a process-wide singleton: call this once per process. Throws
// std::invalid_argument for an unknown model and std::runtime_error when the platform file
// cannot be written.
SimgridRunResult run_simgrid(const scenarios::MpiRunSpec& spec, const SimgridRunSettings& settings);

}  // namespace netwarp::simgrid_check
