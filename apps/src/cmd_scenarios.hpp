// `netwarp scenarios [--dir DIR]`: the scenario library, one line per scenario file (its path
// under the library folder, name and description). Every file is loaded and validated, so a
// broken library file shows up here with its located error.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "app_context.hpp"

namespace netwarp::apps {

struct ScenariosOptions {
  std::string dir;  // empty: the library of the source tree
};

CLI::App* add_scenarios_command(CLI::App& app, ScenariosOptions& options);
int scenarios_command(const ScenariosOptions& options, const AppContext& context);

}  // namespace netwarp::apps
