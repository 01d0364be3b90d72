// load_scenario: protobuf text format in (text_parse.hpp), a validated scenario out: --set
// overrides, defaults and validation, in that order, errors located in the file.
#include "netwarp/scenarios/scenario_loader.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include "defaults.hpp"
#include "netwarp/mpiemul/defined_enums.hpp"
#include "set_override.hpp"
#include "text_parse.hpp"
#include "unused_settings.hpp"
#include "utf8_check.hpp"
#include "validate.hpp"

namespace netwarp::scenarios {

namespace {

// Forgets where a field (and everything under it) was written: --set replaced it.
void forget_locations(std::map<std::string, SourceLoc>& locations, const std::string& path) {
  std::erase_if(locations, [&](const auto& entry) {
    const std::string& key = entry.first;
    return key == path || key.starts_with(path + ".") || key.starts_with(path + "[");
  });
}

// Returns whether the fast parser read it (then every string is UTF-8, every enum defined).
bool parse(const std::string& text, LoadedScenario& loaded) {
  auto fast = fast_text_parse(text);
  ParsedText parsed = fast ? std::move(*fast) : protobuf_text_parse(text, loaded.path);
  loaded.scenario = std::move(parsed.scenario);
  loaded.locations = std::move(parsed.locations);
  return fast.has_value();
}

// Returns the notes of overrides that switched a oneof to another member.
std::vector<std::string> apply_overrides(const std::vector<std::string>& overrides,
                                         LoadedScenario& loaded) {
  std::vector<std::string> notes;
  for (const std::string& assignment : overrides) {
    try {
      forget_locations(loaded.locations, apply_override(loaded.scenario, assignment, notes));
    } catch (const netmodels::InputError& e) {
      throw ScenarioError(loaded.path, {}, e.field(), e.message());
    }
  }
  return notes;
}

// Partitions running as threads share it: each line is printed once.
void print_once_on_stderr(const std::string& line) {
  static std::mutex mutex;
  static std::set<std::string> printed;
  const std::lock_guard<std::mutex> lock(mutex);
  if (printed.insert(line).second)
    std::fprintf(stderr, "netwarp: warning: %s\n", netmodels::printable(line).c_str());
}

std::function<void(const std::string&)>& warning_printer() {
  static std::function<void(const std::string&)> printer = print_once_on_stderr;
  return printer;
}

std::vector<std::string> located_warnings(const LoadedScenario& loaded,
                                          const std::vector<UnusedSetting>& unused) {
  std::vector<std::string> lines;
  for (const UnusedSetting& setting : unused)
    lines.push_back(loaded.error(setting.field, setting.message).what());
  return lines;
}

}  // namespace

void set_warning_printer(std::function<void(const std::string&)> printer) {
  warning_printer() = printer ? std::move(printer) : print_once_on_stderr;
}

LoadedScenario load_scenario_text(const std::string& text, const std::string& name,
                                  const std::vector<std::string>& overrides) {
  LoadedScenario loaded;
  loaded.path = name;
  // The walks by reflection below are what a fast parse saves (they build the descriptors); it
  // has made their checks already, unless --set changed something since.
  const bool checked = parse(text, loaded) && overrides.empty();
  const std::vector<std::string> switched = apply_overrides(overrides, loaded);
  // Before defaults and checks: an undefined number would otherwise run as the default.
  if (const auto undefined =
          checked ? std::nullopt : mpiemul::first_undefined_enum(loaded.scenario))
    throw loaded.error(undefined->field, undefined->message);
  const std::vector<UnusedSetting> unused = unused_settings(loaded.scenario);
  fill_defaults(loaded.scenario);
  try {
    if (!checked) check_utf8_strings(loaded.scenario);
    validate_scenario(loaded.scenario);
  } catch (const netmodels::InputError& e) {
    throw loaded.error(e.field(), e.message());
  }
  loaded.warnings = located_warnings(loaded, unused);
  loaded.warnings.insert(loaded.warnings.begin(), switched.begin(), switched.end());
  for (const std::string& line : loaded.warnings) warning_printer()(line);
  return loaded;
}

LoadedScenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    throw ScenarioError(path, {}, "", "is a directory, not a scenario file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path, {}, "", "cannot open the scenario file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path, {}, "", "cannot read the scenario file");
  return load_scenario_text(text.str(), path, overrides);
}

}  // namespace netwarp::scenarios
