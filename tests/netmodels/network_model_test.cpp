// Whole networks: an all-to-all under credit flow control completes on every topology (no
// routing loop, no credit deadlock: torus rings and dragonfly global hops step virtual
// channels), under the sequential kernel, the optimistic kernel and the reverse check mode.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "netwarp/netmodels/topology_builders.hpp"
#include "network_fixtures.hpp"
#include "placement/load_placement.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ns;

struct Case {
  const char* name;
  Topology (*build)();
};

const LinkLevels kLinks{LinkSpec{gbps(10), ns(200)}, {}};

// An explicit graph: leaves a and b with three hosts each, both linked to a spine.
ExplicitSpec two_leaves_and_a_spine() {
  ExplicitSpec spec;
  spec.nodes = {{"spine", true}, {"a", true}, {"b", true}};
  spec.links = {{"a", "spine", {}, {}}, {"b", "spine", {}, {}}};
  for (int i = 0; i < 6; ++i) {
    const std::string name = fmt::format("h{}", i);
    spec.nodes.push_back({name, false});
    spec.links.push_back({name, i < 3 ? "a" : "b", {}, {}});
  }
  return spec;
}

const Case kCases[] = {
    {"star", [] { return build_star(StarSpec{6}, kLinks, "t"); }},
    {"tree",
     [] {
       return build_tree(TreeSpec{3, 3, 2}, kLinks, "t");
     }},
    {"fat_tree", [] { return build_fat_tree(FatTreeSpec{4}, kLinks, "t"); }},
    {"fat_tree_ecmp",
     [] {
       return build_fat_tree(FatTreeSpec{4, FatTreeRouting::ecmp, 7}, kLinks, "t");
     }},
    {"torus_2d",
     [] {
       return build_torus(TorusSpec{{4, 3}, true, 1}, kLinks, "t");
     }},
    {"torus_3d",
     [] {
       return build_torus(TorusSpec{{3, 3, 3}, true, 1}, kLinks, "t");
     }},
    {"mesh_2d",
     [] {
       return build_torus(TorusSpec{{4, 4}, false, 1}, kLinks, "t");
     }},
    {"dragonfly",
     [] {
       return build_dragonfly(DragonflySpec{3, 1, 1, 0}, kLinks, "t");
     }},
    {"dragonfly_valiant",
     [] {
       return build_dragonfly(DragonflySpec{3, 1, 1, 0, DragonflyRouting::valiant}, kLinks, "t");
     }},
    {"dragonfly_ugal",
     [] {
       return build_dragonfly(DragonflySpec{2, 2, 2, 0, DragonflyRouting::ugal}, kLinks, "t");
     }},
    {"explicit", [] { return build_explicit(two_leaves_and_a_spine(), kLinks, "t"); }},
};

class EveryTopology : public ::testing::TestWithParam<Case> {};

TEST_P(EveryTopology, AllToAllUnderCreditFlowControlDeliversEverything) {
  NetworkSpec spec;
  spec.topology = GetParam().build();
  const std::uint32_t hosts = spec.topology.host_count;
  spec.switches.flow_control = FlowControl::credit;
  spec.switches.buffer_bytes = 3200;  // two full packets per virtual channel: tight
  spec.workload =
      make_all_to_all(AllToAllSpec{AllToAllOrder::simple_spread, 6000, 0, 1}, hosts, "workload");
  const auto run = testing::run_network(spec);
  EXPECT_EQ(run.totals.messages_delivered, std::uint64_t{hosts} * (hosts - 1));
  EXPECT_EQ(run.totals.packets_dropped, 0u);
  EXPECT_EQ(run.totals.bytes_delivered, std::uint64_t{hosts} * (hosts - 1) * 6000);
}

std::string case_name(const ::testing::TestParamInfo<Case>& param) {
  return param.param.name;
}
INSTANTIATE_TEST_SUITE_P(Topologies, EveryTopology, ::testing::ValuesIn(kCases), case_name);

TEST(NetworkModel, TorusWithoutVirtualChannelsWouldDeadlock) {
  // The same tight torus all-to-all with the dateline steps removed stalls: the virtual
  // channels are what keeps it live.
  NetworkSpec spec;
  spec.topology = build_torus(TorusSpec{{4, 4}, true, 1}, kLinks, "t");
  for (Node& node : spec.topology.nodes)
    for (Port& port : node.ports) port.vc_step = 0;
  spec.switches.flow_control = FlowControl::credit;
  spec.switches.buffer_bytes = 3200;
  spec.workload =
      make_all_to_all(AllToAllSpec{AllToAllOrder::simple_spread, 20000, 0, 1}, 16, "workload");
  const auto run = testing::run_network(spec, SimTime::max(), true);
  EXPECT_LT(run.totals.messages_delivered, 16u * 15u);
}

std::vector<int> ranks_of_every_lp(const NetworkModel& model, int ranks) {
  std::vector<int> out;
  for (engine::LpId id = 0; id < model.lp_count(); ++id) out.push_back(model.rank_of(id, ranks));
  return out;
}

TEST(NetworkModel, AStarStaysOnOneRankUnlessSpread) {
  NetworkSpec spec;
  spec.topology = build_star(StarSpec{5}, kLinks, "t");  // 5 hosts and a switch: one group
  spec.few_groups = FewGroupsPlacement::together;
  EXPECT_EQ(ranks_of_every_lp(NetworkModel(spec), 2), std::vector<int>(6, 0));
  spec.few_groups = FewGroupsPlacement::spread;
  EXPECT_EQ(ranks_of_every_lp(NetworkModel(spec), 2), (std::vector<int>{0, 0, 0, 1, 1, 1}));
}

TEST(NetworkModel, ATreeKeepsEachLeafWithItsHosts) {
  NetworkSpec spec;
  // Groups: leaf l with its 2 hosts is group l, the root group 3: four groups on 2 ranks.
  spec.topology = build_tree(TreeSpec{3, 2, 1}, kLinks, "t");
  const NetworkModel model(spec);
  for (engine::LpId id = 0; id < model.lp_count(); ++id) {
    if (!spec.topology.is_host(id)) continue;
    const NodeId leaf = spec.topology.nodes[id].ports[0].peer;
    EXPECT_EQ(model.rank_of(id, 2), model.rank_of(leaf, 2)) << "host " << id;
  }
}

TEST(LoadPlacement, SplitsGroupsInRunsOfAboutEqualLoad) {
  EXPECT_EQ(split_groups(std::vector<std::uint64_t>(8, 5), 2),
            (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(split_groups(std::vector<std::uint64_t>{10, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 2),
            (std::vector<int>{0, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(split_groups(std::vector<std::uint64_t>{1, 1, 1, 1, 1, 1, 1, 9}, 2),
            (std::vector<int>{0, 0, 0, 0, 0, 0, 0, 1}));
  // However skewed the load, every rank gets a group.
  EXPECT_EQ(split_groups(std::vector<std::uint64_t>{100, 1, 1}, 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(split_groups(std::vector<std::uint64_t>{1, 1, 100}, 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(split_groups(std::vector<std::uint64_t>{0, 0, 0, 0}, 4),
            (std::vector<int>{0, 1, 2, 3}));
}

TEST(LoadPlacement, CountsEachPacketAtEveryNodeOfItsRoute) {
  // Leaves 0 and 1 (groups 0 and 1) with two hosts each; one spine, in group 0.
  const Topology t = build_leaf_spine(LeafSpineSpec{2, 1, 2, 1}, kLinks, "t");
  const std::vector<ExpectedTraffic> streams{{0, 2, 1000}, {1, 1, 1}};
  const std::vector<std::uint64_t> load = expected_group_load(t, 2, 100, {}, streams);
  // One per LP (group 0: 2 hosts, leaf, spine; group 1: 2 hosts, leaf), then 10 packets on
  // host0 -> leaf0 -> spine -> leaf1 -> host2 and 1 packet within host 1.
  EXPECT_EQ(load, (std::vector<std::uint64_t>{4 + 3 * 10 + 1, 3 + 2 * 10}));
}

// An MPI job on the first leaf's hosts carries most of the traffic: its leaf gets a rank of its
// own, where an equal count of groups would put two leaves with it.
TEST(NetworkModel, PlacesGroupsByTheLoadTheRunWillCarry) {
  NetworkSpec spec;
  spec.topology = build_leaf_spine(LeafSpineSpec{4, 2, 4, 1}, kLinks, "t");
  const auto leaf_rank = [&](const NetworkModel& model, std::uint32_t leaf) {
    return model.rank_of(leaf * 4, 2);  // its first host
  };
  const NetworkModel even(spec);
  EXPECT_EQ(leaf_rank(even, 1), leaf_rank(even, 0));
  EXPECT_NE(leaf_rank(even, 2), leaf_rank(even, 0));
  NetworkModel busy(spec);
  std::vector<ExpectedTraffic> job;
  for (NodeId a = 0; a < 4; ++a)
    for (NodeId b = 0; b < 4; ++b)
      if (a != b) job.push_back({a, b, 1 << 20});
  busy.expect_traffic(job);
  EXPECT_NE(leaf_rank(busy, 1), leaf_rank(busy, 0));
  EXPECT_EQ(leaf_rank(busy, 1), leaf_rank(busy, 3));
  for (engine::LpId id = 0; id < busy.lp_count(); ++id)  // a switch stays with its hosts
    if (spec.topology.is_host(id)) {
      EXPECT_EQ(busy.rank_of(id, 2), busy.rank_of(spec.topology.nodes[id].ports[0].peer, 2));
    }
}

}  // namespace
}  // namespace netwarp::netmodels
