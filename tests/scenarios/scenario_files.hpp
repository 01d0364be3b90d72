// Test helper: scenario text written to a fresh file under the test temp directory.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace netwarp::scenarios::testing {

inline std::string write_scenario(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "netwarp_" + name + ".pbtxt";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace netwarp::scenarios::testing
