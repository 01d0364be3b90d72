// Multipath and adaptive routing: ECMP on fat trees (per-flow, equal-cost up-down paths spread
// over the cores), Valiant and UGAL on dragonflies (through a third group; UGAL only when the
// minimal port is loaded), walked switch by switch with choose(), and in full runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "netwarp/netmodels/multipath.hpp"
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
  for (NodeId i = 0; i < per_group; ++i) {
    FlowSpec& f = flows.emplace_back();
    f.src = i;
    f.dst = per_group + i;
    f.bytes = 40000;
  }
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

// Leaf-spine multipath in full runs: ECMP's per-spine loads, spraying's reordering.
Topology leaf_spine(std::uint32_t leaves, std::uint32_t spines, std::uint32_t hosts_per_leaf,
                    MultipathMode mode) {
  Topology t = build_leaf_spine(LeafSpineSpec{leaves, spines, hosts_per_leaf, 1},
                                LinkLevels{LinkSpec{gbps(10), engine::us(1)}, {}}, "t");
  t.router = with_multipath(t.router, MultipathSpec{mode, 7, engine::us(50)});
  return t;
}

TEST(LeafSpineEcmp, OneFlowKeepsOnePathAndFlowsSpreadWithinTheHashsSpread) {
  const Topology t = leaf_spine(4, 8, 4, MultipathMode::ecmp);
  const NodeId leaf0 = t.nodes[0].ports[0].peer;
  const NodeId dst = t.host_count - 1;
  std::vector<int> per_uplink(8, 0);
  constexpr int kFlows = 4096;
  for (int c = 0; c < kFlows; ++c) {
    const std::uint64_t key = connection_route_key(0, dst, static_cast<std::uint64_t>(c) + 1);
    const PortIndex port = ecmp_port(*multipath_of(*t.router), leaf0, dst, key);
    ASSERT_GE(port, 4);
    ++per_uplink[port - 4];
  }
  // Binomial(4096, 1/8): mean 512, sd 21.2; 4 sd either way.
  for (int count : per_uplink) EXPECT_NEAR(count, 512, 85);
}

// Bytes each spine received from the leaves (its level-1 ports' peers sent them).
std::vector<std::uint64_t> bytes_up_to_spines(const Topology& t, const NetworkResults& r,
                                              std::uint32_t leaves) {
  const NodeId first_spine = t.host_count + leaves;
  std::vector<std::uint64_t> bytes(t.switch_count() - leaves, 0);
  for (const PortRecord& p : r.ports) {
    if (p.node < t.host_count || p.node >= first_spine) continue;
    const NodeId peer = t.nodes[p.node].ports[p.port].peer;
    if (peer >= first_spine) bytes[peer - first_spine] += p.bytes_sent;
  }
  return bytes;
}

TEST(LeafSpineEcmp, APermutationsPerSpineLoadsAreTheHashsAndBalanced) {
  NetworkSpec spec;
  spec.topology = leaf_spine(4, 4, 8, MultipathMode::ecmp);
  spec.format = testing::plain_format(1000);
  constexpr std::uint64_t kBytes = 20000;
  spec.workload = make_permutation(PermutationSpec{kBytes, 3}, 32, "workload");
  const auto run = testing::run_network(spec);
  ASSERT_EQ(run.totals.messages_delivered, 32u);
  // Each message's data takes the uplink ECMP hashes its connection to.
  std::vector<std::uint64_t> flows(4, 0);
  std::uint64_t crossing = 0;
  for (const Message& m : spec.workload.messages) {
    const NodeId leaf = spec.topology.nodes[m.src].ports[0].peer;
    if (leaf == spec.topology.nodes[m.dst].ports[0].peer) continue;
    const std::uint64_t key = connection_route_key(m.src, m.dst, std::uint64_t{m.id} + 1);
    ++flows[ecmp_port(*multipath_of(*spec.topology.router), leaf, m.dst, key) - 8];
    ++crossing;
  }
  const std::vector<std::uint64_t> bytes = bytes_up_to_spines(spec.topology, run.results, 4);
  const double sd = std::sqrt(static_cast<double>(crossing) * 0.25 * 0.75);
  for (std::size_t s = 0; s < 4; ++s) {
    // The data, and at most one 64-byte delivery notice per message besides.
    EXPECT_GE(bytes[s], flows[s] * kBytes) << "spine " << s;
    EXPECT_LE(bytes[s], flows[s] * kBytes + 32 * 64) << "spine " << s;
    EXPECT_LE(std::abs(static_cast<double>(flows[s]) - crossing / 4.0), 3 * sd) << "spine " << s;
  }
}

// host0 -> host1 across two spines, spine1's links 20 us longer: a TCP flow sprayed over both
// arrives out of order and its receiver sends duplicate ACKs; ECMP and flowlets (gap 50 us >
// 20 us) keep its order.
NetworkSpec skewed_spines(MultipathMode mode) {
  NetworkSpec spec;
  spec.topology = leaf_spine(2, 2, 1, mode);
  for (NodeId leaf : {NodeId{2}, NodeId{3}}) {
    Port& up = spec.topology.nodes[leaf].ports[2];  // to spine1
    up.latency = engine::us(21);
    spec.topology.nodes[up.peer].ports[up.peer_port].latency = engine::us(21);
  }
  spec.transport.kind = TransportKind::tcp;
  FlowSpec flow;
  flow.src = 0;
  flow.dst = 1;
  flow.bytes = 300000;
  spec.workload = make_flows({flow}, 2, "workload");
  return spec;
}

TEST(LeafSpineSpraying, ReordersAndTcpCountsDuplicateAcks) {
  for (MultipathMode mode : {MultipathMode::spray_random, MultipathMode::spray_round_robin}) {
    const auto run = testing::run_network(skewed_spines(mode));
    EXPECT_EQ(run.totals.messages_delivered, 1u);
    EXPECT_GT(run.totals.duplicate_acks, 10u) << static_cast<int>(mode);
  }
  for (MultipathMode mode : {MultipathMode::ecmp, MultipathMode::flowlet}) {
    const auto run = testing::run_network(skewed_spines(mode));
    EXPECT_EQ(run.totals.messages_delivered, 1u);
    EXPECT_EQ(run.totals.duplicate_acks, 0u) << static_cast<int>(mode);
  }
}

TEST(LeafSpineRoundRobin, AlternatesSpinesPacketByPacket) {
  NetworkSpec spec = skewed_spines(MultipathMode::spray_round_robin);
  spec.transport.kind = TransportKind::lossless;
  const auto run = testing::run_network(spec);
  const std::vector<std::uint64_t> bytes = bytes_up_to_spines(spec.topology, run.results, 2);
  EXPECT_NEAR(static_cast<double>(bytes[0]), static_cast<double>(bytes[1]),
              3200.0);  // a packet and a notice
}

}  // namespace
}  // namespace netwarp::netmodels
