// estimate_memory: counts read from the scenario times per-item costs, naming the largest part,
// saturating rather than wrapping for counts no machine holds.
#include "netwarp/scenarios/memory_estimate.hpp"

#include <gtest/gtest.h>

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
      "topology { star { hosts: 2 } }\nmpi { pingpong { sizes: 8 repetitions: 4000000000 } }\n");
  EXPECT_EQ(e.largest_part, "32000000000 MPI operations x 128 B");
}

TEST(MemoryEstimate, LosslessCountsTheQueuedPackets) {
  const MemoryEstimate e =
      estimate_of("lossless_big",
                  "topology { star { hosts: 2 } }\n"
                  "workload { flows { flow { src: 0 dst: 1 bytes: 146000000000 } } }\n");
  EXPECT_EQ(e.largest_part, "100000001 queued packets x 256 B");
}

TEST(MemoryEstimate, ComputedRoutesCostNoTable) {
  // A million-host torus: hosts, not hosts x switches (a route table would be 2 TB).
  const MemoryEstimate e =
      estimate_of("million_torus",
                  "topology { torus { dims: [100, 100, 100] } }\n"
                  "workload { permutation { bytes: 4096 } }\n");
  EXPECT_EQ(e.largest_part, "1000000 hosts x 8192 B");
  EXPECT_LT(e.bytes, std::uint64_t{16} << 30);
}

}  // namespace
}  // namespace netwarp::scenarios
