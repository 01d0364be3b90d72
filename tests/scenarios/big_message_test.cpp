// Messages of 4 GiB and more in scenarios: inline flows, flow CSVs and MPI traces take them
// with the TCP transport as with the lossless one (64-bit stream offsets). What still limits a
// size is the time budget, refused with the field (or CSV line, or trace line) named, and the
// 2^63 - 1 bytes a message can hold.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "netwarp/mpiemul/trace.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "scenario_files.hpp"

namespace netwarp::scenarios {
namespace {

constexpr std::uint64_t kFiveGiB = std::uint64_t{5} << 30;

std::string tcp_flow(const std::string& bytes) {
  return "topology { star { hosts: 2 } }\ntransport { kind: TCP }\n"
         "workload { flows { flow { src: 0 dst: 1 bytes: " +
         bytes + " } } }\n";
}

std::string error_of(const std::string& path) {
  try {
    build_network_spec(load_scenario(path, {}));
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "netwarp_big_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(BigMessageScenario, FiveGiBTcpFlowIsAccepted) {
  const std::string path = testing::write_scenario("big_tcp", tcp_flow("5368709120"));
  const netmodels::NetworkSpec spec = build_network_spec(load_scenario(path, {}));
  ASSERT_EQ(spec.workload.messages.size(), 1u);
  EXPECT_EQ(spec.workload.messages[0].bytes, kFiveGiB);
}

TEST(BigMessageScenario, FiveGiBIncastFromSetIsAccepted) {
  const std::string path =
      testing::write_scenario("big_incast",
                              "topology { star { hosts: 3 } }\ntransport { kind: TCP }\n"
                              "workload { incast { bytes: 1000 } }\n");
  const netmodels::NetworkSpec spec =
      build_network_spec(load_scenario(path, {"workload.incast.bytes=5GiB"}));
  ASSERT_EQ(spec.workload.messages.size(), 2u);
  EXPECT_EQ(spec.workload.messages[1].bytes, kFiveGiB);
}

TEST(BigMessageScenario, FiveGiBCsvFlowIsAccepted) {
  const std::string csv = temp_file("ok.csv", "src,dst,bytes,start_ns\n0,1,5368709120,0\n");
  const std::string path =
      testing::write_scenario("big_csv",
                              "topology { star { hosts: 2 } }\ntransport { kind: TCP }\n"
                              "workload { flows { csv_file: \"" +
                                  csv + "\" } }\n");
  const netmodels::NetworkSpec spec = build_network_spec(load_scenario(path, {}));
  ASSERT_EQ(spec.workload.messages.size(), 1u);
  EXPECT_EQ(spec.workload.messages[0].bytes, kFiveGiB);
}

// 2^62 bytes at the default 10 Gbit/s take about 3.7e9 s: the field is named at its line.
TEST(BigMessageScenario, TimeBudgetRefusesNamingTheField) {
  const std::string path = testing::write_scenario("big_budget", tcp_flow("4611686018427387904"));
  const std::string error = error_of(path);
  EXPECT_EQ(error.rfind(path + ":3:41: workload.flows.flow[0].bytes: 4611686018427387904 B ", 0),
            0u)
      << error;
  EXPECT_NE(error.find("a run can simulate"), std::string::npos) << error;
}

TEST(BigMessageScenario, TimeBudgetRefusesNamingTheCsvLine) {
  const std::string csv =
      temp_file("budget.csv", "src,dst,bytes,start_ns\n0,1,10,0\n0,1,4611686018427387904,0\n");
  const std::string path =
      testing::write_scenario("big_csv_budget",
                              "topology { star { hosts: 2 } }\ntransport { kind: TCP }\n"
                              "workload { flows { csv_file: \"" +
                                  csv + "\" } }\n");
  // Where the scenario names the file, then the file's line.
  EXPECT_EQ(
      error_of(path).rfind(path + ":3:20: workload.flows.csv_file: " + csv + ":3: bytes: ", 0), 0u)
      << error_of(path);
}

TEST(BigMessageScenario, PastTwoTo63IsRefused) {
  const std::string path = testing::write_scenario("big_past", tcp_flow("9223372036854775808"));
  EXPECT_EQ(error_of(path), path +
                                ":3:41: workload.flows.flow[0].bytes: must be at most "
                                "9223372036854775807 (2^63 - 1), got 9223372036854775808");
}

// The scenario's trace options let a 5 GiB send through on TCP (mpi-emul's BigMpiMessage runs
// one); past the budget, the trace's line is named.
TEST(BigMessageScenario, FiveGiBTitSendOnTcpBuilds) {
  const std::string tit = temp_file("ok.tit", "0 send 1 0 5368709120\n1 recv 0 0 5368709120\n");
  const std::string path =
      testing::write_scenario("big_tit",
                              "topology { star { hosts: 2 } }\ntransport { kind: TCP }\n"
                              "mpi { trace { path: \"" +
                                  tit + "\" } }\n");
  const MpiRunSpec run = build_mpi_run(load_scenario(path, {}));
  ASSERT_EQ(run.program->size(), 2u);
  bool found = false;
  for (const mpiemul::Op& op : run.program->ranks[0].ops)
    if (op.kind == mpiemul::OpKind::send) found = op.bytes == kFiveGiB;
  EXPECT_TRUE(found);
}

TEST(BigMessageScenario, TitSendPastTheBudgetNamesTheTraceLine) {
  const std::string tit =
      temp_file("budget.tit", "0 send 1 0 1000\n0 send 1 0 4611686018427387904\n1 recv 0 0 1000\n");
  const std::string path =
      testing::write_scenario("big_tit_budget",
                              "topology { star { hosts: 2 } }\ntransport { kind: TCP }\n"
                              "mpi { trace { path: \"" +
                                  tit + "\" } }\n");
  try {
    build_mpi_run(load_scenario(path, {}));
    FAIL() << "no error";
  } catch (const ScenarioError& e) {  // where the scenario names the trace, then its line
    EXPECT_EQ(std::string(e.what()).rfind(path + ":3:15: mpi.trace.path: " + tit + ":2: send: ", 0),
              0u)
        << e.what();
  }
}

}  // namespace
}  // namespace netwarp::scenarios
