// Issue 14's located messages: a required field left out is located at its enclosing block, a
// directory is called one, a flows CSV's mistakes name the CSV file and line (not the
// scenario), and a dragonfly's unwritten groups is not reported as "got 0".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "scenario_files.hpp"

namespace netwarp::scenarios {
namespace {

std::string load_error(const std::string& path, bool build = false) {
  try {
    const LoadedScenario loaded = load_scenario(path, {});
    if (build) build_network_spec(loaded);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(LocatedErrors, MissingTracePathNamesTheScenarioAndTheField) {
  const std::string path = testing::write_scenario(
      "no_trace_path", "topology { star { hosts: 2 } }\nmpi {\n  trace { }\n}\n");
  EXPECT_EQ(load_error(path), path + ": mpi.trace.path: must name a trace file or folder");
}

TEST(LocatedErrors, MissingTraceFileNamesTheScenarioFieldAndPath) {
  const std::string path = testing::write_scenario(
      "missing_trace",
      "topology { star { hosts: 2 } }\nmpi { trace { path: \"/nonexistent/t.tit\" } }\n");
  try {
    build_mpi_run(load_scenario(path, {}));
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()), path +
                                         ":2:15: mpi.trace.path: no trace file or folder "
                                         "'/nonexistent/t.tit' (looked for /nonexistent/t.tit)");
  }
}

TEST(LocatedErrors, DirectoryAsScenarioSaysSo) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  EXPECT_EQ(load_error(dir), dir + ": is a directory, not a scenario file");
}

TEST(LocatedErrors, DragonflyGroupsTooLargeByDefaultIsNotGotZero) {
  const std::string path = testing::write_scenario(
      "dragonfly_default",
      "topology { dragonfly { routers_per_group: 100000 hosts_per_router: 1 "
      "global_per_router: 100000 } }\nworkload { incast { bytes: 10 } }\n");
  EXPECT_EQ(load_error(path),
            path +
                ":1:70: topology.dragonfly.global_per_router: routers_per_group x "
                "global_per_router + 1 (the default groups) must be < 2^32, got 10000000001");
}

class CsvFlows : public ::testing::Test {
 protected:
  // One file per test: ctest runs the tests of this fixture in parallel processes.
  void SetUp() override {
    csv_ = ::testing::TempDir() + "netwarp_flows_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".csv";
  }
  // The CSV's own error, after where the scenario names the file (checked here once for all).
  std::string error_of(const std::string& rows, const std::string& transport = "TCP",
                       const std::string& extra = "") {
    std::ofstream(csv_) << "src,dst,bytes,start_ns\n" << rows;
    const std::string path = testing::write_scenario(
        std::string("csv_flows_") + ::testing::UnitTest::GetInstance()->current_test_info()->name(),
        extra + "topology { star { hosts: 2 } }\ntransport { kind: " + transport +
            " }\nworkload { flows { csv_file: \"" + csv_ + "\" } }\n");
    const std::string error = load_error(path, true);
    const std::string place =
        path + ":" + (extra.empty() ? "3" : "4") + ":20: workload.flows.csv_file: ";
    EXPECT_EQ(error.rfind(place, 0), 0u) << error;
    return error.substr(error.rfind(place, 0) == 0 ? place.size() : 0);
  }
  std::string csv_;
};

TEST_F(CsvFlows, PastTwoTo63BytesNameTheCsvLine) {
  EXPECT_EQ(error_of("0,1,100,0\n0,1,9223372036854775808,0\n"),
            csv_ + ":3: bytes: must be at most 9223372036854775807, got 9223372036854775808");
}

TEST_F(CsvFlows, RankOutOfRangeNamesTheCsvLine) {
  EXPECT_EQ(error_of("0,5,100,0\n"), csv_ + ":2: dst: rank 5 does not exist (2 ranks: 0..1)");
}

TEST_F(CsvFlows, ParseErrorNamesTheCsvLine) {
  EXPECT_EQ(error_of("0,1,x,0\n"), csv_ + ":2: bytes is not a number: 'x'");
}

TEST_F(CsvFlows, TimeBudgetIsCheckedAtTheLargestFlow) {
  // 4e9 bytes at 1 bit/s take 3.2e10 s, past the time budget.
  EXPECT_EQ(error_of("0,1,10,0\n1,0,4000000000,0\n", "LOSSLESS", "links { rate_bps: 1 }\n")
                .rfind(csv_ + ":3: bytes: ", 0),
            0u);
}

}  // namespace
}  // namespace netwarp::scenarios
