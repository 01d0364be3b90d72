// Priority flow control (SwitchConfig::pfc, IEEE 802.1Qbb). The DCQCN paper's motivating case
// (Zhu et al. 2015, section 2.2): a victim flow that shares no congested port with an incast
// but crosses a link PFC pauses is slowed by head-of-line blocking, and is not without PFC,
// while the lossless class drops nothing. A ring whose routes form a cycle deadlocks: at the
// end every ring port is paused with bytes queued. Every run is also checked under the
// optimistic kernel and the reverse check mode (network_fixtures.hpp).
#include <gtest/gtest.h>

#include "netwarp/netmodels/topology_builders.hpp"
#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::us;
using testing::delivery_time;
using testing::message;
using testing::run_network;

// Two leaves of four hosts under a root, 4 Gbit/s uplinks: host 3 -> host 7 (the victim) never
// shares a congested port with the incast of hosts 0, 1, 2, 5, 6 into host 4, and without PFC
// its path has room to spare.
NetworkSpec victim_spec(bool pfc, std::uint64_t bytes = 100'000) {
  NetworkSpec spec;
  spec.topology =
      build_tree(TreeSpec{2, 4, 1},
                 LinkLevels{LinkSpec{gbps(1), us(1)}, {{1, LinkSpec{gbps(4), us(1)}}}}, "topology");
  spec.format = testing::plain_format(1000);
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.handshake = false;
  spec.transport.tcp.min_rto = ms(1);
  spec.workload.kind = "flows";
  MessageId id = 0;
  for (NodeId src : {0u, 1u, 2u, 5u, 6u})
    spec.workload.messages.push_back(message(id++, src, 4, bytes));
  spec.workload.messages.push_back(message(id, 3, 7, bytes));
  PortClassConfig lossless;
  lossless.lossless = pfc;
  spec.switches.classes = {lossless};
  if (pfc) spec.switches.pfc = PfcConfig{true, 20'000, 10'000, 0, 65535};
  return spec;
}

const PortClassRecord& class_record(const testing::NetworkRun& run, NodeId node, PortIndex port) {
  for (const PortClassRecord& r : run.results.port_classes)
    if (r.node == node && r.port == port) return r;
  static const PortClassRecord none;
  ADD_FAILURE() << "no class record at " << node << "." << port;
  return none;
}

TEST(Pfc, AVictimFlowIsSlowedByHeadOfLineBlockingOnlyUnderPfc) {
  const auto without = run_network(victim_spec(false));
  const auto with = run_network(victim_spec(true));
  EXPECT_EQ(with.totals.messages_delivered, 6u);
  EXPECT_EQ(with.totals.packets_dropped, 0u);
  const std::int64_t solo = 100 * us(8).ps();  // 100 packets at 1 Gbit/s
  EXPECT_LT(delivery_time(without, 5), solo * 3 / 2);
  EXPECT_GT(delivery_time(with, 5), 2 * delivery_time(without, 5));
  // leaf1 (node 9) paused the root (node 10) on their link (leaf1's port 4, root's port 1).
  const PortClassRecord& leaf1_up = class_record(with, 9, 4);
  const PortClassRecord& root_down = class_record(with, 10, 1);
  EXPECT_GT(leaf1_up.pause_frames_sent, 0u);
  EXPECT_EQ(root_down.pause_frames_received, leaf1_up.pause_frames_sent);
  EXPECT_GT(root_down.paused_ps, 0);
  EXPECT_LE(leaf1_up.max_ingress_bytes, 20'000u + 2 * 1000 + 4 * 1000 / 8 * 2 + 84);
  EXPECT_EQ(leaf1_up.ingress_overflows, 0u);
  EXPECT_EQ(root_down.queued_at_end_bytes, 0u);  // every pause was lifted
}

// A PAUSE lasts 65535 quanta (33.5 ms at 1 Gbit/s) and a resume usually ends it within
// microseconds: a port keeps one wake-up pending for the earliest pause end, and a switch port
// one refresh per class, rather than one per frame (each would stay queued for the whole pause).
TEST(Pfc, PausedPortsKeepOneWakeUpPendingNotOnePerPause) {
  const auto with = run_network(victim_spec(true, 1'000'000), SimTime::max(), true);
  std::uint64_t pauses = 0;
  for (const PortClassRecord& r : with.results.port_classes) pauses += r.pause_frames_received;
  ASSERT_GT(pauses, 1000u);
  EXPECT_LT(with.stats.peak_events_in_memory, pauses / 8) << pauses << " pause frames";
}

// A 4 x 2 torus: hosts 0..3 on the first ring each send to the host two routers on; ties go the
// positive way, so every route turns the same way round the ring.
NetworkSpec ring_spec() {
  NetworkSpec spec;
  spec.topology =
      build_torus(TorusSpec{{4, 2}, true, 1}, LinkLevels{LinkSpec{gbps(1), us(1)}, {}}, "topology");
  spec.format = testing::plain_format(1000);
  spec.transport.kind = TransportKind::lossless;
  spec.workload.kind = "flows";
  for (NodeId h = 0; h < 4; ++h)
    spec.workload.messages.push_back(message(h, h, (h + 2) % 4, 400'000));
  PortClassConfig lossless;
  lossless.lossless = true;
  spec.switches.classes = {lossless};
  spec.switches.pfc = PfcConfig{true, 8'000, 4'000, 0, 65535};
  return spec;
}

TEST(Pfc, ARingWithARoutingCycleDeadlocksWithEveryRingPortPausedAndQueued) {
  const auto run = run_network(ring_spec(), ms(3));
  EXPECT_LT(run.totals.messages_delivered, 4u);
  EXPECT_EQ(run.totals.packets_dropped, 0u);
  std::vector<NodeId> waiting;
  for (const PortClassRecord& r : run.results.port_classes)
    if (r.queued_at_end_bytes > 0 && r.node >= 8) waiting.push_back(r.node);  // routers
  // Routers 0..3 (nodes 8..11), each waiting on its +x neighbour.
  EXPECT_EQ(waiting, (std::vector<NodeId>{8, 9, 10, 11}));
}

}  // namespace
}  // namespace netwarp::netmodels
