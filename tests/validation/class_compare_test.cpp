#include <gtest/gtest.h>

#include <cmath>

#include "netwarp/netmodels/ideal_fct.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "netwarp/validation/class_compare.hpp"

namespace netwarp::validation {
namespace {

// Two classes on a star; "small" has flows of 1 kB and 50 kB (two buckets), "big" of 2 MB.
constexpr const char* kTwoClasses =
    "topology { star { hosts: 4 } }\n"
    "links { rate_bps: 10000000000 latency_ns: 1000 }\n"
    "transport { kind: LOSSLESS }\n"
    "outputs { size_buckets_bytes: [10000, 100000] }\n"
    "workloads { name: \"small\" flows {\n"
    "  flow { src: 0 dst: 1 bytes: 1000 }\n"
    "  flow { src: 0 dst: 2 bytes: 1000 }\n"
    "  flow { src: 1 dst: 2 bytes: 50000 } } }\n"
    "workloads { name: \"big\" flows { flow { src: 3 dst: 0 bytes: 2000000 } } }\n";

netmodels::NetworkSpec two_class_spec() {
  return scenarios::build_network_spec(
      scenarios::load_scenario_text(kTwoClasses, "two_classes.pbtxt", {}));
}

std::int64_t ideal_ps(const netmodels::NetworkSpec& spec, const netmodels::Message& m) {
  return netmodels::ideal_completion_time(spec, m.src, m.dst, m.bytes).ps();
}

// Packet FCT = `packet` x ideal, model FCT = `model` x ideal, for every message.
struct Runs {
  std::vector<FlowSample> packet;
  ModelFcts model;
};

Runs scaled_runs(const netmodels::NetworkSpec& spec, double packet, double model) {
  Runs r;
  for (const netmodels::Message& m : spec.workload.messages) {
    FlowSample f;
    f.flow = m.id;
    f.bytes = m.bytes;
    f.start_ps = 1000;
    f.delivered_ps = 1000 + std::llround(packet * static_cast<double>(ideal_ps(spec, m)));
    r.packet.push_back(f);
    r.model.push_back(std::llround(model * static_cast<double>(ideal_ps(spec, m))));
  }
  return r;
}

TEST(ClassCompare, RowsPerClassAndNonEmptyBucketWithSlowdownPercentiles) {
  const netmodels::NetworkSpec spec = two_class_spec();
  ASSERT_EQ(spec.workload.messages.size(), 4u);
  const Runs runs = scaled_runs(spec, 2.0, 1.5);
  const ClassComparison c = compare_classes(spec, runs.packet, runs.model, "flow");
  EXPECT_EQ(c.model, "flow");
  // small: whole, <= 10000, 10001 - 100000; big: whole, > 100000.
  ASSERT_EQ(c.rows.size(), 5u);
  EXPECT_EQ(c.rows[0].class_name, "small");
  EXPECT_TRUE(c.rows[0].whole_class());
  EXPECT_EQ(c.rows[0].flows, 3u);
  EXPECT_EQ(c.rows[1].max_bytes, 10000u);
  EXPECT_EQ(c.rows[1].flows, 2u);
  EXPECT_EQ(c.rows[2].min_bytes, 10000u);
  EXPECT_EQ(c.rows[2].max_bytes, 100000u);
  EXPECT_EQ(c.rows[2].flows, 1u);
  EXPECT_EQ(c.rows[3].class_name, "big");
  EXPECT_TRUE(c.rows[3].whole_class());
  EXPECT_EQ(c.rows[4].min_bytes, 100000u);
  EXPECT_EQ(c.rows[4].max_bytes, UINT64_MAX);
  for (const ClassErrorRow& row : c.rows) {
    EXPECT_NEAR(row.packet_p50, 2.0, 1e-6);
    EXPECT_NEAR(row.packet_p99, 2.0, 1e-6);
    EXPECT_NEAR(row.model_p50, 1.5, 1e-6);
    EXPECT_NEAR(row.model_p99, 1.5, 1e-6);
    EXPECT_FALSE(row.p50_loss || row.p99_loss);
    EXPECT_EQ(row.lossy_flows, 0u);
  }
}

TEST(ClassCompare, PercentilesAreNearestRankAndLossesAreFlaggedWhereTheyFall) {
  const netmodels::NetworkSpec spec = two_class_spec();
  Runs runs = scaled_runs(spec, 1.0, 1.0);
  // small: packet slowdowns 1, 3, 5 (the 50 kB flow lost a packet); the model's 1, 2, 4.
  const auto& msgs = spec.workload.messages;
  runs.packet[1].delivered_ps = 1000 + 3 * ideal_ps(spec, msgs[1]);
  runs.packet[2].delivered_ps = 1000 + 5 * ideal_ps(spec, msgs[2]);
  runs.packet[2].retransmitted_segments = 1;
  runs.model[1] = 2 * ideal_ps(spec, msgs[1]);
  runs.model[2] = 4 * ideal_ps(spec, msgs[2]);
  const ClassComparison c = compare_classes(spec, runs.packet, runs.model, "flow");
  const ClassErrorRow& small = c.rows[0];
  EXPECT_NEAR(small.packet_p50, 3.0, 1e-6);  // rank ceil(1.5) = 2 of 3
  EXPECT_NEAR(small.model_p50, 2.0, 1e-6);
  EXPECT_NEAR(small.packet_p99, 5.0, 1e-6);
  EXPECT_NEAR(small.model_p99, 4.0, 1e-6);
  EXPECT_FALSE(small.p50_loss);
  EXPECT_TRUE(small.p99_loss);  // the flow at p99 retransmitted
  EXPECT_EQ(small.lossy_flows, 1u);
  EXPECT_EQ(c.rows[1].lossy_flows, 0u);  // <= 10 kB
  EXPECT_TRUE(c.rows[2].p50_loss);       // the 50 kB bucket holds only the lossy flow
}

TEST(ClassCompare, FlowsMissingFromEitherRunAreLeftOut) {
  const netmodels::NetworkSpec spec = two_class_spec();
  Runs runs = scaled_runs(spec, 2.0, 2.0);
  runs.packet[3].delivered_ps = -1;  // big never delivered in the packet run
  runs.model[0] = -1;                // the model has no time for one small flow
  const ClassComparison c = compare_classes(spec, runs.packet, runs.model, "flow");
  ASSERT_EQ(c.rows.size(), 3u);  // small (2 flows), its two buckets; no row for big
  EXPECT_EQ(c.rows[0].flows, 2u);
  EXPECT_EQ(c.rows[1].flows, 1u);
}

}  // namespace
}  // namespace netwarp::validation
