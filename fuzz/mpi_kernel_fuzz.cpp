// Input: a scenario whose mpi section runs a built-in kernel (gauss, NPB CG/LU, pingpong,
// all-to-all, ring, collective), as `netwarp run FILE` reads it: the scenario checks, the
// memory estimate, and the program built and checked against the time budget, up front.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "scenario_build.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  fuzz::expect_success_or_input_error([&] {
    fuzz::build_loaded_scenario(
        scenarios::load_scenario_text(fuzz::as_text(data, size), "kernel.pbtxt", {}));
  });
  return 0;
}
