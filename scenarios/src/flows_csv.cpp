// Flows read from a scenario's CSV file, checked with the rules the validator applies to
// inline flows (ranks exist and differ, bytes > 0, start and time budget
// in range); every error names the CSV file and line, not the scenario.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "flows_csv.hpp"
#include "netwarp/scenarios/scenario_error.hpp"
#include "validate.hpp"
#include "validate_time.hpp"

namespace netwarp::scenarios {

namespace {

[[noreturn]] void fail_at(const std::string& csv, const netmodels::FlowSpec& flow,
                          const std::string& column, const std::string& message) {
  throw ScenarioError(csv, SourceLoc{static_cast<int>(flow.line), 0}, column, message);
}

void check_rank(const std::string& csv, const netmodels::FlowSpec& flow, const std::string& column,
                std::uint32_t rank, std::uint64_t ranks) {
  if (rank >= ranks)
    fail_at(csv, flow, column,
            fmt::format("rank {} does not exist ({} ranks: 0..{})", rank, ranks, ranks - 1));
}

void check_row(const std::string& csv, const netmodels::FlowSpec& flow, std::uint64_t ranks) {
  check_rank(csv, flow, "src", flow.src, ranks);
  check_rank(csv, flow, "dst", flow.dst, ranks);
  if (flow.src == flow.dst)
    fail_at(csv, flow, "dst", fmt::format("must differ from src ({})", flow.src));
  if (flow.bytes == 0) fail_at(csv, flow, "bytes", "must be > 0, got 0");
  if (flow.start.ps() / 1000 > static_cast<std::int64_t>(kMaxTimeNs))
    fail_at(csv, flow, "start_ns",
            fmt::format("must be <= {}, got {}", kMaxTimeNs, flow.start.ps() / 1000));
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

// The time budget of all rows, reported at the largest flow's line (or the largest gap's).
void check_budget(const std::string& csv, const std::vector<netmodels::FlowSpec>& flows,
                  const proto::Scenario& scenario) {
  Demand demand{"bytes"};
  std::map<std::uint32_t, std::uint64_t> sent, received;
  const netmodels::FlowSpec* largest = &flows.front();
  const netmodels::FlowSpec* largest_gap = nullptr;
  std::uint64_t waiting = 0, gaps_ns = 0, all_bytes = 0;
  for (const netmodels::FlowSpec& flow : flows) {
    all_bytes = saturating_add(all_bytes, flow.bytes);
    if (!flow.after.empty()) {
      ++waiting;
      gaps_ns = saturating_add(gaps_ns, static_cast<std::uint64_t>(flow.gap.ps() / 1000));
      if (largest_gap == nullptr || flow.gap > largest_gap->gap) largest_gap = &flow;
    }
    sent[flow.src] = saturating_add(sent[flow.src], flow.bytes);
    received[flow.dst] = saturating_add(received[flow.dst], flow.bytes);
    demand.port_bytes = std::max({demand.port_bytes, sent[flow.src], received[flow.dst]});
    demand.latest_start_ns =
        std::max(demand.latest_start_ns, static_cast<std::uint64_t>(flow.start.ps() / 1000));
    if (flow.bytes > largest->bytes) largest = &flow;
  }
  demand.largest_message_bytes = largest->bytes;
  add_waiting_flows(demand, waiting, gaps_ns, all_bytes, "gap_ns");
  try {
    PathBound(scenario).require_within_budget(demand);
  } catch (const netmodels::InputError& e) {
    if (e.field() == "gap_ns") fail_at(csv, *largest_gap, "gap_ns", e.message());
    if (e.field() != "bytes") throw;  // a link setting: the scenario's field
    fail_at(csv, *largest, "bytes", e.message());
  }
}

}  // namespace

std::vector<netmodels::FlowSpec> read_scenario_flows_csv(const std::string& csv,
                                                         const proto::Scenario& scenario,
                                                         std::uint64_t ranks) {
  std::vector<netmodels::FlowSpec> flows;
  try {
    flows = netmodels::read_flows_csv(csv);
  } catch (const netmodels::FileInputError& e) {
    throw ScenarioError(e.file(), SourceLoc{static_cast<int>(e.line()), 0}, "", e.reason());
  } catch (const netmodels::InputError& e) {
    throw ScenarioError(csv, {}, "", e.message().substr(csv.size() + 2));
  }
  if (flows.empty()) throw ScenarioError(csv, {}, "", "lists no flows");
  for (const netmodels::FlowSpec& flow : flows) check_row(csv, flow, ranks);
  try {
    netmodels::resolve_flow_dependencies(flows, "", csv);
  } catch (const netmodels::FileInputError& e) {
    throw ScenarioError(e.file(), SourceLoc{static_cast<int>(e.line()), 0}, "", e.reason());
  }
  check_budget(csv, flows, scenario);
  return flows;
}

}  // namespace netwarp::scenarios
