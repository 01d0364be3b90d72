// The ns-3 cross-check in `netwarp validate` (--models ns3): runs netwarp-ns3
// (validation/ns3) on a network workload's sweep point and sets its completion time, counters
// and flows beside the packet run's, for report.md and report.json.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "netwarp/validation/report.hpp"

namespace netwarp::validation {

struct Ns3CheckRequest {
  std::string program;  // netwarp-ns3; empty or missing: the cross-check is unavailable
  std::string scenario;
  std::vector<std::string> sets;
  std::filesystem::path out_file;  // netwarp-ns3's JSON report
};

// The model column (completion time as predicted_ps) and, when netwarp-ns3 ran, the comparison
// stored in point.ns3 (packet_flows from the point's packet run).
ModelResult run_ns3_check(const Ns3CheckRequest& request, std::vector<FlowSample> packet_flows,
                          SweepPointResult& point);

// Flow completion time percentile (nearest rank) over finished flows, ps; -1 when none.
std::int64_t fct_percentile(const std::vector<FlowSample>& flows, double percentile);

nlohmann::ordered_json ns3_comparison_json(const Ns3Comparison& comparison,
                                           const SweepPointResult& point);
// The "ns-3 cross-check" section: per point, totals side by side, FCT percentiles, and a
// per-flow table. Empty when no point has a comparison.
std::string ns3_comparison_markdown(const ValidationReport& report);

}  // namespace netwarp::validation
