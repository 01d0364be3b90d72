// Input: an MFS pattern file (`netwarp flow --pattern FILE`), read for a 16-host topology.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "netwarp/validation/flow_pattern.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  constexpr std::uint32_t kHosts = 16;
  const auto path = fuzz::write_input_file("pattern.csv", fuzz::as_string_view(data, size));
  fuzz::expect_success_or_input_error(
      [&] { validation::check_pattern(validation::read_pattern_csv(path, kHosts), kHosts); });
  return 0;
}
