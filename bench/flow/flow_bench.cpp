// flow_bench: run time of the flow model (run_mfs) on the target, the 16x16 2D torus
// all-to-all of 20 KB messages (scenarios/torus-alltoall.pbtxt: 1 GB/s links, 100 ns), in
// Mode F and Mode N with regular and random placement and the paper's three orders, plus the
// full-bisection fat trees of the paper's section 4 (p = 3, 4, 6). Each case runs `reps` times
// (default 3, argv[1]); argv[2], if given, keeps only the rows whose first five columns contain
// it (e.g. "random | N"). The table shows the median run time (the model's own steady-clock
// time) and process CPU time, the virtual completion time, cycles and Mode N rounds, as Markdown
// on stdout.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "netwarp/netmodels/topology_builders.hpp"
#include "netwarp/netmodels/workload.hpp"
#include "netwarp/validation/flow_run.hpp"

namespace {

using namespace netwarp;

struct Case {
  std::string network;
  netmodels::Topology topology;
  netmodels::AllToAllOrder order;
  bool random;
  validation::FlowMode mode;
};

const char* order_name(netmodels::AllToAllOrder order) {
  switch (order) {
    case netmodels::AllToAllOrder::simple_spread:
      return "simple_spread";
    case netmodels::AllToAllOrder::spread_2d:
      return "spread_2d";
    case netmodels::AllToAllOrder::pairwise:
      return "pairwise";
    case netmodels::AllToAllOrder::random:
      return "random";
  }
  return "?";
}

validation::FlowPattern all_to_all(const Case& c) {
  const std::uint32_t hosts = c.topology.host_count;
  netmodels::Workload w = netmodels::make_all_to_all({c.order, 20000, 0, 1}, hosts, "workload");
  const netmodels::PlacementSpec placement{
      c.random ? netmodels::PlacementKind::random : netmodels::PlacementKind::regular, 1, {}};
  netmodels::apply_placement(w, netmodels::place_ranks(placement, hosts, hosts, "placement"));
  return validation::pattern_from_workload(w);
}

std::string row_key(const Case& c) {
  return fmt::format("{} | {} | {} | {} | {}", c.network, c.topology.host_count,
                     order_name(c.order), c.random ? "random" : "regular",
                     validation::flow_mode_name(c.mode));
}

void run_case(const Case& c, int reps, const std::string& filter) {
  if (row_key(c).find(filter) == std::string::npos) return;
  const validation::FlowNetwork network = validation::FlowNetwork::from_topology(c.topology);
  const validation::FlowPattern pattern = all_to_all(c);
  validation::MfsOptions options;
  options.mode = c.mode;
  std::vector<validation::MfsResult> runs;
  std::vector<double> cpu;
  for (int i = 0; i < reps; ++i) {
    const std::clock_t started = std::clock();
    runs.push_back(validation::run_mfs(network, pattern, options));
    cpu.push_back(static_cast<double>(std::clock() - started) / CLOCKS_PER_SEC);
  }
  std::sort(runs.begin(), runs.end(),
            [](const auto& a, const auto& b) { return a.wall_seconds < b.wall_seconds; });
  std::sort(cpu.begin(), cpu.end());
  const validation::MfsResult& median = runs[runs.size() / 2];
  fmt::print("| {} | {:.3f} | {:.3f} | {:.1f} | {} | {} | {} |\n", row_key(c), median.wall_seconds,
             cpu[cpu.size() / 2], static_cast<double>(median.completion_ps) * 1e-6, median.cycles,
             median.solver.max_min_rounds, median.solver.max_min_rounds_max);
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  const std::string filter = argc > 2 ? argv[2] : "";
  const netmodels::LinkLevels links{{netmodels::gbps(8), engine::ns(100)}, {}};
  const auto torus = netmodels::build_torus({{16, 16}, true, 1}, links, "topology.torus");
  using netmodels::AllToAllOrder;
  using validation::FlowMode;
  fmt::print(
      "| network | hosts | order | placement | mode | run time (s) | CPU time (s) | virtual time "
      "(us) | cycles | Mode N rounds | max rounds/solve |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto order :
       {AllToAllOrder::simple_spread, AllToAllOrder::spread_2d, AllToAllOrder::pairwise})
    for (const bool random : {false, true})
      for (const auto mode : {FlowMode::fair_share, FlowMode::max_min})
        run_case({"torus 16x16", torus, order, random, mode}, reps, filter);
  for (const std::uint32_t p : {3u, 4u, 6u}) {
    const auto tree = netmodels::build_fat_tree({2 * p}, links, "topology.fat_tree");
    const auto order = p == 4 ? AllToAllOrder::pairwise : AllToAllOrder::simple_spread;
    for (const bool random : {false, true})
      for (const auto mode : {FlowMode::fair_share, FlowMode::max_min})
        run_case({fmt::format("fat tree p={}", p), tree, order, random, mode}, reps, filter);
  }
  return 0;
}
