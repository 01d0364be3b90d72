// Input: netwarp's own trace format (mpi-emul/proto/trace.proto); the first byte picks binary
// (.pb) or text (.pbtxt), the rest is the file. Read as `netwarp run --trace FILE` reads it and
// expanded into the ranks' program.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "netwarp/mpiemul/trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  if (size == 0) return 0;
  const char* name = data[0] % 2 == 0 ? "trace.pb" : "trace.pbtxt";
  const auto path = fuzz::write_input_file(name, fuzz::as_string_view(data + 1, size - 1));
  fuzz::expect_success_or_input_error([&] {
    const mpiemul::proto::Trace trace = mpiemul::read_trace(path);
    mpiemul::program_from_trace(trace, {});
  });
  return 0;
}
