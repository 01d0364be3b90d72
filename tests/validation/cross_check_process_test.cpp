#include "harness/cross_check_process.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace netwarp::validation {
namespace {

namespace fs = std::filesystem;

// Under the test's temporary folder (tests/temp_dir_main.cpp removes it).
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / "netwarp-cross-check-process-test";
  fs::create_directories(dir);
  return dir / name;
}

TEST(CrossCheckProcess, KeepsTheToolsErrorLineAndRemovesWhatItLeft) {
  const fs::path out = scratch("failed.json");
  const std::string command = "sh -c 'echo partial > " + out.string() +
                              "; echo noise >&2; echo \"tool: error: s.pbtxt: transport.tcp.sack: "
                              "cannot mirror true\" >&2; exit 2'";
  const CrossCheckOutcome outcome = run_cross_check(command, out);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.error, "s.pbtxt: transport.tcp.sack: cannot mirror true");
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out.string() + ".stderr"));
}

TEST(CrossCheckProcess, ASuccessKeepsTheReport) {
  const fs::path out = scratch("done.json");
  const CrossCheckOutcome outcome =
      run_cross_check("sh -c 'echo {} > " + out.string() + "; echo summary'", out);
  EXPECT_TRUE(outcome.ok);
  EXPECT_TRUE(outcome.error.empty());
  EXPECT_TRUE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out.string() + ".stderr"));
  fs::remove(out);
}

TEST(CrossCheckProcess, ASilentFailureSaysItsStatus) {
  const fs::path out = scratch("silent.json");
  const CrossCheckOutcome outcome = run_cross_check("sh -c 'exit 3'", out);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("exited with status"), std::string::npos) << outcome.error;
}

}  // namespace
}  // namespace netwarp::validation
