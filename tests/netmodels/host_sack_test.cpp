// SACK (RFC 2018) with RFC 6675 and RFC 6937 loss recovery end to end through hosts and a
// switch, losses placed by hand with NetworkSpec::drops, and the receiver's out-of-order cap.
// Each run is also checked under the optimistic kernel and the reverse check mode
// (network_fixtures.hpp).
#include <gtest/gtest.h>

#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;
using testing::message;
using testing::run_network;

constexpr std::uint32_t kMss = 1460;

// host0 - switch - host1 at 1 Gbit/s, one 100-segment message, the first transmissions of
// segments 20, 23 and 28 lost: three losses in one window.
NetworkSpec three_losses(TcpRecovery recovery, SimTime latency = us(5)) {
  NetworkSpec spec;
  spec.topology = testing::line_topology(2, LinkSpec{gbps(1), latency});
  spec.format = PacketFormat{};  // MTU 1500: MSS 1460
  spec.switches.buffer_bytes = 256 * 1024;
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.sack = recovery != TcpRecovery::newreno;
  spec.transport.tcp.recovery = recovery;
  spec.workload.kind = "flows";
  spec.workload.messages = {message(0, 0, 1, 100 * kMss)};
  for (std::uint32_t segment : {20, 23, 28}) spec.drops.push_back(PacketDrop{0, segment * kMss});
  return spec;
}

class HostSackRecovery : public ::testing::TestWithParam<TcpRecovery> {};

TEST_P(HostSackRecovery, RepairsThreeLossesInOneWindowWithoutTimeout) {
  const auto run = run_network(three_losses(GetParam()));
  ASSERT_EQ(run.results.flows.size(), 1u);
  const FlowRecord& f = run.results.flows[0];
  EXPECT_EQ(run.totals.messages_delivered, 1u);
  EXPECT_EQ(f.timeouts, 0u);
  EXPECT_EQ(f.fast_retransmits, 1u);  // one recovery for all three
  EXPECT_EQ(f.retransmitted_segments, 3u);
  EXPECT_EQ(run.totals.ooo_discarded_segments, 0u);
}

INSTANTIATE_TEST_SUITE_P(SackBased, HostSackRecovery,
                         ::testing::Values(TcpRecovery::sack_6675, TcpRecovery::prr));

// With an RTT of 400 us (a window of ~34 segments) NewReno repairs one hole per RTT.
TEST(HostSack, RecoversThreeLossesSoonerThanNewReno) {
  const auto newreno = run_network(three_losses(TcpRecovery::newreno, us(100)));
  const auto sack = run_network(three_losses(TcpRecovery::sack_6675, us(100)));
  EXPECT_EQ(newreno.totals.messages_delivered, 1u);
  EXPECT_LT(sack.totals.completion_time_ps, newreno.totals.completion_time_ps);
}

TEST(HostSack, CappedReceiverCountsItsDiscardsPerFlowAndInTotals) {
  NetworkSpec spec = three_losses(TcpRecovery::newreno);
  spec.transport.tcp.max_ooo_ranges = 1;  // after segment 20 is lost, 23's hole needs a second
  const auto run = run_network(spec);
  EXPECT_EQ(run.totals.messages_delivered, 1u);
  ASSERT_EQ(run.results.flows.size(), 1u);
  EXPECT_GT(run.totals.ooo_discarded_segments, 0u);
  EXPECT_EQ(run.results.flows[0].ooo_discarded_segments, run.totals.ooo_discarded_segments);
  ASSERT_EQ(run.results.receivers.size(), 1u);
  EXPECT_EQ(run.results.receivers[0].dst, 1u);
  // Every discarded segment had to be sent again.
  EXPECT_GE(run.results.flows[0].retransmitted_segments, 3 + run.totals.ooo_discarded_segments);
}

TEST(HostSack, UnlimitedReceiverKeepsEveryOutOfOrderSegment) {
  const auto run = run_network(three_losses(TcpRecovery::newreno));
  EXPECT_EQ(run.totals.ooo_discarded_segments, 0u);
  EXPECT_TRUE(run.results.receivers.empty());
}

}  // namespace
}  // namespace netwarp::netmodels
