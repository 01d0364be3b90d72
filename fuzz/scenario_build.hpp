// What the two scenario targets do with a scenario once loaded: everything `netwarp run` does
// before the engine starts (engine settings, then the MPI run or the network it describes).
#pragma once

#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::fuzz {

inline void build_loaded_scenario(const scenarios::LoadedScenario& loaded) {
  scenarios::engine_settings(loaded);
  if (scenarios::is_mpi_scenario(loaded)) {
    scenarios::build_mpi_run(loaded);
  } else {
    scenarios::build_network_spec(loaded);
  }
}

}  // namespace netwarp::fuzz
