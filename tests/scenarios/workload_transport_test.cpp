// A workload's own transport: its flows run on its TCP settings while the others keep the
// scenario's, exactly as if each ran with its settings as the scenario's; refusals located.
#include <gtest/gtest.h>

#include <string>

#include "netmodels/network_fixtures.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_error.hpp"
#include "scenario_files.hpp"

namespace netwarp::scenarios {
namespace {

using netmodels::NetworkSpec;

using testing::build_text;
const auto error_of = testing::build_error;

// "slow" sends 0 -> 1 and "fast" 2 -> 3 on a star: they share no output port, so each flow's
// completion depends on its own TCP settings only.
std::string two_workloads(const std::string& transport, const std::string& slow_transport) {
  return "topology { star { hosts: 4 } }\n"
         "links { rate_bps: 1000000000 latency_ns: 20000 }\n" +
         transport + "workloads { name: \"slow\" hosts { list { hosts: [0, 1] } } " +
         slow_transport +
         " flows { flow { src: 0 dst: 1 bytes: 300000 } } }\n"
         "workloads { name: \"fast\" hosts { list { hosts: [2, 3] } }\n"
         " flows { flow { src: 0 dst: 1 bytes: 300000 } } }\n";
}

constexpr const char* kWide = "transport { kind: TCP tcp { initial_window_segments: 40 } }\n";
constexpr const char* kNarrow = "transport { kind: TCP tcp { initial_window_segments: 1 } }\n";

// Completion (delivery) time of message `id`.
std::int64_t delivered_ps(const netmodels::testing::NetworkRun& run, netmodels::MessageId id) {
  for (const auto& d : run.results.deliveries)
    if (d.message == id) return d.delivered_ps;
  return -1;
}

TEST(WorkloadTransport, EachClassRunsAsWithItsSettingsAsTheScenarios) {
  // "slow" has a window of 1 segment of its own; "fast" keeps the scenario's 40.
  const NetworkSpec mixed = build_text("own_mixed", two_workloads(kWide, kNarrow));
  ASSERT_EQ(mixed.workload_tcp.size(), 1u);
  EXPECT_EQ(mixed.workload_tcp[0].initial_window_segments, 1u);
  EXPECT_EQ(mixed.workload.messages[0].tcp_config, 1u);
  EXPECT_EQ(mixed.workload.messages[1].tcp_config, 0u);
  const auto run = netmodels::testing::run_network(mixed);  // also optimistic, reverse
  const auto all_narrow = netmodels::testing::run_network(
      build_text("own_narrow", two_workloads(kNarrow, "")), engine::SimTime::max(), true);
  const auto all_wide = netmodels::testing::run_network(
      build_text("own_wide", two_workloads(kWide, "")), engine::SimTime::max(), true);
  ASSERT_EQ(run.totals.messages_delivered, 2u);
  EXPECT_EQ(delivered_ps(run, 0), delivered_ps(all_narrow, 0));
  EXPECT_EQ(delivered_ps(run, 1), delivered_ps(all_wide, 1));
  EXPECT_GT(delivered_ps(all_narrow, 0), delivered_ps(all_wide, 0));  // the setting matters
}

TEST(WorkloadTransport, UnsetFieldsTakeTheDefaultsNotTheScenarios) {
  const NetworkSpec spec =
      build_text("own_defaults", two_workloads("transport { kind: TCP tcp { min_rto_us: 1000 } }\n",
                                               "transport { kind: TCP }"));
  ASSERT_EQ(spec.workload_tcp.size(), 1u);
  EXPECT_EQ(spec.transport.tcp.min_rto, engine::us(1000));
  EXPECT_EQ(spec.workload_tcp[0].min_rto, engine::us(200'000));  // the schema's default
}

TEST(WorkloadTransport, RefusalsNameTheWorkloadsField) {
  EXPECT_NE(error_of("own_kind", two_workloads(kWide, "transport { kind: LOSSLESS }"))
                .find("workloads[0].transport.kind: LOSSLESS differs from transport.kind (TCP)"),
            std::string::npos);
  EXPECT_NE(error_of("own_rto", two_workloads(kWide,
                                              "transport { kind: TCP tcp { min_rto_us: 0 "
                                              "initial_rto_us: 1000 } }"))
                .find("workloads[0].transport.tcp.min_rto_us: "),
            std::string::npos);
  EXPECT_NE(error_of("own_syn", two_workloads(kWide,
                                              "transport { kind: TCP tcp { "
                                              "syn_option_bytes: 8 } }"))
                .find("workloads[0].transport.tcp.syn_option_bytes: must equal "
                      "transport.tcp.syn_option_bytes (0)"),
            std::string::npos);
  EXPECT_NE(error_of("own_dctcp", two_workloads(kWide,
                                                "transport { kind: TCP tcp { "
                                                "congestion_control: DCTCP } }"))
                .find("workloads[0].transport.tcp.congestion_control: DCTCP needs ports"),
            std::string::npos);
}

}  // namespace
}  // namespace netwarp::scenarios
