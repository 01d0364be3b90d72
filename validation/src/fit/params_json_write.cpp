// Parameter sets to JSON (params_json.hpp describes the format).
#include <fstream>
#include <stdexcept>
#include <type_traits>

#include "netwarp/validation/model_names.hpp"
#include "netwarp/validation/params_json.hpp"

namespace netwarp::validation {

namespace {

using Json = nlohmann::ordered_json;

Json table_json(const Table& table) {
  Json points = Json::array();
  for (const TablePoint& p : table.points()) points.push_back({{"m", p.m}, {"value", p.value}});
  return points;
}

Json plogp_json(const PlogpParams& p) {
  return {
      {"L", p.L}, {"o_s", table_json(p.o_s)}, {"o_r", table_json(p.o_r)}, {"g", table_json(p.g)}};
}

Json params_json(const ModelParams& params) {
  return std::visit(
      [](const auto& p) -> Json {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, HockneyParams>) {
          return {{"alpha", p.alpha}, {"beta", p.beta}};
        } else if constexpr (std::is_same_v<T, LogPParams>) {
          return {{"L", p.L}, {"o", p.o}, {"g", p.g}, {"P", p.P}};
        } else if constexpr (std::is_same_v<T, LogGpParams>) {
          return {{"L", p.L}, {"o", p.o}, {"g", p.g}, {"G", p.G}, {"P", p.P}};
        } else if constexpr (std::is_same_v<T, LogGpsParams>) {
          return {{"L", p.L},     {"o", p.o},   {"Oss", p.Oss}, {"Ors", p.Ors}, {"Osl", p.Osl},
                  {"Orl", p.Orl}, {"Gs", p.Gs}, {"Gl", p.Gl},   {"s", p.s},     {"S", p.S}};
        } else if constexpr (std::is_same_v<T, PlogpParams>) {
          return plogp_json(p);
        } else if constexpr (std::is_same_v<T, MpieteParams>) {
          return {{"t_comm", table_json(p.t_comm)}};
        } else {
          Json j = plogp_json(p.base);
          Json patterns = Json::object();
          for (const auto& [name, table] : p.g_by_pattern) patterns[name] = table_json(table);
          j["g_by_pattern"] = patterns;
          j["q_bytes"] = p.q_bytes;
          j["flow_control"] = p.flow_control;
          j["rto_ns"] = p.rto_ns;
          return j;
        }
      },
      params);
}

Json fit_json(const FitReport& fit) {
  Json residuals = Json::array();
  for (const FitResidual& r : fit.residuals)
    residuals.push_back({{"series", r.series},
                         {"k", r.k},
                         {"measured_ns", r.measured_ns},
                         {"model_ns", r.model_ns},
                         {"error_pct", r.error_pct}});
  return {
      {"residuals", residuals}, {"max_abs_error_pct", fit.max_abs_error_pct}, {"notes", fit.notes}};
}

}  // namespace

std::string_view params_model_name(const ModelParams& params) {
  return model_name(kParamsModels[params.index()]);
}

nlohmann::ordered_json params_to_json(const ParamsDocument& document) {
  Json j;
  j["model"] = params_model_name(document.params);
  j["units"] = {{"time", "ns"}, {"per_byte", "ns/byte"}};
  j["params"] = params_json(document.params);
  if (document.fit) j["fit"] = fit_json(*document.fit);
  if (!document.source.empty()) j["source"] = document.source;
  return j;
}

nlohmann::ordered_json intra_node_to_json(const IntraNodeParams& p) {
  return {{"latency", p.latency},
          {"o", p.o},
          {"copy", p.copy},
          {"eager_bytes", p.eager_bytes},
          {"single_copy_setup", p.single_copy_setup},
          {"single_copy", p.single_copy}};
}

void write_params_file(const std::string& path, const ParamsDocument& document) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot open for writing");
  out << params_to_json(document).dump(2, ' ', false,
                                       nlohmann::ordered_json::error_handler_t::replace)
      << '\n';
  out.close();
  if (!out) throw std::runtime_error(path + ": write failed");
}

}  // namespace netwarp::validation
