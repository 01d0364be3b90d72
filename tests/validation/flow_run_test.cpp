// run_mfs: MFS's communication model on small hand-worked patterns (blocking sends in queue
// order, delays, synchronised sends, resolution, start-up latency) and the paper's fat-tree
// finding: all-to-all with regular placement runs contention-free, random placement is slower.
#include <gtest/gtest.h>

#include "netmodels/network_fixtures.hpp"
#include "netwarp/netmodels/topology_builders.hpp"
#include "netwarp/netmodels/workload.hpp"
#include "netwarp/validation/flow_run.hpp"

namespace netwarp::validation {
namespace {

using netmodels::testing::message;

using netmodels::LinkLevels;
using netmodels::LinkSpec;

constexpr std::int64_t kUs = 1'000'000;  // ps

// 1 GB/s links (8 Gbit/s): 10 kB take 10 us on an idle route.
FlowNetwork star(std::uint32_t hosts, std::int64_t latency_ns = 0) {
  const LinkLevels links{LinkSpec{netmodels::gbps(8), engine::ns(latency_ns)}, {}};
  return FlowNetwork::from_topology(netmodels::build_star({hosts}, links, "t"));
}

PatternMessage msg(netmodels::NodeId from, netmodels::NodeId to, std::uint64_t order,
                   std::uint64_t bytes, std::int64_t delay_ns = 0) {
  PatternMessage m;
  m.sender = from;
  m.dest = to;
  m.order = order;
  m.bytes = bytes;
  m.delay = engine::ns(delay_ns);
  return m;
}

TEST(MfsRun, SingleMessageTakesBytesOverBandwidth) {
  const MfsResult r = run_mfs(star(2), FlowPattern{{msg(0, 1, 0, 20000)}}, {});
  EXPECT_EQ(r.completion_ps, 20 * kUs);
  EXPECT_EQ(r.messages[0].start_ps, 0);
  EXPECT_EQ(r.cycles, 1u);
}

TEST(MfsRun, IncomingFlowsShareTheReceiverLink) {
  // Hosts 0 and 1 send to 2: 0.5 GB/s each on host 2's ejection link until the 10 kB message is
  // done at 20 us; the 20 kB one sends its last 10 kB alone: 30 us.
  const MfsResult r = run_mfs(star(3), FlowPattern{{msg(0, 2, 0, 10000), msg(1, 2, 0, 20000)}}, {});
  EXPECT_EQ(r.messages[0].end_ps, 20 * kUs);
  EXPECT_EQ(r.messages[1].end_ps, 30 * kUs);
}

TEST(MfsRun, SenderSendsOneMessageAtATimeInQueueOrder) {
  // Listed out of order: order 0 (to host 2) goes first, order 1 (to host 1) once it is sent.
  const MfsResult r = run_mfs(star(3), FlowPattern{{msg(0, 1, 1, 10000), msg(0, 2, 0, 10000)}}, {});
  EXPECT_EQ(r.messages[1].start_ps, 0);
  EXPECT_EQ(r.messages[1].end_ps, 10 * kUs);
  EXPECT_EQ(r.messages[0].start_ps, 10 * kUs);
  EXPECT_EQ(r.messages[0].end_ps, 20 * kUs);
}

TEST(MfsRun, DelaysComeBeforeEachSend) {
  // 5 us, send 10 us; then 2 us, send 10 us: 5-15 and 17-27.
  const MfsResult r =
      run_mfs(star(2), FlowPattern{{msg(0, 1, 0, 10000, 5000), msg(0, 1, 1, 10000, 2000)}}, {});
  EXPECT_EQ(r.messages[0].start_ps, 5 * kUs);
  EXPECT_EQ(r.messages[0].end_ps, 15 * kUs);
  EXPECT_EQ(r.messages[1].start_ps, 17 * kUs);
  EXPECT_EQ(r.completion_ps, 27 * kUs);
}

TEST(MfsRun, SynchronisedSendWaitsForEarlierReceives) {
  // Host 0: order 0 to host 1, order 1 to host 2. Host 1: order 0 to host 0 after 30 us.
  // Asynchronous: host 0's second message runs 10-20 us. Synchronised: it waits until host 0
  // has received host 1's order-0 message (30-40 us), so runs 40-50 us.
  const FlowPattern p{{msg(0, 1, 0, 10000), msg(0, 2, 1, 10000), msg(1, 0, 0, 10000, 30000)}};
  const MfsResult async = run_mfs(star(3), p, {});
  EXPECT_EQ(async.messages[1].start_ps, 10 * kUs);
  EXPECT_EQ(async.completion_ps, 40 * kUs);
  MfsOptions sync;
  sync.synchronised_sends = true;
  const MfsResult r = run_mfs(star(3), p, sync);
  EXPECT_EQ(r.messages[0].end_ps, 10 * kUs);
  EXPECT_EQ(r.messages[2].end_ps, 40 * kUs);
  EXPECT_EQ(r.messages[1].start_ps, 40 * kUs);
  EXPECT_EQ(r.completion_ps, 50 * kUs);
}

TEST(MfsRun, ResolutionIsTheLeastCycle) {
  // Two 10 us messages back to back; with Resolu = 15 us the first ends with its cycle at 15.
  const FlowPattern p{{msg(0, 1, 0, 10000), msg(0, 1, 1, 10000)}};
  MfsOptions coarse;
  coarse.resolution_s = 15e-6;
  const MfsResult r = run_mfs(star(2), p, coarse);
  EXPECT_EQ(r.messages[0].end_ps, 15 * kUs);
  EXPECT_EQ(r.completion_ps, 30 * kUs);
  EXPECT_EQ(run_mfs(star(2), p, {}).completion_ps, 20 * kUs);
}

TEST(MfsRun, RouteLatencyDelaysTheStartWhenAsked) {
  // Two links of 1 us each: the message starts at 2 us.
  MfsOptions latency;
  latency.route_latency = true;
  const FlowPattern p{{msg(0, 1, 0, 10000)}};
  EXPECT_EQ(run_mfs(star(2, 1000), p, latency).completion_ps, 12 * kUs);
  EXPECT_EQ(run_mfs(star(2, 1000), p, {}).completion_ps, 10 * kUs);
}

TEST(MfsRun, WorkloadMessagesKeepTheirSemantics) {
  // Independent flows start at their own times and overlap on host 0's injection link; a
  // message marked after_previous waits for host 0's previous message in the list.
  netmodels::Workload w;
  w.messages = {message(0, 0, 1, 10000, engine::us(0), false),
                message(1, 0, 2, 10000, engine::us(5), false),
                message(2, 0, 1, 10000, engine::us(0), true)};
  const MfsResult r = run_mfs(star(3), pattern_from_workload(w), {});
  // 0-5 us: message 0 alone (5 kB); 5-15 us: both at 0.5 GB/s, message 0 done at 15 us;
  // message 1 has 5 kB left, alone: done at 20 us. Message 2 follows it: 20-30 us.
  EXPECT_EQ(r.messages[0].end_ps, 15 * kUs);
  EXPECT_EQ(r.messages[1].start_ps, 5 * kUs);
  EXPECT_EQ(r.messages[1].end_ps, 20 * kUs);
  EXPECT_EQ(r.messages[2].start_ps, 20 * kUs);
  EXPECT_EQ(r.messages[2].end_ps, 30 * kUs);
}

// All-to-all of 20 kB per pair on a full-bisection fat tree of k-port switches, 1 GB/s links.
MfsResult fat_tree_all_to_all(std::uint32_t k, netmodels::AllToAllOrder order, bool random,
                              FlowMode mode) {
  const LinkLevels links{LinkSpec{netmodels::gbps(8), engine::ns(100)}, {}};
  const auto topology = netmodels::build_fat_tree({k}, links, "t");
  const std::uint32_t hosts = topology.host_count;
  netmodels::Workload w = netmodels::make_all_to_all({order, 20000, 0, 1}, hosts, "w");
  const netmodels::PlacementSpec placement{
      random ? netmodels::PlacementKind::random : netmodels::PlacementKind::regular, 7, {}};
  netmodels::apply_placement(w, netmodels::place_ranks(placement, hosts, hosts, "p"));
  MfsOptions options;
  options.mode = mode;
  return run_mfs(FlowNetwork::from_topology(topology), pattern_from_workload(w), options);
}

TEST(MfsRun, FatTreeAllToAllWithRegularPlacementIsContentionFree) {
  // Contention-free: each host sends its N - 1 messages back to back at full rate, 20 us each.
  using netmodels::AllToAllOrder;
  for (const FlowMode mode : {FlowMode::fair_share, FlowMode::max_min}) {
    const MfsResult k4 = fat_tree_all_to_all(4, AllToAllOrder::pairwise, false, mode);
    EXPECT_EQ(k4.completion_ps, 15 * 20 * kUs);  // 16 hosts
    const MfsResult p3 = fat_tree_all_to_all(6, AllToAllOrder::simple_spread, false, mode);
    EXPECT_EQ(p3.completion_ps, 53 * 20 * kUs);  // 54 hosts (p = 3)
    for (const MessageTiming& t : p3.messages) EXPECT_EQ(t.end_ps - t.start_ps, 20 * kUs);
  }
}

TEST(MfsRun, FatTreeAllToAllWithRandomPlacementIsSlower) {
  using netmodels::AllToAllOrder;
  const MfsResult f =
      fat_tree_all_to_all(6, AllToAllOrder::simple_spread, true, FlowMode::fair_share);
  const MfsResult n = fat_tree_all_to_all(6, AllToAllOrder::simple_spread, true, FlowMode::max_min);
  EXPECT_GT(f.completion_ps, 53 * 20 * kUs * 11 / 10);
  EXPECT_GT(n.completion_ps, 53 * 20 * kUs * 11 / 10);
  // Max-min never leaves a link idle that Mode F fills, but the total may still differ either
  // way; what must hold is that Mode N solved with more than one level somewhere.
  EXPECT_GT(n.solver.max_min_rounds_max, 1u);
}

TEST(MfsRun, RejectsBadPatterns) {
  EXPECT_THROW(run_mfs(star(2), FlowPattern{{msg(0, 2, 0, 1)}}, {}), netmodels::InputError);
  EXPECT_THROW(run_mfs(star(2), FlowPattern{{msg(1, 1, 0, 1)}}, {}), netmodels::InputError);
  EXPECT_THROW(run_mfs(star(3), FlowPattern{{msg(0, 1, 4, 1), msg(0, 2, 4, 1)}}, {}),
               netmodels::InputError);
}

}  // namespace
}  // namespace netwarp::validation
