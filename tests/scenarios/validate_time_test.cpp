// Scenarios whose sizes, rates, latencies and costs multiply past the simulated-time budget
// (issue 14: each of these ran into a wrapped SimTime and an internal error): each is refused
// at load with one located line naming the field that set the largest term. The library's own
// scenarios stay within the budget (library_test loads them all).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "netwarp/scenarios/scenario_loader.hpp"
#include "scenario_files.hpp"

namespace netwarp::scenarios {
namespace {

struct OverBudget {
  std::string name;
  std::string text;
  std::string expected;  // "F" stands for the file's path
};

constexpr const char* kOver =
    " of simulated time, more than the 1e+06 s (11.6 days) a run can simulate";

const std::vector<OverBudget> kCases = {
    {"two_megabytes_at_one_bit_per_second",
     "topology { star { hosts: 2 } }\n"
     "links { rate_bps: 1 }\n"
     "workload { flows { flow { src: 0 dst: 1 bytes: 2000000 } } }\n",
     std::string("F:3:41: workload.flows.flow[0].bytes: 2000000 B through one link of 1 bit/s "
                 "(links.rate_bps, the slowest) take 1.7e+07 s") +
         kOver},
    {"slow_link_level",
     "topology { tree { leaves: 2 hosts_per_leaf: 2 } }\n"
     "links { levels { level: 1 rate_bps: 10 } }\n"
     "workload { incast { bytes: 1000000 } }\n",
     std::string("F:3:21: workload.incast.bytes: 3000000 B through one link of 10 bit/s "
                 "(links.levels[0].rate_bps, the slowest) take 2.55e+06 s") +
         kOver},
    {"latency_at_the_field_maximum",
     "topology { star { hosts: 2 } }\n"
     "links { latency_ns: 1000000000000000 }\n"
     "transport { kind: TCP }\n"
     "workload { flows { flow { src: 0 dst: 1 bytes: 2000 } } }\n",
     std::string("F:2:9: links.latency_ns: 1000000000000000 ns per hop over up to 2 hops, 5 round "
                 "trips per message, take more than 1.84e+07 s") +
         kOver},
    {"eager_cost_per_byte",
     "topology { star { hosts: 2 } }\n"
     "mpi { host { send_eager_ns_per_byte: 1e300 } pingpong { sizes: 1000 } }\n",
     std::string("F:2:14: mpi.host.send_eager_ns_per_byte: 1e+300 ns per byte x 16384 B "
                 "(mpi.protocol.eager_bytes) take more than 1.84e+07 s") +
         kOver},
    {"rendezvous_cost_per_byte",
     "topology { star { hosts: 2 } }\n"
     "mpi { host { recv_rendezvous_ns_per_byte: 1e9 } pingpong { sizes: 4000000 } }\n",
     std::string("F:2:14: mpi.host.recv_rendezvous_ns_per_byte: 1000000000 ns per byte x 4000000 "
                 "B (the largest message) take 4e+06 s") +
         kOver},
    {"pingpong_repetitions",
     "topology { star { hosts: 2 } }\n"
     "mpi { pingpong { sizes: 1000 w_us: 1000000 repetitions: 4000000 } }\n",
     std::string("F:2:44: mpi.pingpong.repetitions: 4000000 rounds of 1 s each take 4e+06 s") +
         kOver},
    {"alltoall_compute_iterations",
     "topology { star { hosts: 2 } }\n"
     "mpi { alltoall { bytes: 8 compute_us: 1000000000 iterations: 4000 } }\n",
     std::string("F:2:50: mpi.alltoall.iterations: 4000 rounds of 1e+03 s each take 4e+06 s") +
         kOver},
    {"credit_of_two_to_the_63",
     "topology { star { hosts: 2 } }\n"
     "switch { buffer_bytes: 9223372036854775808 flow_control: CREDIT }\n"
     "workload { flows { flow { src: 0 dst: 1 bytes: 2000 } } }\n",
     "F:2:10: switch.buffer_bytes: must be <= 281474976710656, got 9223372036854775808"},
    {"tiny_flop_rate",
     "topology { star { hosts: 2 } }\n"
     "mpi { host { flops: 1e-300 } pingpong { sizes: 1000 } }\n",
     "F:2:14: mpi.host.flops: must be in [1, 1e+21] flop/s, got 1e-300"},
    {"subnormal_cost",
     "topology { star { hosts: 2 } }\n"
     "mpi { host { o_ns: 4e-320 } pingpong { sizes: 1000 } }\n",
     "F:2:14: mpi.host.o_ns: must be 0 or at least 2.2250738585072014e-308, got 4e-320"},
};

class TimeBudget : public ::testing::TestWithParam<OverBudget> {};

TEST_P(TimeBudget, RefusesAtLoadNamingTheField) {
  const OverBudget& c = GetParam();
  const std::string path = testing::write_scenario(c.name, c.text);
  std::string expected = c.expected;
  expected.replace(0, 1, path);
  try {
    load_scenario(path, {});
    FAIL() << "no error; expected: " << expected;
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
}

INSTANTIATE_TEST_SUITE_P(Table, TimeBudget, ::testing::ValuesIn(kCases),
                         [](const auto& param_info) { return param_info.param.name; });

TEST(TimeBudget, AcceptsASlowLinkWithinTheBudget) {
  const std::string path =
      testing::write_scenario("slow_but_fine",
                              "topology { star { hosts: 2 } }\n"
                              "links { rate_bps: 1000 }\n"
                              "workload { flows { flow { src: 0 dst: 1 bytes: 2000000 } } }\n");
  EXPECT_NO_THROW(load_scenario(path, {}));
}

TEST(TimeBudget, ReadsTheRateOfEveryLevelNotTheDefaultTheyAllOverride) {
  // links.rate_bps reaches no link here: both levels of the tree set their own rate.
  const std::string path =
      testing::write_scenario("levels_override_the_default",
                              "topology { tree { leaves: 2 hosts_per_leaf: 2 } }\n"
                              "links { rate_bps: 1 levels { level: 0 rate_bps: 1000000000 }\n"
                              "        levels { level: 1 rate_bps: 1000000000 } }\n"
                              "workload { incast { bytes: 1000000 } }\n");
  EXPECT_NO_THROW(load_scenario(path, {}));
  // With one level left to the default, the default is that level's rate and is refused.
  const std::string one =
      testing::write_scenario("one_level_keeps_the_default",
                              "topology { tree { leaves: 2 hosts_per_leaf: 2 } }\n"
                              "links { rate_bps: 1 levels { level: 0 rate_bps: 1000000000 } }\n"
                              "workload { incast { bytes: 1000000 } }\n");
  EXPECT_THROW(load_scenario(one, {}), ScenarioError);
}

TEST(TimeBudget, ReadsAGraphLinksOwnRate) {
  const std::string path = testing::write_scenario(
      "graph_links_set_their_rate",
      "topology { graph {\n"
      "  nodes { name: \"a\" } nodes { name: \"b\" } nodes { name: \"s\" kind: SWITCH }\n"
      "  links { a: \"a\" b: \"s\" rate_bps: 1000000000 }\n"
      "  links { a: \"b\" b: \"s\" rate_bps: 1000000000 } } }\n"
      "links { rate_bps: 1 }\n"
      "workload { flows { flow { src: 0 dst: 1 bytes: 2000000 } } }\n");
  EXPECT_NO_THROW(load_scenario(path, {}));
}

}  // namespace
}  // namespace netwarp::scenarios
