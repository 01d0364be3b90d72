// Test helper: scenario text written to a fresh file under the test temp directory.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_error.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::scenarios::testing {

inline std::string write_scenario(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "netwarp_" + name + ".pbtxt";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The network the scenario text builds (written to a file named after `name`).
inline netmodels::NetworkSpec build_text(const std::string& name, const std::string& text,
                                         const std::vector<std::string>& sets = {}) {
  return build_network_spec(load_scenario(write_scenario(name, text), sets));
}

// build_text's located error; empty when the text builds.
inline std::string build_error(const std::string& name, const std::string& text) {
  try {
    build_text(name, text);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

}  // namespace netwarp::scenarios::testing
