// Hosts end to end through switches: TCP NewReno throughput at a bottleneck, loss recovery by
// fast retransmit and by timeout, message chaining. Each run is also checked under the
// optimistic kernel and the reverse check mode (network_fixtures.hpp).
#include <gtest/gtest.h>

#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::us;
using testing::message;
using testing::run_network;

constexpr std::uint32_t kMss = 1460;

// host0 - switch - host1, the switch's port to host1 at `bottleneck_bps`, TCP with MSS 1460.
NetworkSpec tcp_spec(std::vector<Message> messages, std::uint64_t bottleneck_bps = gbps(1)) {
  NetworkSpec spec;
  spec.topology = testing::line_topology(2, LinkSpec{gbps(1), us(5)});
  spec.topology.nodes[2].ports[1].rate_bps = bottleneck_bps;
  spec.format = PacketFormat{};  // MTU 1500, 40 B of headers, 38 B of Ethernet framing
  spec.switches.buffer_bytes = 64 * 1024;
  spec.transport.kind = TransportKind::tcp;
  spec.workload.kind = "flows";
  spec.workload.messages = std::move(messages);
  return spec;
}

const FlowRecord& flow(const testing::NetworkRun& run, MessageId id) {
  for (const FlowRecord& f : run.results.flows)
    if (f.flow == id) return f;
  throw std::logic_error("no flow record");
}

TEST(HostTcp, BulkFlowFillsTheBottleneck) {
  const std::uint64_t bytes = 3'000'000;
  NetworkSpec spec = tcp_spec({message(0, 0, 1, bytes)}, mbps(100));
  // A receive window below the switch buffer: the 10:1 rate step never overflows it.
  spec.transport.tcp.receive_window_bytes = 48 * 1024;
  const auto run = run_network(spec);
  ASSERT_EQ(run.totals.messages_delivered, 1u);
  const PortRecord* bottleneck = nullptr;
  for (const PortRecord& p : run.results.ports)
    if (p.node == 2 && p.port == 1) bottleneck = &p;
  ASSERT_NE(bottleneck, nullptr);
  const double seconds = static_cast<double>(run.totals.completion_time_ps) * 1e-12;
  const double wire_rate = static_cast<double>(bottleneck->bytes_sent) * 8 / seconds;
  EXPECT_GT(wire_rate, 0.95 * 100e6);
  EXPECT_EQ(flow(run, 0).timeouts, 0u);
}

TEST(HostTcp, LossOfTheLastSegmentIsRepairedOnlyByTimeout) {
  NetworkSpec spec = tcp_spec({message(0, 0, 1, 10 * kMss)});  // one initial window
  spec.drops.push_back(PacketDrop{0, 9 * kMss});
  const auto run = run_network(spec);
  const FlowRecord& f = flow(run, 0);
  EXPECT_EQ(f.timeouts, 1u);
  EXPECT_EQ(f.fast_retransmits, 0u);
  EXPECT_EQ(f.retransmitted_segments, 1u);
  EXPECT_GT(run.totals.completion_time_ps, ms(200).ps());  // min RTO before the repair
  EXPECT_LT(run.totals.completion_time_ps, ms(201).ps());
  EXPECT_EQ(run.totals.retransmission_timeouts, 1u);
}

TEST(HostTcp, LossInTheMiddleIsRepairedByFastRetransmit) {
  NetworkSpec spec = tcp_spec({message(0, 0, 1, 100 * kMss)});
  spec.drops.push_back(PacketDrop{0, 20 * kMss});
  const auto run = run_network(spec);
  const FlowRecord& f = flow(run, 0);
  EXPECT_EQ(f.timeouts, 0u);
  EXPECT_EQ(f.fast_retransmits, 1u);
  EXPECT_GE(f.duplicate_acks, 3u);
  EXPECT_LT(run.totals.completion_time_ps, ms(10).ps());
  EXPECT_EQ(run.totals.fast_retransmits, 1u);
}

TEST(HostTcp, DropTailIncastLosesPacketsAndRecovers) {
  NetworkSpec spec;
  spec.topology = testing::star_topology(9, LinkSpec{gbps(1), us(5)});
  spec.switches.buffer_bytes = 32 * 1024;
  spec.transport.kind = TransportKind::tcp;
  for (NodeId s = 0; s < 8; ++s) spec.workload.messages.push_back(message(s, s, 8, 256 * 1024));
  const auto run = run_network(spec);
  EXPECT_EQ(run.totals.messages_delivered, 8u);
  EXPECT_GT(run.totals.packets_dropped, 0u);
  EXPECT_GT(run.totals.retransmitted_segments, 0u);
}

// Two identical senders phase-locked into a full drop-tail queue: every tie at the queue goes to
// the lower LP id, so the other sender takes nearly all the drops. NIC jitter breaks the lock.
TEST(HostTcp, NicJitterBreaksDropTailPhaseLock) {
  auto retransmissions_per_sender = [](SimTime jitter) {
    NetworkSpec spec;
    spec.topology = testing::star_topology(3, LinkSpec{gbps(1), us(1)});
    spec.switches.buffer_bytes = 64 * 1024;
    spec.nic.jitter = jitter;
    spec.transport.kind = TransportKind::tcp;
    spec.transport.tcp.min_rto = engine::ms(1);
    spec.workload.messages = {message(0, 0, 2, 2'000'000), message(1, 1, 2, 2'000'000)};
    const auto run = run_network(spec);
    EXPECT_EQ(run.totals.messages_delivered, 2u);
    return std::pair{flow(run, 0).retransmitted_segments, flow(run, 1).retransmitted_segments};
  };
  // Without jitter the two senders are phase-locked: one of them (which one is the tie draw's
  // choice) takes nearly all the drops. With jitter they share them.
  const auto [locked_first, locked_second] = retransmissions_per_sender(SimTime::zero());
  const std::uint64_t locked_most = std::max(locked_first, locked_second);
  const std::uint64_t locked_least = std::min(locked_first, locked_second);
  EXPECT_GT(locked_most, 10 * std::max<std::uint64_t>(locked_least, 1));
  const auto [first, second] = retransmissions_per_sender(engine::ns(500));
  EXPECT_GT(std::min(first, second), 0u);
  EXPECT_LT(std::max(first, second), 10 * std::min(first, second));
}

TEST(HostLossless, ChainedMessagesStartOnlyAfterDelivery) {
  NetworkSpec spec;
  spec.topology = testing::line_topology(2, LinkSpec{gbps(1), us(1)});
  spec.format = testing::plain_format(1000);
  spec.workload.messages = {message(0, 0, 1, 5000), message(1, 0, 1, 5000, {}, true)};
  const auto run = run_network(spec);
  ASSERT_EQ(run.results.flows.size(), 2u);
  const FlowRecord& first = flow(run, 0);
  const FlowRecord& second = flow(run, 1);
  EXPECT_GE(first.completed_ps, run.results.deliveries[0].delivered_ps);
  // The delivery notice travels back (64 B: 0.512 us + 1 us per hop), then the next starts.
  EXPECT_EQ(second.start_ps, first.completed_ps);
  EXPECT_EQ(first.completed_ps - run.results.deliveries[0].delivered_ps, 2 * 1'512'000);
}

}  // namespace
}  // namespace netwarp::netmodels
