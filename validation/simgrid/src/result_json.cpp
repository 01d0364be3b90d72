// result_json: the report as JSON and the summary line.
#include "result_json.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace netwarp::simgrid_check {

std::string result_json(const SimgridRunResult& result, const ReportContext& context) {
  nlohmann::ordered_json j;
  j["tool"] = "simgrid";
  j["simgrid_version"] = result.simgrid_version;
  j["network_model"] = context.network_model;
  j["predicted_ps"] = result.predicted_ps();
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (const RankOutcome& r : result.ranks)
    ranks.push_back({{"rank", r.rank}, {"end_ps", r.end_ps}});
  j["ranks"] = ranks;
  j["wall_seconds"] = context.wall_seconds;
  j["platform"] = context.platform.empty() ? nlohmann::ordered_json(nullptr)
                                           : nlohmann::ordered_json(context.platform);
  j["scenario"] = context.scenario;
  j["program"] = context.program;
  j["world_size"] = result.ranks.size();
  j["transfers"] = result.transfers;
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string summary_line(const SimgridRunResult& result, const ReportContext& context,
                         const std::string& out_path) {
  return fmt::format(
      "simgrid {} ({}): predicted {:.3f} us for {} ranks, {} transfers, {:.2f} s wall -> {}",
      result.simgrid_version, context.network_model,
      static_cast<double>(result.predicted_ps()) * 1e-6, result.ranks.size(), result.transfers,
      context.wall_seconds, out_path);
}

}  // namespace netwarp::simgrid_check
