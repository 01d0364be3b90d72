#include <gtest/gtest.h>

#include "netwarp/validation/model_names.hpp"
#include "netwarp/validation/ns3_check.hpp"

namespace netwarp::validation {
namespace {

FlowSample flow(std::uint32_t id, std::int64_t start_ps, std::int64_t completed_ps) {
  FlowSample f;
  f.flow = id;
  f.src = "host" + std::to_string(id + 1);
  f.dst = "host0";
  f.bytes = 1000;
  f.start_ps = start_ps;
  f.delivered_ps = completed_ps < 0 ? -1 : completed_ps - 10;
  f.completed_ps = completed_ps;
  return f;
}

TEST(Ns3Check, FctPercentilesTakeTheNearestRankOfFinishedFlows) {
  // FCTs 100, 400, 200, 300 ps and one flow that never finished.
  const std::vector<FlowSample> flows{flow(0, 0, 100), flow(1, 100, 500), flow(2, 50, 250),
                                      flow(3, 0, 300), flow(4, 0, -1)};
  EXPECT_EQ(fct_percentile(flows, 50), 200);
  EXPECT_EQ(fct_percentile(flows, 75), 300);
  EXPECT_EQ(fct_percentile(flows, 90), 400);
  EXPECT_EQ(fct_percentile(flows, 100), 400);
  EXPECT_EQ(fct_percentile({flow(0, 0, -1)}, 50), -1);
}

TEST(Ns3Check, IsUnavailableWithoutTheProgram) {
  SweepPointResult point;
  const ModelResult m =
      run_ns3_check({"/nonexistent/netwarp-ns3", "s.pbtxt", {}, "/tmp/x.json"}, {}, point);
  EXPECT_FALSE(m.available);
  EXPECT_EQ(m.model, "ns3");
  EXPECT_NE(m.note.find("netwarp-ns3 was not built"), std::string::npos);
  EXPECT_FALSE(point.ns3.has_value());
}

TEST(Ns3Check, ReportPutsTotalsPercentilesAndFlowsSideBySide) {
  ValidationReport report;
  report.sweep_field = "workload.incast.senders";
  SweepPointResult point;
  point.value = "2";
  point.simulated_ps = 500;
  point.counters = {3, 1, 4, 2};
  Ns3Comparison c;
  c.completion_time_ps = 600;
  c.counters = {5, 0, 5, 3};
  c.packet_flows = {flow(0, 0, 400'000), flow(1, 0, 510'000)};
  c.ns3_flows = {flow(0, 0, 600'000), flow(1, 0, 300'000)};
  point.ns3 = c;
  report.points.push_back(point);
  const std::string md = ns3_comparison_markdown(report);
  EXPECT_NE(md.find("### workload.incast.senders = 2"), std::string::npos) << md;
  EXPECT_NE(md.find("| packets dropped | 3 | 5 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| FCT max (us) | 0.510 | 0.600 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 0 | host1 | host0 | 1000 | 0.400 | 0.600 | +50.00 |"), std::string::npos)
      << md;
  const auto j = ns3_comparison_json(c, point);
  EXPECT_EQ(j["completion_time_ps"], nlohmann::ordered_json({500, 600}));
  EXPECT_EQ(j["fct_ps"]["p50"], nlohmann::ordered_json({400'000, 300'000}));
  EXPECT_EQ(j["flows"][1]["ns3"]["fct_ps"], 300'000);
}

TEST(Ns3Check, IsAModelName) {
  EXPECT_EQ(parse_model_name("ns3"), ModelKind::ns3);
  EXPECT_EQ(model_name(ModelKind::ns3), "ns3");
}

}  // namespace
}  // namespace netwarp::validation
