// Several workloads in one scenario: each a traffic class on its own hosts, built into one
// message list; the datacenter workload's offered load and size distribution; the ideal
// completion time that FCT slowdown divides by, against lossless runs of one flow alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

#include "netmodels/network_fixtures.hpp"
#include "netwarp/netmodels/ideal_fct.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "scenario_files.hpp"

namespace netwarp::scenarios {
namespace {

using netmodels::NetworkSpec;

using testing::build_text;

constexpr const char* kTwoClasses =
    "topology { star { hosts: 8 } }\n"
    "workloads { name: \"incast\" hosts { range { first: 0 count: 4 } }\n"
    "            incast { bytes: 30000 } }\n"
    "workloads { name: \"background\" hosts { list { hosts: [4, 5, 6, 7] } } start_ns: 5000\n"
    "            priority: 3\n"
    "            permutation { bytes: 20000 } }\n";

TEST(Workloads, EachIsAClassOnItsOwnHosts) {
  const NetworkSpec spec = build_text("two_classes", kTwoClasses);
  const netmodels::Workload& w = spec.workload;
  ASSERT_EQ(w.classes.size(), 2u);
  EXPECT_EQ(w.classes[0].name, "incast");
  EXPECT_EQ(w.classes[1].name, "background");
  ASSERT_EQ(w.messages.size(), 3u + 4u);
  for (const netmodels::Message& m : w.messages) {
    EXPECT_EQ(m.id, &m - w.messages.data());
    if (m.class_id == 0) {
      EXPECT_LT(m.src, 4u);
      EXPECT_EQ(m.dst, 0u);  // the incast's receiver, rank 0, is host 0
      EXPECT_EQ(m.start.ps(), 0);
    } else {
      EXPECT_GE(m.src, 4u);
      EXPECT_GE(m.dst, 4u);
      EXPECT_EQ(m.start.ps(), 5'000'000);  // the workload's start_ns
      EXPECT_EQ(m.priority, 3u);           // its packets' class on ports
    }
  }
}

TEST(Workloads, RunTogetherAlikeInEveryKernel) {
  const NetworkSpec spec = build_text("two_classes_run", kTwoClasses);
  const netmodels::testing::NetworkRun run =
      netmodels::testing::run_network(spec);  // also optimistic, reverse
  EXPECT_EQ(run.totals.messages_delivered, 7u);
}

TEST(Workloads, SetReachesOneByName) {
  const NetworkSpec spec =
      build_text("two_classes_set", kTwoClasses, {"workloads[background].permutation.bytes=1KiB"});
  for (const netmodels::Message& m : spec.workload.messages)
    EXPECT_EQ(m.bytes, m.class_id == 1 ? 1024u : 30000u);
  try {
    build_text("two_classes_set_bad", kTwoClasses, {"workloads[bulk].permutation.bytes=1"});
    ADD_FAILURE() << "an unknown name was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("no entry of 'workloads' is named 'bulk' (named: "
                                         "incast, background)"),
              std::string::npos)
        << e.what();
  }
}

TEST(Workloads, NamesAreRequiredAndUnique) {
  const std::string topology = "topology { star { hosts: 4 } }\n";
  const std::string incast = " incast { bytes: 100 } }\n";
  EXPECT_THROW(build_text("unnamed", topology + "workloads {" + incast), ScenarioError);
  EXPECT_THROW(build_text("twice", topology + "workloads { name: \"a\"" + incast +
                                       "workloads { name: \"a\"" + incast),
               ScenarioError);
  EXPECT_THROW(build_text("mpi_name", topology + "workloads { name: \"mpi\"" + incast),
               ScenarioError);
}

// The lossless transport sends at line rate: alone, a flow takes exactly its ideal time.
void expect_ideal(const std::string& name, const std::string& topology, std::uint32_t dst) {
  for (std::uint64_t bytes : {1ull, 1460ull, 1461ull, 100'000ull, 1'048'576ull}) {
    SCOPED_TRACE(name + ", " + std::to_string(bytes) + " B");
    const NetworkSpec spec =
        build_text(name, topology + "workload { flows { flow { src: 0 dst: " + std::to_string(dst) +
                             " bytes: " + std::to_string(bytes) + " } } }\n");
    const netmodels::testing::NetworkRun run =
        netmodels::testing::run_network(spec, engine::SimTime::max(), true);
    ASSERT_EQ(run.results.deliveries.size(), 1u);
    const auto delivered = static_cast<double>(run.results.deliveries[0].delivered_ps);
    const auto ideal =
        static_cast<double>(netmodels::ideal_completion_time(spec, spec.workload.messages[0].src,
                                                             spec.workload.messages[0].dst, bytes)
                                .ps());
    EXPECT_NEAR(delivered / ideal, 1.0, 0.01);
  }
}

TEST(IdealCompletion, IsALosslessFlowAloneOnEveryFamily) {
  expect_ideal("star", "topology { star { hosts: 2 } }\n", 1);
  expect_ideal("tree",
               "topology { tree { leaves: 2 hosts_per_leaf: 2 } }\n"
               "links { levels { level: 1 rate_bps: 400000000 latency_ns: 3000 } }\n",
               3);
  expect_ideal("fat_tree", "topology { fat_tree { k: 4 } }\n", 15);
  expect_ideal("torus", "topology { torus { dims: [3, 3] } }\n", 8);
  expect_ideal("dragonfly",
               "topology { dragonfly { routers_per_group: 2 hosts_per_router: 1 "
               "global_per_router: 1 } }\n",
               5);
  expect_ideal("graph",
               "topology { graph {\n"
               "  nodes { name: \"a\" } nodes { name: \"b\" }\n"
               "  nodes { name: \"s1\" kind: SWITCH } nodes { name: \"s2\" kind: SWITCH }\n"
               "  links { a: \"a\" b: \"s1\" } links { a: \"s1\" b: \"s2\" rate_bps: 100000000 }\n"
               "  links { a: \"s2\" b: \"b\" } } }\n",
               1);
  expect_ideal("nic", "topology { star { hosts: 2 } }\nnic { rate_bps: 250000000 }\n", 1);
  // Sprayed packets take paths of their own between the first and last link: the last, shorter
  // packet overtakes the full one ahead of it (1461 B: by 1 B's packet, 0.6 us of 53 us).
  expect_ideal("leaf_spine, round robin",
               "topology { leaf_spine { leaves: 2 spines: 2 hosts_per_leaf: 2 }\n"
               "  multipath { mode: SPRAY_ROUND_ROBIN } }\n",
               3);
  expect_ideal("fat_tree, sprayed",
               "topology { fat_tree { k: 4 } multipath { mode: SPRAY_RANDOM } }\n", 15);
}

// Where packets of one flow take different routes the ideal is the least any routing of them
// allows: a flow alone never beats it. Valiant's routes through another group may have fewer
// links than the minimal route on a small dragonfly (two global links against local, global,
// local); sprayed packets overtake one another, also over uplinks slower than the hosts' links.
TEST(IdealCompletion, IsALowerBoundWherePacketsTakeDifferentRoutes) {
  const std::string dragonfly =
      "topology { dragonfly { routers_per_group: 2 hosts_per_router: 1 global_per_router: 2 "
      "routing: ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"valiant", dragonfly + "VALIANT } }\n"},
      {"ugal", dragonfly + "UGAL } }\n"},
      {"sprayed over slow uplinks",
       "topology { tree { leaves: 2 hosts_per_leaf: 2 uplinks: 2 }\n"
       "  multipath { mode: SPRAY_ROUND_ROBIN } }\n"
       "links { levels { level: 1 rate_bps: 400000000 } }\n"}};
  for (const auto& [name, topology] : cases)
    for (std::uint32_t dst = 1; dst < (name == cases[2].first ? 4u : 10u); ++dst)  // every host
      for (std::uint64_t bytes : {1ull, 1461ull, 4000ull, 100'000ull}) {
        SCOPED_TRACE(name + ", to " + std::to_string(dst) + ", " + std::to_string(bytes) + " B");
        const NetworkSpec spec = build_text(
            name, topology + "workload { flows { flow { src: 0 dst: " + std::to_string(dst) +
                      " bytes: " + std::to_string(bytes) + " } } }\n");
        const netmodels::testing::NetworkRun run =
            netmodels::testing::run_network(spec, engine::SimTime::max(), true);
        ASSERT_EQ(run.results.deliveries.size(), 1u);
        EXPECT_LE(netmodels::ideal_completion_time(spec, spec.workload.messages[0]).ps(),
                  run.results.deliveries[0].delivered_ps);
      }
}

TEST(IdealCompletion, KeptPerMessageAsComputed) {
  const NetworkSpec spec = build_text(
      "kept",
      "topology { fat_tree { k: 4 } }\n"
      "workload { flows { flow { src: 0 dst: 15 bytes: 100000 } flow { src: 3 dst: 2 bytes: 1 }\n"
      "  flow { src: 7 dst: 8 bytes: 1461 } } }\n");
  netmodels::IdealCompletionTimes kept(spec);
  for (int pass = 0; pass < 2; ++pass) {  // the second pass reads what the first kept
    for (netmodels::MessageId id = 0; id < spec.workload.messages.size(); ++id) {
      SCOPED_TRACE("message " + std::to_string(id));
      const netmodels::Message& m = spec.workload.messages[id];
      EXPECT_EQ(kept.of(id), netmodels::ideal_completion_time(spec, m));
      EXPECT_GT(kept.of(id).ps(), netmodels::path_latency(spec, m.src, m.dst).ps());
    }
  }
  EXPECT_THROW(kept.of(static_cast<netmodels::MessageId>(spec.workload.messages.size())),
               std::out_of_range);
}

// Over links all alike the router's count of a route's links (torus, mesh, fat tree) stands for
// its walk: the times the walk gives, with a NIC rate of its own and TCP's segments too; links
// of different levels are walked.
TEST(IdealCompletion, CountedRoutesGiveTheWalkedTimes) {
  for (const std::string topology :
       {"topology { torus { dims: [3, 4, 2] hosts_per_router: 2 } }\n",
        "topology { torus { dims: [4, 3] mesh: true } }\n",
        "topology { fat_tree { k: 4 } }\nnic { rate_bps: 250000000 }\n",
        "topology { fat_tree { k: 4 } }\ntransport { kind: TCP }\n",
        "topology { fat_tree { k: 4 } }\n"
        "links { levels { level: 1 rate_bps: 400000000 latency_ns: 3000 } }\n"}) {
    SCOPED_TRACE(topology);
    const NetworkSpec spec =
        build_text("counted", topology + "workload { all_to_all { bytes: 5000 } }\n");
    netmodels::IdealCompletionTimes kept(spec);
    for (netmodels::MessageId id = 0; id < spec.workload.messages.size(); ++id)
      ASSERT_EQ(kept.of(id), netmodels::ideal_completion_time(spec, spec.workload.messages[id]))
          << "message " << id;
  }
}

// Computed all at once on several threads (the outputs' writers share them), each message's is
// what it alone gives; ranges split between threads lose or repeat none.
TEST(IdealCompletion, ComputedAllOnThreadsAsEachAlone) {
  const NetworkSpec spec = build_text(
      "all", "topology { fat_tree { k: 8 } }\nworkload { all_to_all { bytes: 3000 } }\n");
  const std::size_t n = spec.workload.messages.size();
  ASSERT_GT(n, 3 * netmodels::IdealCompletionTimes::kMessagesPerThread);  // 3 threads take part
  for (const std::size_t threads : {std::size_t{1}, std::size_t{3}, std::size_t{64}}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    netmodels::IdealCompletionTimes all(spec);
    all.compute_all(threads);
    std::size_t kept = 0;
    for (netmodels::MessageId id = 0; id < n; ++id) kept += all.kept(id) ? 1 : 0;
    EXPECT_EQ(kept, n);
    for (netmodels::MessageId id = 0; id < n; id += 97)
      EXPECT_EQ(all.of(id), netmodels::ideal_completion_time(spec, spec.workload.messages[id]));
    EXPECT_EQ(all.of(static_cast<netmodels::MessageId>(n - 1)),
              netmodels::ideal_completion_time(spec, spec.workload.messages[n - 1]));
  }
}

// --- flows that wait for flows ---------------------------------------------------------------

constexpr const char* kChain =
    "topology { star { hosts: 4 } }\n"
    "workload { flows {\n"
    "  flow { src: 0 dst: 1 bytes: 5000 name: \"a\" }\n"
    "  flow { src: 1 dst: 2 bytes: 5000 name: \"b\" after: \"a\" }\n"
    "  flow { src: 2 dst: 3 bytes: 5000 after: \"b\" gap_ns: 2000 }\n"
    "} }\n";

TEST(FlowsAfter, AChainStartsEachWhenTheLastIsDelivered) {
  const NetworkSpec spec = build_text("chain", kChain);
  const netmodels::testing::NetworkRun run =
      netmodels::testing::run_network(spec);  // also optimistic, reverse
  ASSERT_EQ(run.results.deliveries.size(), 3u);
  std::map<netmodels::MessageId, std::int64_t> delivered, started;
  for (const auto& d : run.results.deliveries) delivered[d.message] = d.delivered_ps;
  for (const auto& f : run.results.flows) started[f.flow] = f.start_ps;
  EXPECT_EQ(started[0], 0);
  EXPECT_EQ(started[1], delivered[0]);              // host1 has a's last byte: b starts
  EXPECT_EQ(started[2], delivered[1] + 2'000'000);  // and the gap after b
}

TEST(FlowsAfter, AGroupIsWaitedForWhole) {
  const NetworkSpec spec = build_text("group",
                                      "topology { star { hosts: 4 } }\nworkload { flows {\n"
                                      "  flow { src: 0 dst: 3 bytes: 3000 group: \"g\" }\n"
                                      "  flow { src: 1 dst: 3 bytes: 90000 group: \"g\" }\n"
                                      "  flow { src: 2 dst: 0 bytes: 1000 after: \"g\" }\n} }\n");
  const netmodels::testing::NetworkRun run = netmodels::testing::run_network(spec);
  std::map<netmodels::MessageId, std::int64_t> delivered, started;
  for (const auto& d : run.results.deliveries) delivered[d.message] = d.delivered_ps;
  for (const auto& f : run.results.flows) started[f.flow] = f.start_ps;
  // host2 learns of the later delivery (at host3) one propagation delay (2 links) later.
  const std::int64_t latency = netmodels::path_latency(spec, 3, 2).ps();
  EXPECT_EQ(started[2], std::max(delivered[0], delivered[1]) + latency);
}

TEST(FlowsAfter, RefusesCyclesAndUnknownNames) {
  const std::string base = "topology { star { hosts: 4 } }\nworkload { flows {\n";
  try {
    build_text("cycle", base +
                            "  flow { src: 0 dst: 1 bytes: 10 name: \"a\" after: \"b\" }\n"
                            "  flow { src: 1 dst: 2 bytes: 10 name: \"b\" after: \"a\" }\n} }\n");
    ADD_FAILURE() << "a cycle was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("workload.flows.flow[0].after: 'b' waits, through other "
                                         "flows, for this flow (a cycle)"),
              std::string::npos)
        << e.what();
  }
  try {
    build_text("unknown", base + "  flow { src: 0 dst: 1 bytes: 10 after: \"zz\" }\n} }\n");
    ADD_FAILURE() << "an unknown name was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find(":3:"), std::string::npos) << e.what();  // its line
    EXPECT_NE(std::string(e.what()).find("no flow or group is named 'zz'"), std::string::npos);
  }
}

TEST(FlowsAfter, CsvColumnsAndLines) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "chain.csv") << "src,dst,bytes,start_ns,name,after,class\n"
                                      "0,1,5000,0,a,,first\n"
                                      "1,2,5000,0,b,a,\n"
                                      "2,3,5000,0,,c,\n";
  try {
    build_text("csv_unknown",
               "topology { star { hosts: 4 } }\n"
               "workload { flows { csv_file: \"chain.csv\" } }\n");
    ADD_FAILURE() << "an unknown name was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("chain.csv:4: after: no flow or group is named 'c'"),
              std::string::npos)
        << e.what();
  }
  std::ofstream(dir + "chain.csv") << "src,dst,bytes,start_ns,name,after,class\n"
                                      "0,1,5000,0,a,,first\n"
                                      "1,2,5000,0,b,a,\n";
  const NetworkSpec spec = build_text("csv_chain",
                                      "topology { star { hosts: 4 } }\n"
                                      "workload { flows { csv_file: \"chain.csv\" } }\n");
  ASSERT_EQ(spec.workload.classes.size(), 2u);
  EXPECT_EQ(spec.workload.classes[1].name, "first");
  EXPECT_EQ(spec.workload.messages[0].class_id, 1u);
  EXPECT_EQ(spec.workload.messages[1].class_id, 0u);
  EXPECT_EQ(spec.workload.messages[1].waits, 1u);
}

// Flows that wait for others run one after another at worst: their gaps add up against the time
// budget (each gap alone is within it), at the largest gap's field or CSV line.
const auto error_of = testing::build_error;

TEST(FlowsAfter, GapsOneAfterAnotherPastTheBudget) {
  const std::string inline_error = error_of(
      "gaps_inline",
      "topology { star { hosts: 2 } }\n"
      "workloads { name: \"chain\" flows {\n"
      "  flow { name: \"a\" src: 0 dst: 1 bytes: 10 }\n"
      "  flow { name: \"b\" src: 0 dst: 1 bytes: 10 after: \"a\" gap_ns: 600000000000000 }\n"
      "  flow { src: 0 dst: 1 bytes: 10 after: \"b\" gap_ns: 700000000000000 } } }\n");
  EXPECT_NE(inline_error.find(":5:45: workloads[0].flows.flow[2].gap_ns: the flows waiting for "
                              "others (after) may start 1300000000000000 ns in"),
            std::string::npos)
      << inline_error;
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "gaps.csv") << "src,dst,bytes,start_ns,name,after,gap_ns\n"
                                     "0,1,10,0,a,,\n"
                                     "0,1,10,0,b,a,700000000000000\n"
                                     "0,1,10,0,c,b,600000000000000\n";
  const std::string csv_error = error_of("gaps_csv",
                                         "topology { star { hosts: 2 } }\n"
                                         "workload { flows { csv_file: \"gaps.csv\" } }\n");
  EXPECT_NE(csv_error.find(":2:20: workload.flows.csv_file: " + dir +
                           "gaps.csv:3: gap_ns: the flows waiting for others"),
            std::string::npos)
      << csv_error;
  // Within the budget, a chain builds.
  std::ofstream(dir + "gaps.csv") << "src,dst,bytes,start_ns,name,after,gap_ns\n"
                                     "0,1,10,0,a,,\n0,1,10,0,b,a,700000000000000\n";
  EXPECT_EQ(error_of("gaps_csv_ok",
                     "topology { star { hosts: 2 } }\n"
                     "workload { flows { csv_file: \"gaps.csv\" } }\n"),
            "");
}

// A file the scenario names (flows CSV, size distribution) is reported at its own line after
// the scenario's place and field, whichever workload named it.
TEST(ReferencedFiles, ErrorsNameTheScenarioFieldThenTheFile) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "bad.cdf") << "1000 0.5\n500 1.0\n";
  const std::string cdf_error =
      error_of("bad_cdf",
               "topology { star { hosts: 4 } }\n"
               "workloads { name: \"dc\"\n"
               "  datacenter { distribution: \"bad.cdf\" load: 0.5 duration_ns: 1000 } }\n");
  EXPECT_NE(cdf_error.find(":3:16: workloads[0].datacenter.distribution: " + dir +
                           "bad.cdf:2: sizes must not decrease"),
            std::string::npos)
      << cdf_error;
  const std::string csv_error =
      error_of("absent_csv",
               "topology { star { hosts: 4 } }\n"
               "workloads { name: \"one\" incast { bytes: 10 } }\n"
               "workloads { name: \"two\" flows { csv_file: \"absent.csv\" } }\n");
  EXPECT_NE(csv_error.find(":3:33: workloads[1].flows.csv_file: " + dir +
                           "absent.csv: cannot open the flows file"),
            std::string::npos)
      << csv_error;
}

// --- datacenter flows -----------------------------------------------------------------------

std::string datacenter(double load, const std::string& distribution, std::uint64_t duration_ns) {
  return "topology { star { hosts: 16 } }\nlinks { rate_bps: 10000000000 }\n"
         "workloads { name: \"dc\" datacenter { distribution: \"" +
         distribution + "\" load: " + std::to_string(load) +
         " duration_ns: " + std::to_string(duration_ns) + " } }\n";
}

// Offered load: the bytes of the flows started in the window over what the host links could
// carry in it. About 40,000 web-search flows (mean 1.71 MB): the sum's relative standard
// deviation is about 1 % (size CV ~1.9), so 3 % is three sigma.
TEST(Datacenter, OffersTheTargetLoad) {
  for (double load : {0.3, 0.5, 0.7}) {
    const std::uint64_t duration_ns = static_cast<std::uint64_t>(4e9 / load);
    const NetworkSpec spec = build_text("dc_load", datacenter(load, "web_search", duration_ns));
    double bytes = 0;
    for (const netmodels::Message& m : spec.workload.messages) {
      bytes += static_cast<double>(m.bytes);
      ASSERT_LT(m.start.ps(), static_cast<std::int64_t>(duration_ns) * 1000);
      ASSERT_NE(m.src, m.dst);
    }
    const double capacity = 16 * 10e9 / 8 * static_cast<double>(duration_ns) * 1e-9;
    SCOPED_TRACE(std::to_string(spec.workload.messages.size()) + " flows at load " +
                 std::to_string(load));
    EXPECT_GT(spec.workload.messages.size(), 35'000u);
    EXPECT_NEAR(bytes / capacity, load, 0.03 * load);
  }
}

// Kolmogorov-Smirnov: at n = 20,000 draws the critical distance at the 0.1 % level is
// 1.95 / sqrt(n) = 0.0138.
TEST(Datacenter, DrawsSizesFromItsDistribution) {
  for (const char* name : {"web_search", "data_mining", "hadoop"}) {
    SCOPED_TRACE(name);
    const NetworkSpec spec = build_text("dc_ks",
                                        "topology { star { hosts: 4 } }\nworkloads { name: \"dc\" "
                                        "datacenter { distribution: \"" +
                                            std::string(name) + "\" load: 0.5 flows: 20000 } }\n");
    std::vector<double> sizes;
    for (const netmodels::Message& m : spec.workload.messages)
      sizes.push_back(static_cast<double>(m.bytes));
    ASSERT_EQ(sizes.size(), 20000u);
    std::sort(sizes.begin(), sizes.end());
    const netmodels::EmpiricalCdf cdf =
        netmodels::EmpiricalCdf::read(scenario_library_dir() + "/distributions/" + name + ".cdf");
    double distance = 0;
    const double n = static_cast<double>(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      // Sizes are whole bytes: compare at the top of each one's rounding interval.
      const double f = cdf.cumulative_at(sizes[i] + 0.5);
      distance = std::max({distance, std::abs(f - static_cast<double>(i + 1) / n),
                           std::abs(f - static_cast<double>(i) / n)});
    }
    EXPECT_LT(distance, 1.95 / std::sqrt(n));
  }
}

TEST(Datacenter, DistributionFileErrorsNameTheLine) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "bad.cdf") << "# sizes\n100 0\n50 0.5\n200 1\n";
  try {
    build_text("dc_bad",
               "topology { star { hosts: 4 } }\nworkloads { name: \"dc\" "
               "datacenter { distribution: \"bad.cdf\" load: 0.5 flows: 10 } }\n");
    ADD_FAILURE() << "a decreasing size was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("bad.cdf:3: sizes must not decrease (50 after 100)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace netwarp::scenarios
