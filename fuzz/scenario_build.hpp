// What the two scenario targets do with a scenario once loaded: everything `netwarp run` does
// before the engine starts (engine settings, the memory check, then the MPI run or the network
// it describes).
#pragma once

#include <cstdint>

#include "netwarp/scenarios/memory_estimate.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::fuzz {

// `netwarp run --max-memory` at this size refuses (exit 5) what the targets skip here: a
// scenario whose estimate passes the fuzzer's own memory budget is not built.
inline constexpr std::uint64_t kFuzzMaxMemoryBytes = std::uint64_t{256} << 20;

inline void build_loaded_scenario(const scenarios::LoadedScenario& loaded) {
  scenarios::engine_settings(loaded);
  if (scenarios::estimate_memory(loaded, "").bytes > kFuzzMaxMemoryBytes) return;
  if (scenarios::is_mpi_scenario(loaded)) {
    scenarios::build_mpi_run(loaded);
  } else {
    scenarios::build_network_spec(loaded);
  }
}

}  // namespace netwarp::fuzz
