// Multipath and adaptive routing: ECMP on fat trees (per-flow, equal-cost up-down paths spread
// over the cores), Valiant and UGAL on dragonflies (through a third group; UGAL only when the
// minimal port is loaded), walked switch by switch with choose(), and in full runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "netwarp/netmodels/network_model.hpp"
#include "netwarp/netmodels/workload.hpp"
#include "network_fixtures.hpp"
#include "topology_test_support.hpp"

namespace netwarp::netmodels {
namespace {

// Every output port equally idle, or one port (`slow`) loaded.
class FixedLoad final : public PortLoad {
 public:
  explicit FixedLoad(PortIndex slow = 0xffff, std::int64_t slow_ps = 0)
      : slow_(slow), ps_(slow_ps) {}
  std::int64_t backlog_ps(PortIndex port) const override { return port == slow_ ? ps_ : 0; }

 private:
  PortIndex slow_;
  std::int64_t ps_;
};

struct Walk {
  std::vector<NodeId> switches;
  bool nonminimal = false;
};

// A packet's switches from src to dst as per-packet routing takes it (every switch idle).
Walk walk(const Topology& t, NodeId src, NodeId dst, std::uint64_t flow_key,
          std::uint64_t packet_key, const PortLoad& first_load = FixedLoad()) {
  Walk w;
  RouteQuery q{src, dst, t.nodes[src].ports[0].peer_port, flow_key, packet_key, false};
  const FixedLoad idle;
  NodeId at = t.nodes[src].ports[0].peer;
  while (!t.is_host(at)) {
    w.switches.push_back(at);
    if (w.switches.size() > 8) {
      ADD_FAILURE() << "loop from host" << src << " to host" << dst;
      return w;
    }
    const PortLoad& load = w.switches.size() == 1 ? first_load : idle;
    const RouteChoice c = t.router->choose(at, q, load);
    q.nonminimal = c.nonminimal;
    const Port& port = t.nodes[at].ports[c.port];
    q.in_port = port.peer_port;
    at = port.peer;
  }
  EXPECT_EQ(at, dst);
  w.nonminimal = q.nonminimal;
  return w;
}

TEST(FatTreeEcmp, EveryFlowTakesAShortestUpDownPathAndFlowsSpreadOverAllCores) {
  const Topology t = build_fat_tree(FatTreeSpec{8, FatTreeRouting::ecmp, 3}, LinkLevels{}, "t");
  ASSERT_TRUE(t.router->per_packet());
  const NodeId src = 0;
  const NodeId dst = t.host_count - 1;  // another pod: edge, agg, core, agg, edge
  std::set<NodeId> cores;
  for (std::uint64_t flow = 0; flow < 400; ++flow) {
    const std::uint64_t key = route_key_mix(flow);
    const Walk a = walk(t, src, dst, key, 1);
    ASSERT_EQ(a.switches.size(), t.path(src, dst).size() - 2) << "flow " << flow;
    cores.insert(a.switches[2]);
    EXPECT_EQ(walk(t, src, dst, key, 99).switches, a.switches) << "one flow, one path";
  }
  EXPECT_EQ(cores.size(), 16u);  // (k/2)^2: every core carries some flow
}

TEST(FatTreeEcmp, DModKStaysOnePathPerDestination) {
  const Topology t = build_fat_tree(FatTreeSpec{8}, LinkLevels{}, "t");
  EXPECT_FALSE(t.router->per_packet());
  std::set<std::vector<NodeId>> paths;
  for (std::uint64_t flow = 0; flow < 50; ++flow)
    paths.insert(walk(t, 0, t.host_count - 1, route_key_mix(flow), flow).switches);
  EXPECT_EQ(paths.size(), 1u);
}

std::uint32_t group_of(const DragonflySpec& s, NodeId router_node, std::uint32_t hosts) {
  return (router_node - hosts) / s.routers_per_group;
}

TEST(DragonflyValiant, PacketsBetweenGroupsPassOneRandomThirdGroup) {
  const DragonflySpec spec{3, 2, 2, 0, DragonflyRouting::valiant};  // 7 groups
  const Topology t = build_dragonfly(spec, LinkLevels{}, "t");
  const std::uint32_t hosts = t.host_count;
  std::map<std::uint32_t, int> intermediates;
  for (std::uint64_t packet = 0; packet < 500; ++packet) {
    const NodeId src = 0;          // group 0
    const NodeId dst = hosts - 1;  // group 6
    const Walk w = walk(t, src, dst, 5, route_key_mix(packet));
    std::vector<std::uint32_t> groups;
    for (NodeId n : w.switches)
      if (groups.empty() || groups.back() != group_of(spec, n, hosts))
        groups.push_back(group_of(spec, n, hosts));
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(groups.front(), 0u);
    EXPECT_EQ(groups.back(), 6u);
    EXPECT_TRUE(w.nonminimal);
    EXPECT_LE(w.switches.size(), 6u);  // local, global, local, global, local at most
    ++intermediates[groups[1]];
  }
  EXPECT_EQ(intermediates.size(), 5u);  // groups 1 .. 5, all drawn
  // Within a group: minimal.
  const Walk local = walk(t, 0, 2 * spec.hosts_per_router, 5, 77);
  EXPECT_EQ(local.switches.size(), 2u);
  EXPECT_FALSE(local.nonminimal);
}

TEST(DragonflyUgal, MinimalWhenIdleValiantWhenTheMinimalPortIsLoaded) {
  const DragonflySpec spec{3, 2, 2, 0, DragonflyRouting::ugal};
  DragonflySpec valiant_spec = spec;
  valiant_spec.routing = DragonflyRouting::valiant;
  const Topology t = build_dragonfly(spec, LinkLevels{}, "t");
  const Topology valiant = build_dragonfly(valiant_spec, LinkLevels{}, "t");
  const NodeId src = 0;
  const NodeId dst = t.host_count - 1;
  const NodeId first = t.nodes[src].ports[0].peer;
  const PortIndex minimal = t.next_port(first, dst);
  int nonminimal_idle = 0;
  int nonminimal_loaded = 0;
  for (std::uint64_t packet = 0; packet < 200; ++packet) {
    const std::uint64_t key = route_key_mix(packet);
    const Walk idle = walk(t, src, dst, 5, key);
    nonminimal_idle += idle.nonminimal ? 1 : 0;
    EXPECT_EQ(idle.switches.size(), t.path(src, dst).size() - 2);
    // The minimal port 100 packets deep: the Valiant path is taken unless it leaves by the same
    // port (its intermediate group's link is on the same neighbour router).
    const Walk loaded = walk(t, src, dst, 5, key, FixedLoad(minimal, 100 * 1000));
    const Walk through = walk(valiant, src, dst, 5, key);
    const bool same_port = through.switches[1] == t.nodes[first].ports[minimal].peer;
    EXPECT_EQ(loaded.nonminimal, !same_port) << "packet " << packet;
    if (loaded.nonminimal) {
      EXPECT_EQ(loaded.switches, through.switches);
    }
    nonminimal_loaded += loaded.nonminimal ? 1 : 0;
  }
  EXPECT_EQ(nonminimal_idle, 0);
  EXPECT_GT(nonminimal_loaded, 100);
}

TEST(DragonflyRouting, NonMinimalNeedsThreeGroups) {
  topology_test::expect_input_error(
      [] {
        build_dragonfly(DragonflySpec{2, 1, 1, 2, DragonflyRouting::ugal}, LinkLevels{}, "df");
      },
      "df.routing");
}

// Group 0's hosts all send to group 1's: minimal routing funnels everything through the one
// global cable between them; UGAL spreads over the other groups and finishes sooner.
NetworkSpec adversarial(DragonflyRouting routing) {
  NetworkSpec spec;
  spec.topology = build_dragonfly(DragonflySpec{4, 2, 1, 0, routing}, LinkLevels{}, "t");
  spec.format = testing::plain_format(1000);
  const std::uint32_t per_group = 4 * 2;
  std::vector<FlowSpec> flows;
  for (NodeId i = 0; i < per_group; ++i) flows.push_back(FlowSpec{i, per_group + i, 40000, {}, 0});
  spec.workload = make_flows(flows, spec.topology.host_count, "workload");
  return spec;
}

std::uint64_t global_bytes(const Topology& t, const NetworkResults& r) {
  std::uint64_t bytes = 0;
  for (const PortRecord& p : r.ports)
    if (t.nodes[p.node].ports[p.port].level == 2) bytes += p.bytes_sent;
  return bytes;
}

std::int64_t last_completion(const NetworkResults& r) {
  std::int64_t last = 0;
  for (const FlowRecord& f : r.flows) last = std::max(last, f.completed_ps);
  return last;
}

TEST(DragonflyUgal, SpreadsAnAdversarialPatternAndBeatsMinimal) {
  const NetworkSpec minimal = adversarial(DragonflyRouting::minimal);
  const NetworkSpec ugal = adversarial(DragonflyRouting::ugal);
  const NetworkSpec valiant = adversarial(DragonflyRouting::valiant);
  const auto m = testing::run_network(minimal);
  const auto u = testing::run_network(ugal);
  const auto v = testing::run_network(valiant);
  for (const auto* run : {&m, &u, &v}) EXPECT_EQ(run->totals.messages_delivered, 8u);
  EXPECT_LT(last_completion(u.results), last_completion(m.results));
  // Valiant: every data byte crosses two global links; UGAL between one and two.
  const std::uint64_t gm = global_bytes(minimal.topology, m.results);
  const std::uint64_t gu = global_bytes(ugal.topology, u.results);
  const std::uint64_t gv = global_bytes(valiant.topology, v.results);
  EXPECT_GT(gv, 19 * gm / 10);
  EXPECT_GT(gu, gm);
  EXPECT_LT(gu, gv);
}

}  // namespace
}  // namespace netwarp::netmodels
