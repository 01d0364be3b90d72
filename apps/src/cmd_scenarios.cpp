// `netwarp scenarios`: lists the scenario library.
#include "cmd_scenarios.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "exit_codes.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::apps {
namespace {

namespace fs = std::filesystem;

// Every .pbtxt under `dir`, by path relative to it, in name order.
std::vector<fs::path> scenario_files(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".pbtxt")
      files.push_back(fs::relative(entry.path(), dir));
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

CLI::App* add_scenarios_command(CLI::App& app, ScenariosOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "scenarios", "List the scenario library: file, name and description, one line each");
  cmd->add_option("--dir", o.dir, "Library folder")->default_str("the source tree's scenarios/");
  return cmd;
}

int scenarios_command(const ScenariosOptions& o, const AppContext& context) {
  if (!context.is_root()) return 0;
  const fs::path dir = o.dir.empty() ? scenarios::scenario_library_dir() : o.dir;
  if (!fs::is_directory(dir))
    throw UsageError(fmt::format("{}: not a folder of scenarios", dir.string()));
  const std::vector<fs::path> files = scenario_files(dir);
  std::size_t width = 0;
  for (const auto& f : files) width = std::max(width, f.string().size());
  int broken = 0;
  for (const auto& f : files) {
    try {
      const scenarios::LoadedScenario s = scenarios::load_scenario((dir / f).string(), {});
      std::printf("%-*s  %s: %s\n", static_cast<int>(width), f.string().c_str(),
                  s.scenario.name().c_str(), s.scenario.description().c_str());
    } catch (const std::exception& e) {
      std::printf("%-*s  BROKEN: %s\n", static_cast<int>(width), f.string().c_str(), e.what());
      ++broken;
    }
  }
  std::printf("%zu scenarios in %s", files.size(), dir.string().c_str());
  std::printf(broken > 0 ? ", %d broken\n" : "\n", broken);
  return broken > 0 ? exit_code::kBadInput : exit_code::kSuccess;
}

}  // namespace netwarp::apps
