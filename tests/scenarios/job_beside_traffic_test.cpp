// An MPI job beside packet workloads on one fabric: hosts that run both share one NIC
// (mpiemul::SharedHostLp), the job is slowed by traffic on the links it uses and not at all by
// traffic on links it does not use, and every kernel gives the same records.
#include <gtest/gtest.h>

#include "mpi-emul/mpi_fixtures.hpp"
#include "netwarp/netmodels/stream_transport.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "scenario_files.hpp"

namespace netwarp::scenarios {
namespace {

// 8 hosts on one switch; an allreduce job on hosts 0-3, 1 rank each.
constexpr const char* kJob =
    "topology { star { hosts: 8 } }\n"
    "links { rate_bps: 10000000000 latency_ns: 1000 }\n"
    "switch { buffer_bytes: 262144 }\n"
    "transport { kind: TCP tcp { min_rto_us: 1000 initial_rto_us: 1000 } }\n"
    "mpi { name: \"job\" hosts { range { first: 0 count: 4 } }\n"
    "      collective { kind: \"allreduce\" bytes: 65536 iterations: 2 } }\n";

MpiRunSpec build_text(const std::string& name, const std::string& text) {
  return build_mpi_run(load_scenario(testing::write_scenario(name, text), {}), "", 1.0);
}

mpiemul::testing::MpiRun run(const MpiRunSpec& spec) {
  return mpiemul::testing::run_mpi(spec.network, *spec.program, spec.config);
}

TEST(JobBesideTraffic, RanksGoOnTheJobsHosts) {
  const MpiRunSpec spec = build_text("job_hosts", kJob);
  EXPECT_EQ(spec.config.rank_hosts, (std::vector<netmodels::NodeId>{0, 1, 2, 3}));
  EXPECT_EQ(spec.class_name, "job");  // mpi.name
  EXPECT_TRUE(spec.network.workload.messages.empty());
}

TEST(JobBesideTraffic, SlowerWithBackgroundOnItsLinks) {
  const mpiemul::testing::MpiRun alone = run(build_text("job_alone", kJob));
  // Hadoop flow sizes at 50 % load between all 8 hosts, the job's among them.
  const std::string busy =
      std::string(kJob) +
      "workloads { name: \"background\" datacenter { distribution: \"hadoop\" load: 0.5 "
      "duration_ns: 500000 } }\n";
  const MpiRunSpec spec = build_text("job_busy", busy);
  ASSERT_FALSE(spec.network.workload.messages.empty());
  const mpiemul::testing::MpiRun shared = run(spec);
  ASSERT_TRUE(alone.totals.finished);
  ASSERT_TRUE(shared.totals.finished);
  EXPECT_GT(shared.totals.run_time_ps, alone.totals.run_time_ps * 11 / 10)
      << "alone " << alone.totals.run_time_ps << " ps";
  // The workload's flows ran too, and each kind of record names its own flows.
  std::uint64_t connections = 0;
  for (const netmodels::FlowRecord& f : shared.results.network.flows)
    if ((f.flow & netmodels::kConnectionFlowBit) != 0) {
      ++connections;
    } else {
      EXPECT_LT(f.flow, spec.network.workload.messages.size());
    }
  EXPECT_GT(connections, 0u);
  EXPECT_EQ(shared.results.network.totals(spec.network.workload).messages_delivered,
            spec.network.workload.messages.size());
}

TEST(JobBesideTraffic, ExactlyAsFastWithBackgroundElsewhere) {
  const mpiemul::testing::MpiRun alone = run(build_text("job_alone2", kJob));
  // Hosts 4-7 only: their links are not the job's, and the switch's ports keep private buffers.
  const std::string elsewhere =
      std::string(kJob) +
      "workloads { name: \"background\" hosts { range { first: 4 count: 4 } }\n"
      "            datacenter { distribution: \"hadoop\" load: 0.5 duration_ns: 500000 } }\n";
  const MpiRunSpec spec = build_text("job_elsewhere", elsewhere);
  ASSERT_FALSE(spec.network.workload.messages.empty());
  const mpiemul::testing::MpiRun shared = run(spec);
  EXPECT_EQ(shared.totals.run_time_ps, alone.totals.run_time_ps);
  EXPECT_EQ(shared.results.calls.size(), alone.results.calls.size());
}

TEST(JobBesideTraffic, LosslessSendersShareTheNic) {
  // Lossless: both parts cut packets as the one NIC has room; every byte of both arrives.
  std::string text = kJob;
  text.replace(text.find("transport {"), text.find("mpi {") - text.find("transport {"),
               "transport { kind: LOSSLESS }\n");
  text.replace(text.find("switch {"), text.find("transport {") - text.find("switch {"),
               "switch { buffer_bytes: 262144 flow_control: CREDIT }\n");
  text +=
      "workloads { name: \"bulk\" hosts { list { hosts: [0, 1] } } all_to_all { bytes: 1000000 } "
      "}\n";
  const MpiRunSpec spec = build_text("job_lossless", text);
  const mpiemul::testing::MpiRun shared = run(spec);
  EXPECT_TRUE(shared.totals.finished);
  EXPECT_EQ(shared.results.network.totals(spec.network.workload).messages_delivered, 2u);
}

void expect_refused(const std::string& name, const std::string& text, const std::string& field) {
  try {
    build_text(name, text);
    ADD_FAILURE() << name << " was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
  }
}

TEST(JobBesideTraffic, ClassNamesAndHostsAreChecked) {
  const std::string job = kJob;
  expect_refused("job_same_name", job + "workloads { name: \"job\" incast { bytes: 1000 } }\n",
                 "workloads[0].name: 'job' names another workload (or the MPI job) too");
  std::string bad_name = job;
  bad_name.replace(bad_name.find("\"job\""), 5, "\"a b\"");
  expect_refused("job_bad_name", bad_name, "mpi.name: letters, digits");
  expect_refused("job_both_placements", job + "placement { explicit { hosts: [0, 1, 2, 3] } }\n",
                 "mpi.hosts: give the job's hosts here or in placement.explicit, not both");
  std::string outside = job;
  outside.replace(outside.find("first: 0 count: 4"), 17, "first: 6 count: 4");
  expect_refused("job_hosts_outside", outside, "mpi.hosts");
}

}  // namespace
}  // namespace netwarp::scenarios
