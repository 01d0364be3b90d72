// Input: a scenario in protobuf text format, as `netwarp run FILE` reads it: parse, fill the
// defaults, validate, then build what a run needs (the network spec, or for an mpi section the
// platform, program and rank configuration) without simulating.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "scenario_build.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  fuzz::expect_success_or_input_error([&] {
    fuzz::build_loaded_scenario(
        scenarios::load_scenario_text(fuzz::as_text(data, size), "fuzz.pbtxt", {}));
  });
  return 0;
}
