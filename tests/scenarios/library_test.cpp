// The library of scenarios: every .pbtxt in scenarios/ loads, validates and builds, and the
// knobs its comments advertise work.
#include <gtest/gtest.h>

#include <filesystem>

#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/network_builder.hpp"

namespace netwarp::scenarios {
namespace {

std::string library(const std::string& name) {
  return scenario_library_dir() + "/" + name;
}

TEST(Library, EveryScenarioLoadsAndBuilds) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(scenario_library_dir())) {
    if (entry.path().extension() != ".pbtxt") continue;
    SCOPED_TRACE(entry.path().string());
    const LoadedScenario loaded = load_scenario(entry.path().string(), {});
    if (is_mpi_scenario(loaded)) {
      const MpiRunSpec mpi = build_mpi_run(loaded);
      EXPECT_GE(mpi.program->size(), 2u);
      EXPECT_EQ(mpi.config.rank_hosts.size(), mpi.program->size());
      EXPECT_NO_THROW(netmodels::check_topology(mpi.network.topology));
    } else {
      const netmodels::NetworkSpec spec = build_network_spec(loaded);
      EXPECT_FALSE(spec.workload.messages.empty());
      EXPECT_NO_THROW(netmodels::check_topology(spec.topology));
    }
    ++count;
  }
  EXPECT_GE(count, 4);
}

TEST(Library, MpiScenariosAreTheIssuesShapes) {
  const MpiRunSpec pingpong = build_mpi_run(load_scenario(library("pingpong.pbtxt"), {}));
  EXPECT_EQ(pingpong.network.topology.host_count, 2u);
  EXPECT_FALSE(pingpong.pingpong_sizes.empty());
  const MpiRunSpec b = build_mpi_run(load_scenario(
      library("alltoall-ab.pbtxt"),
      {"mpi.alltoall.algorithm=algorithm_b", "mpi.ranks=8", "mpi.alltoall.bytes=1000"}));
  EXPECT_EQ(b.program->size(), 8u);
  EXPECT_EQ(b.program_name, "alltoall algorithm_b");
  EXPECT_EQ(b.program->ranks[0].calls.at(0).bytes, 1000u);
  const LoadedScenario cluster = load_scenario(library("cluster.pbtxt"), {});
  const MpiRunSpec c = build_mpi_run(cluster);
  EXPECT_EQ(c.network.topology.host_count, 16u);
  EXPECT_EQ(c.network.transport.kind, netmodels::TransportKind::tcp);
  EXPECT_EQ(c.network.topology.nodes[0].ports[0].rate_bps, 1'000'000'000u);
}

// mpi.ranks_per_host: block fills a host with consecutive ranks, cyclic deals them out; the
// default rank count is hosts x ranks_per_host; the shared-memory and fragment settings arrive.
TEST(Library, RanksPerHostPlacesBlockOrCyclic) {
  const std::vector<std::string> base = {"mpi.ranks=8", "mpi.ranks_per_host=4",
                                         "mpi.protocol.fragment_bytes=65536",
                                         "mpi.host.shm_eager_bytes=8192"};
  const MpiRunSpec block = build_mpi_run(load_scenario(library("alltoall-ab.pbtxt"), base));
  EXPECT_EQ(block.config.rank_hosts, (std::vector<netmodels::NodeId>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(block.config.protocol.fragment_bytes, 65536u);
  EXPECT_EQ(block.config.shm.eager_bytes, 8192u);
  EXPECT_EQ(block.config.shm.latency, engine::ns(200));         // defaults
  EXPECT_EQ(block.config.shm.copy_fs_per_byte, 100000u);        // 10 GB/s
  EXPECT_EQ(block.config.shm.single_copy_fs_per_byte, 80000u);  // 12.5 GB/s
  std::vector<std::string> cyclic_set = base;
  cyclic_set.push_back("mpi.rank_order=CYCLIC");
  const MpiRunSpec cyclic = build_mpi_run(load_scenario(library("alltoall-ab.pbtxt"), cyclic_set));
  EXPECT_EQ(cyclic.config.rank_hosts, (std::vector<netmodels::NodeId>{0, 1, 0, 1, 0, 1, 0, 1}));
  const MpiRunSpec all = build_mpi_run(
      load_scenario(library("alltoall-ab.pbtxt"), {"mpi.ranks=0", "mpi.ranks_per_host=2"}));
  EXPECT_EQ(all.program->size(), 32u);
  EXPECT_EQ(all.config.rank_hosts.at(31), 15u);
}

TEST(Library, IncastIsBenchmarkA) {
  const netmodels::NetworkSpec spec =
      build_network_spec(load_scenario(library("incast.pbtxt"), {}));
  EXPECT_EQ(spec.topology.host_count, 65u);
  EXPECT_EQ(spec.workload.messages.size(), 64u);
  EXPECT_EQ(spec.workload.messages[0].bytes, 1u << 20);
  EXPECT_EQ(spec.workload.messages[0].dst, 0u);
  EXPECT_EQ(spec.switches.buffer_bytes, 65536u);
  EXPECT_EQ(spec.transport.kind, netmodels::TransportKind::tcp);
  EXPECT_EQ(spec.transport.tcp.mss_bytes, 1460u);
  EXPECT_EQ(spec.transport.tcp.min_rto, engine::ms(200));
  EXPECT_FALSE(spec.transport.tcp.delayed_ack);
  EXPECT_EQ(spec.topology.nodes[0].ports[0].latency, engine::us(5));
  ASSERT_EQ(spec.outputs.queue_ports.size(), 1u);
  EXPECT_EQ(spec.outputs.queue_ports[0].node, 65u);  // sw0
  EXPECT_EQ(spec.outputs.queue_ports[0].port, 0u);   // toward host0
}

TEST(Library, IncastKnobsWork) {
  const netmodels::NetworkSpec spec = build_network_spec(load_scenario(
      library("incast.pbtxt"),
      {"workload.incast.senders=8", "workload.incast.bytes=4096", "switch.buffer_bytes=3000"}));
  EXPECT_EQ(spec.workload.messages.size(), 8u);
  EXPECT_EQ(spec.workload.messages[0].bytes, 4096u);
  EXPECT_EQ(spec.switches.buffer_bytes, 3000u);
}

TEST(Library, TorusAllToAllIsBenchmarkB) {
  const netmodels::NetworkSpec spec =
      build_network_spec(load_scenario(library("torus-alltoall.pbtxt"), {}));
  EXPECT_EQ(spec.topology.host_count, 256u);
  EXPECT_EQ(spec.workload.messages.size(), 256u * 255u);
  EXPECT_EQ(spec.switches.flow_control, netmodels::FlowControl::credit);
  EXPECT_EQ(spec.transport.kind, netmodels::TransportKind::lossless);
  EXPECT_EQ(spec.topology.nodes[0].ports[0].rate_bps, 8'000'000'000u);
}

TEST(Library, FatTreeHas54Hosts) {
  const netmodels::NetworkSpec spec =
      build_network_spec(load_scenario(library("fat-tree-alltoall.pbtxt"), {}));
  EXPECT_EQ(spec.topology.host_count, 54u);
  EXPECT_EQ(spec.workload.messages.size(), 54u * 53u);
}

TEST(Library, TwoFlowsResolveTheirOutputs) {
  const netmodels::NetworkSpec spec =
      build_network_spec(load_scenario(library("two-flows.pbtxt"), {}));
  EXPECT_EQ(spec.workload.messages.size(), 2u);
  EXPECT_EQ(spec.workload.messages[1].start, engine::ms(1));
  EXPECT_EQ(spec.outputs.pcap_nodes, std::vector<netmodels::NodeId>{2});
}

TEST(Library, BuiltInDefaultBuilds) {
  const netmodels::NetworkSpec spec = build_network_spec(built_in_default_scenario());
  EXPECT_EQ(spec.topology.host_count, 17u);
  EXPECT_EQ(spec.workload.messages.size(), 16u);
}

TEST(Library, RandomPlacementMovesRanks) {
  const netmodels::NetworkSpec spec = build_network_spec(load_scenario(
      library("incast.pbtxt"), {"placement.random.seed=7", "workload.incast.senders=64"}));
  EXPECT_EQ(spec.workload.messages.size(), 64u);
  bool moved = false;
  for (const auto& m : spec.workload.messages) moved = moved || m.dst != 0;
  EXPECT_TRUE(moved);
}

}  // namespace
}  // namespace netwarp::scenarios
