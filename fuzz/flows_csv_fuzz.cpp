// Input: a flows CSV (a scenario's workload.flows.csv_file), read and turned into a workload
// on 16 hosts as the scenario builder does.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "netwarp/netmodels/workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  const auto path = fuzz::write_input_file("flows.csv", fuzz::as_string_view(data, size));
  fuzz::expect_success_or_input_error(
      [&] { netmodels::make_flows(netmodels::read_flows_csv(path), 16, "workload.flows"); });
  return 0;
}
