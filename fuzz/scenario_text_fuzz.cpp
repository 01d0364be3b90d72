// Input: a scenario in protobuf text format, as `netwarp run FILE` reads it: parse, fill the
// defaults, validate, then build what a run needs (the network spec, or for an mpi section the
// platform, program and rank configuration) without simulating.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  fuzz::expect_success_or_input_error([&] {
    const scenarios::LoadedScenario loaded =
        scenarios::load_scenario_text(fuzz::as_text(data, size), "fuzz.pbtxt", {});
    scenarios::engine_settings(loaded);
    if (scenarios::is_mpi_scenario(loaded))
      scenarios::build_mpi_run(loaded);
    else
      scenarios::build_network_spec(loaded);
  });
  return 0;
}
