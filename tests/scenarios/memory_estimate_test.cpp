// estimate_memory: counts read from the scenario times per-item costs, naming the largest part,
// saturating rather than wrapping for counts no machine holds.
#include "netwarp/scenarios/memory_estimate.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "netwarp/scenarios/scenario_loader.hpp"
#include "scenario_files.hpp"

namespace netwarp::scenarios {
namespace {

MemoryEstimate estimate_of(const std::string& name, const std::string& text) {
  return estimate_memory(load_scenario(testing::write_scenario(name, text), {}).scenario);
}

TEST(MemoryEstimate, SmallScenarioIsSmall) {
  const MemoryEstimate e = estimate_of("small_memory",
                                       "topology { star { hosts: 4 } }\n"
                                       "workload { incast { bytes: 1000 } }\n");
  EXPECT_LT(e.bytes, std::uint64_t{1} << 20);
}

TEST(MemoryEstimate, HugeMessageCountIsTheLargestPart) {
  const MemoryEstimate e =
      estimate_of("many_messages",
                  "topology { star { hosts: 1000 } }\n"
                  "transport { kind: TCP }\n"
                  "workload { uniform_random { messages_per_host: 4000000000 bytes: 1 } }\n");
  EXPECT_EQ(e.largest_part, "4000000000000 messages x 128 B");
  EXPECT_GT(e.bytes, std::uint64_t{1} << 48);  // 4e12 x 128 B: about 465 TiB
}

TEST(MemoryEstimate, PingPongRepetitionsCountOperations) {
  const MemoryEstimate e = estimate_of(
      "many_reps",
      "topology { star { hosts: 2 } }\nmpi { pingpong { sizes: 8 repetitions: 4000000000 } }\n"
      "outputs { sample_interval_ns: 0 }\n");  // no time series: the operations alone
  EXPECT_EQ(e.largest_part, "32000000000 MPI operations x 128 B");
}

TEST(MemoryEstimate, GeneratedApplicationsCountTheirTraceActions) {
  // NPB CG class B, 100000 iterations on 1024 ranks: about 4e11 actions, refused by any limit.
  const MemoryEstimate e =
      estimate_of("npb_huge",
                  "topology { star { hosts: 1024 } }\n"
                  "mpi { npb { app: \"cg\" size_class: \"B\" iterations: 100000 } }\n");
  EXPECT_NE(e.largest_part.find("generated trace actions"), std::string::npos) << e.largest_part;
  EXPECT_GT(e.bytes, std::uint64_t{1} << 40);
  const MemoryEstimate small = estimate_of(
      "npb_small", "topology { star { hosts: 4 } }\nmpi { npb { app: \"lu\" iterations: 2 } }\n");
  EXPECT_LT(small.bytes, std::uint64_t{1} << 20);
}

// A lossless sender holds a window of packets (4 MiB per host), not its messages: a 146 GB flow
// on 2 hosts counts 2 x 4 MiB / 1460 B packets and one short packet per message.
TEST(MemoryEstimate, LosslessCountsAWindowOfPacketsPerHost) {
  const MemoryEstimate e =
      estimate_of("lossless_big",
                  "topology { star { hosts: 2 } }\n"
                  "workload { flows { flow { src: 0 dst: 1 bytes: 146000000000 } } }\n"
                  "outputs { sample_interval_ns: 0 }\n");  // no time series: the queue alone
  EXPECT_EQ(e.largest_part, "5746 queued packets x 256 B");
  EXPECT_LT(e.bytes, std::uint64_t{4} << 20);
}

// Below the window, the workload's own packets count (all may be queued at once).
TEST(MemoryEstimate, LosslessBelowTheWindowCountsTheWorkloadsPackets) {
  const MemoryEstimate e =
      estimate_of("lossless_small",
                  "topology { star { hosts: 2 } }\n"
                  "workload { flows { flow { src: 0 dst: 1 bytes: 1460000 } } }\n"
                  "outputs { sample_interval_ns: 0 }\n");
  EXPECT_EQ(e.largest_part, "1001 queued packets x 256 B");
}

TEST(MemoryEstimate, ComputedRoutesCostNoTable) {
  // A million-host torus: hosts, not hosts x switches (a route table would be 2 TB).
  const MemoryEstimate e = estimate_of("million_torus",
                                       "topology { torus { dims: [100, 100, 100] } }\n"
                                       "workload { permutation { bytes: 4096 } }\n");
  EXPECT_EQ(e.largest_part, "1000000 hosts x 8192 B");
  EXPECT_LT(e.bytes, std::uint64_t{16} << 30);
}

// A file in the test temp folder, `lines` copies of `line` after `header`.
std::string write_lines(const std::string& name, const std::string& header, const std::string& line,
                        int lines) {
  const std::string path = ::testing::TempDir() + "netwarp_" + name;
  std::ofstream out(path, std::ios::binary);
  out << header;
  for (int i = 0; i < lines; ++i) out << line;
  return path;
}

// A flows CSV and a trace count by their lines, before anything parses them.
TEST(MemoryEstimate, CsvFlowsCountTheirLines) {
  write_lines("many_flows.csv", "src,dst,bytes,start_ns\n", "0,1,1000,0\n", 100000);
  const LoadedScenario loaded = load_scenario(
      testing::write_scenario("csv_flows",
                              "topology { star { hosts: 2 } }\n"
                              "workload { flows { csv_file: \"netwarp_many_flows.csv\" } }\n"),
      {});
  EXPECT_LT(estimate_memory(loaded.scenario).bytes, std::uint64_t{1} << 20);
  const MemoryEstimate e = estimate_memory(loaded, "");
  EXPECT_EQ(e.largest_part, "100001 CSV flows x 128 B");
}

TEST(MemoryEstimate, TraceActionsCountByFormat) {
  const LoadedScenario loaded = load_scenario(
      testing::write_scenario("trace_platform", "topology { star { hosts: 2 } }\nmpi { }\n"), {});
  const std::string tit = write_lines("many.tit", "", "0 compute 1\n", 50000);
  EXPECT_EQ(estimate_memory(loaded, tit).largest_part, "50001 trace actions x 256 B");
  const std::string text =
      write_lines("few.pbtxt", "ranks { actions { barrier {} } actions { barrier {} } }\n", "", 0);
  EXPECT_EQ(estimate_memory(loaded, text).bytes - estimate_memory(loaded, "").bytes, 2u * 256);
}

}  // namespace
}  // namespace netwarp::scenarios
