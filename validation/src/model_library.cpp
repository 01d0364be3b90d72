#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "netwarp/validation/model_names.hpp"

namespace netwarp::validation {
namespace {

constexpr std::array<std::pair<ModelKind, std::string_view>, 11> kNames{{
    {ModelKind::hockney, "hockney"},
    {ModelKind::logp, "logp"},
    {ModelKind::loggp, "loggp"},
    {ModelKind::loggps, "loggps"},
    {ModelKind::plogp, "plogp"},
    {ModelKind::plogp_br, "plogp-br"},
    {ModelKind::mpiete, "mpiete"},
    {ModelKind::flow, "flow"},
    {ModelKind::flow_f, "flow-f"},
    {ModelKind::simgrid, "simgrid"},
    {ModelKind::ns3, "ns3"},
}};

}  // namespace

std::string_view model_name(ModelKind kind) {
  for (const auto& [k, name] : kNames)
    if (k == kind) return name;
  return "?";
}

ModelKind parse_model_name(std::string_view name) {
  for (const auto& [k, known] : kNames)
    if (known == name) return k;
  std::string all;
  for (const auto& [k, known] : kNames) all += (all.empty() ? "" : ", ") + std::string(known);
  throw std::invalid_argument(fmt::format("unknown model '{}' (known: {})", name, all));
}

std::vector<ModelKind> parse_model_list(std::string_view list) {
  std::vector<ModelKind> models;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view item = list.substr(start, comma - start);
    if (item.empty()) throw std::invalid_argument("empty model name in list");
    const ModelKind kind = parse_model_name(item);
    if (std::find(models.begin(), models.end(), kind) != models.end())
      throw std::invalid_argument(fmt::format("model '{}' named twice", item));
    models.push_back(kind);
    start = comma + 1;
  }
  return models;
}

}  // namespace netwarp::validation
