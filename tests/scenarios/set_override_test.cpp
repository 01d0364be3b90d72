// --set overrides: every scalar kind, unit suffixes, enums in any case, lists, list elements,
// nested messages created on the way, and a oneof switched to another member (with a note).
#include <gtest/gtest.h>

#include "netwarp/scenarios/scenario_loader.hpp"
#include "set_override.hpp"

namespace netwarp::scenarios {
namespace {

TEST(SetOverride, SetsScalarsOfEveryKind) {
  proto::Scenario s;
  EXPECT_EQ(apply_override(s, "switch.buffer_bytes=65536"), "switch.buffer_bytes");
  apply_override(s, "links.rate_bps=-3");
  apply_override(s, "engine.window_us=2.5");
  apply_override(s, "outputs.cwnd_trace=TRUE");
  apply_override(s, "name=hello world");
  EXPECT_EQ(s.switch_().buffer_bytes(), 65536u);
  EXPECT_EQ(s.links().rate_bps(), -3);
  EXPECT_DOUBLE_EQ(s.engine().window_us(), 2.5);
  EXPECT_TRUE(s.outputs().cwnd_trace());
  EXPECT_EQ(s.name(), "hello world");
}

TEST(SetOverride, AcceptsUnitSuffixes) {
  proto::Scenario s;
  apply_override(s, "switch.buffer_bytes=64KiB");
  EXPECT_EQ(s.switch_().buffer_bytes(), 65536u);
  apply_override(s, "links.rate_bps=10G");
  EXPECT_EQ(s.links().rate_bps(), 10'000'000'000);
  apply_override(s, "workload.incast.bytes=1MiB");
  EXPECT_EQ(s.workload().incast().bytes(), 1u << 20);
}

TEST(SetOverride, MatchesEnumNamesInAnyCase) {
  proto::Scenario s;
  apply_override(s, "transport.kind=tcp");
  apply_override(s, "switch.flow_control=Credit");
  EXPECT_EQ(s.transport().kind(), proto::Transport::TCP);
  EXPECT_EQ(s.switch_().flow_control(), proto::Switch::CREDIT);
}

TEST(SetOverride, ReplacesARepeatedScalarWithAList) {
  proto::Scenario s;
  s.mutable_topology()->mutable_torus()->add_dims(16);
  apply_override(s, "topology.torus.dims=4,4,2");
  ASSERT_EQ(s.topology().torus().dims_size(), 3);
  EXPECT_EQ(s.topology().torus().dims(2), 2u);
}

TEST(SetOverride, SetsAFieldOfAListElement) {
  proto::Scenario s;
  s.mutable_workload()->mutable_flows()->add_flow()->set_bytes(1);
  s.mutable_workload()->mutable_flows()->add_flow()->set_bytes(2);
  apply_override(s, "workload.flows.flow[1].bytes=77");
  EXPECT_EQ(s.workload().flows().flow(1).bytes(), 77u);
  EXPECT_THROW(apply_override(s, "workload.flows.flow[2].bytes=1"), netmodels::InputError);
  EXPECT_THROW(apply_override(s, "workload.flows.flow.bytes=1"), netmodels::InputError);
}

TEST(SetOverride, SwitchesAOneofToAnotherMember) {
  proto::Scenario s;
  s.mutable_topology()->mutable_star()->set_hosts(65);
  std::vector<std::string> notes;
  apply_override(s, "topology.fat_tree.p=3", notes);
  EXPECT_FALSE(s.topology().has_star());
  EXPECT_EQ(s.topology().fat_tree().p(), 3u);
  EXPECT_EQ(notes, std::vector<std::string>{
                       "--set topology.fat_tree.p=3: topology.fat_tree replaces topology.star (one "
                       "of topology.kind; the settings of star are dropped)"});
  apply_override(s, "topology.fat_tree.k=4", notes);  // the member already chosen: no note
  apply_override(s, "name=x", notes);
  EXPECT_EQ(notes.size(), 1u);
}

TEST(SetOverride, TakesAMessageInTextFormat) {
  proto::Scenario s;
  apply_override(s, "placement.explicit=hosts: [3, 1]");
  ASSERT_EQ(s.placement().explicit_().hosts_size(), 2);
  apply_override(s, "placement.regular=");
  EXPECT_TRUE(s.placement().has_regular());
}

TEST(SetOverride, RejectsOutOfRangeIntegers) {
  proto::Scenario s;
  try {
    apply_override(s, "links.mtu_bytes=5000000000");
    FAIL();
  } catch (const netmodels::InputError& e) {
    EXPECT_STREQ(e.what(), "--set links.mtu_bytes=5000000000: integer out of range: '5000000000'");
  }
}

TEST(SetOverride, RejectsGoingIntoAScalar) {
  proto::Scenario s;
  try {
    apply_override(s, "seed.x=1");
    FAIL();
  } catch (const netmodels::InputError& e) {
    EXPECT_STREQ(e.what(), "--set seed.x=1: 'seed' is not a message, it has no fields");
  }
}

TEST(SetOverride, AppliesThroughTheLoaderAndSwitchesTheWorkload) {
  const LoadedScenario loaded =
      built_in_default_scenario({"workload.permutation.bytes=4096", "switch.buffer_bytes=0"});
  EXPECT_TRUE(loaded.scenario.workload().has_permutation());
  EXPECT_EQ(loaded.scenario.workload().permutation().seed(), 1u);  // default filled
  EXPECT_EQ(loaded.scenario.switch_().buffer_bytes(), 0u);
  ASSERT_FALSE(loaded.warnings.empty());
  EXPECT_EQ(loaded.warnings.front(),
            "--set workload.permutation.bytes=4096: workload.permutation replaces "
            "workload.incast (one of workload.kind; the settings of incast are dropped)");
}

}  // namespace
}  // namespace netwarp::scenarios
