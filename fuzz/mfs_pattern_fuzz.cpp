// Input: an MFS pattern file (`netwarp flow --pattern FILE`), read for a 16-host star of
// 1 Gbit/s links: its checks and the time budget as `netwarp flow` applies them, then for a
// small pattern within the budget the model itself, whose completion must be a time a run can
// count (never a wrapped negative number).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "fuzz_support.hpp"
#include "netwarp/netmodels/time_budget.hpp"
#include "netwarp/netmodels/topology_builders.hpp"
#include "netwarp/validation/flow_pattern.hpp"
#include "netwarp/validation/flow_run.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netwarp;
  constexpr std::uint32_t kHosts = 16;
  static const validation::FlowNetwork network =
      validation::FlowNetwork::from_topology(netmodels::build_star(
          {kHosts}, netmodels::LinkLevels{{netmodels::gbps(1), engine::us(1)}, {}},
          "topology.star"));
  const auto path = fuzz::write_input_file("pattern.csv", fuzz::as_string_view(data, size));
  fuzz::expect_success_or_input_error([&] {
    const validation::FlowPattern pattern = validation::read_pattern_csv(path, kHosts);
    validation::check_pattern(pattern, kHosts);
    validation::check_pattern_budget(pattern, network, path);
    if (pattern.messages.size() > 64) return;
    const validation::MfsResult result = validation::run_mfs(network, pattern, {});
    if (result.completion_ps < 0 ||
        static_cast<std::uint64_t>(result.completion_ps) > 2 * netmodels::kTimeBudgetPs)
      std::abort();  // a completion past what the budget check allowed: a wrong answer
  });
  return 0;
}
