// Input: `--set path=value` overrides, one per line, applied to a valid library scenario (the
// first byte picks which), then loaded and built as `netwarp run SCENARIO --set ...` does.
#include <array>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "scenario_build.hpp"

namespace {

constexpr std::array<const char*, 4> kBases = {"incast.pbtxt", "two-flows.pbtxt", "pingpong.pbtxt",
                                               "cluster.pbtxt"};

std::vector<std::string> override_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  if (size == 0) return 0;
  const std::string base =
      scenarios::scenario_library_dir() + "/" + kBases[data[0] % kBases.size()];
  const std::vector<std::string> overrides = override_lines(fuzz::as_text(data + 1, size - 1));
  fuzz::expect_success_or_input_error(
      [&] { fuzz::build_loaded_scenario(scenarios::load_scenario(base, overrides)); });
  return 0;
}
