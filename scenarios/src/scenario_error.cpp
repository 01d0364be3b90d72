// ScenarioError's one-line text and the location look-ups of LoadedScenario: an error names
// the file, then line:col when the field was written in the file, then the field path.
#include "netwarp/scenarios/scenario_error.hpp"

#include <fmt/format.h>

#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::scenarios {

namespace {

std::string format_error(const std::string& file, SourceLoc loc, const std::string& field,
                         const std::string& message) {
  // fmt rather than string concatenation: GCC 12 at -O2 warns falsely (-Wrestrict) on the latter.
  const std::string where = !loc.is_known()   ? file
                            : loc.column == 0 ? fmt::format("{}:{}", file, loc.line)
                                              : fmt::format("{}:{}:{}", file, loc.line, loc.column);
  return field.empty() ? fmt::format("{}: {}", where, message)
                       : fmt::format("{}: {}: {}", where, field, message);
}

}  // namespace

ScenarioError::ScenarioError(std::string file, SourceLoc loc, std::string field,
                             const std::string& message)
    : netmodels::InputError(field, message),
      file_(std::move(file)),
      loc_(loc),
      text_(netmodels::printable(format_error(file_, loc_, field, message))) {}

SourceLoc LoadedScenario::location_of(const std::string& field) const {
  const auto found = locations.find(field);
  return found == locations.end() ? SourceLoc{} : found->second;
}

ScenarioError LoadedScenario::error(const std::string& field, const std::string& message) const {
  return ScenarioError(path, location_of(field), field, message);
}

std::string scenario_library_dir() {
  return NETWARP_SCENARIO_LIBRARY_DIR;
}

}  // namespace netwarp::scenarios
