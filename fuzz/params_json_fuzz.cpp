// Input: a model parameter file (`netwarp model --params`, `netwarp predict --params`), read
// and checked as read_params_file does.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "netwarp/validation/params_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  const auto path = fuzz::write_input_file("params.json", fuzz::as_string_view(data, size));
  fuzz::expect_success_or_input_error([&] { validation::read_params_file(path); });
  return 0;
}
