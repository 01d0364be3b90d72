// Input: a SimGrid time-independent trace (one file with every rank's lines, or a replay list),
// read as `netwarp run --trace FILE` reads it and expanded into the ranks' program.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "netwarp/mpiemul/trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  const auto path = fuzz::write_input_file("trace.tit", fuzz::as_string_view(data, size));
  fuzz::expect_success_or_input_error([&] {
    const mpiemul::proto::Trace trace = mpiemul::read_tit(path);
    mpiemul::program_from_trace(trace, {});
  });
  return 0;
}
