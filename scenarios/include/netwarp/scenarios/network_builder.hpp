// From a loaded scenario to what a run needs: the NetworkSpec (topology, devices, transport,
// placed workload, outputs), the engine settings, and the effective scenario text for the
// results. Builder errors (InputError from the netmodels builders, unknown node names) come out
// as ScenarioError, located when the field was written in the file.
#pragma once

#include <cstdint>
#include <string>

#include "netwarp/engine/event_key.hpp"
#include "netwarp/netmodels/network_spec.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::scenarios {

netmodels::NetworkSpec build_network_spec(const LoadedScenario& loaded);
// The topology alone, as build_network_spec makes it, without the workload (`netwarp topology`:
// an all-to-all of a large fat tree needs far more memory than its network).
netmodels::Topology build_scenario_topology(const LoadedScenario& loaded);

// The scenario's engine block with defaults filled; command-line flags may override it.
struct EngineSettings {
  std::string kernel = "sequential";  // "sequential" or "optimistic"
  bool kernel_is_set = false;         // false: the run picks it by its partition count
  std::uint32_t gvt_interval = 64;
  std::uint32_t batch = 16;
  double window_us = -1;       // < 0: unbounded (as apps' KernelOptions)
  bool window_is_set = false;  // false: the scenario leaves it to the run (see the proto)
  bool adaptive_window = false;
  std::uint64_t max_uncommitted = 0;        // 0: 2 x gvt_interval x batch
  std::uint64_t max_uncommitted_bytes = 0;  // 0: engine::effective_max_uncommitted_bytes
  std::uint64_t record_buffer_bytes = 0;    // 0: netmodels::SpillingResults::kDefaultLimitBytes
  netmodels::SimTime end_time = netmodels::SimTime::max();  // max: until the workload is done
  std::uint64_t seed = 1;
  engine::TieOrder tie_order = engine::TieOrder::fifo;
  std::string
      sync;  // engine.sync in lower case ("hybrid" ...); empty: unset (the kernel's default)
};
EngineSettings engine_settings(const LoadedScenario& loaded);

// The scenario after defaults and --set, in protobuf text format.
std::string effective_scenario_text(const LoadedScenario& loaded);

}  // namespace netwarp::scenarios
