// Single messages of 4 GiB and more (workload.hpp's kMaxMessageBytes is 2^63 - 1): a 5 GiB
// flow over TCP (64-bit offsets, wrapping wire numbers) and over the lossless transport, whose
// sender cuts packets only as its NIC has room (lossless_sender.hpp), so the NIC holds a
// window of packets, not the message. Every run is checked sequential, optimistic and in
// reverse check mode (network_fixtures.hpp). A 1 Tbit/s link and 1 MB packets keep a 5 GiB
// message to about 5,400 packets.
#include <gtest/gtest.h>

#include <cstdint>

#include "netwarp/netmodels/lossless_sender.hpp"
#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;
using testing::message;
using testing::run_network;

constexpr std::uint32_t kPacketBytes = 1'000'000;
constexpr std::uint64_t kFiveGiB = std::uint64_t{5} << 30;
constexpr std::uint64_t kPackets = (kFiveGiB + kPacketBytes - 1) / kPacketBytes;

// host0 - switch - host1 at 1 Tbit/s (8 ps per byte), plain 1 MB packets.
NetworkSpec one_flow(TransportKind kind, std::uint64_t bytes) {
  NetworkSpec spec;
  spec.topology = testing::line_topology(2, LinkSpec{gbps(1000), us(1)});
  spec.format = testing::plain_format(kPacketBytes);
  spec.transport.kind = kind;
  if (kind == TransportKind::tcp) spec.switches.buffer_bytes = 256 * std::uint64_t{kPacketBytes};
  spec.workload.kind = "flows";
  spec.workload.messages = {message(0, 0, 1, bytes)};
  return spec;
}

const PortRecord& nic_of(const testing::NetworkRun& run, NodeId host) {
  for (const PortRecord& p : run.results.ports)
    if (p.node == host) return p;
  ADD_FAILURE() << "no port record of host " << host;
  return run.results.ports.front();
}

void expect_delivered_exactly(const testing::NetworkRun& run, std::uint64_t bytes) {
  EXPECT_EQ(run.totals.messages_delivered, 1u);
  EXPECT_EQ(run.totals.bytes_delivered, bytes);
  ASSERT_EQ(run.results.flows.size(), 1u);
  EXPECT_EQ(run.results.flows[0].bytes, bytes);
  EXPECT_GT(run.results.flows[0].completed_ps, 0);
}

TEST(BigMessage, FiveGiBTcpFlowDeliversEveryByte) {
  const auto run = run_network(one_flow(TransportKind::tcp, kFiveGiB));
  expect_delivered_exactly(run, kFiveGiB);
  EXPECT_EQ(run.results.flows[0].segments_sent, kPackets);
  EXPECT_EQ(run.results.flows[0].retransmitted_segments, 0u);
  // host0's NIC sent every payload byte once (plain format: the handshake adds control bytes).
  EXPECT_GE(nic_of(run, 0).bytes_sent, kFiveGiB);
  EXPECT_LT(nic_of(run, 0).bytes_sent, kFiveGiB + 1000);
}

TEST(BigMessage, FiveGiBLosslessFlowDeliversEveryByte) {
  const auto run = run_network(one_flow(TransportKind::lossless, kFiveGiB));
  expect_delivered_exactly(run, kFiveGiB);
  EXPECT_EQ(run.results.flows[0].segments_sent, kPackets);
  EXPECT_EQ(nic_of(run, 0).packets_sent, kPackets);
  EXPECT_EQ(nic_of(run, 0).bytes_sent, kFiveGiB);
}

// The NIC never holds more than the window and one packet, and its line never idles: the
// packets leave back to back, as if all had been queued at the start.
TEST(BigMessage, LosslessNicHoldsAWindowAndNeverIdles) {
  const auto run = run_network(one_flow(TransportKind::lossless, kFiveGiB));
  const PortRecord& nic = nic_of(run, 0);
  EXPECT_LE(nic.max_queue_bytes, kLosslessWindowBytes + kPacketBytes);
  EXPECT_GE(nic.max_queue_bytes, kLosslessWindowBytes - kPacketBytes);
  EXPECT_EQ(nic.busy_until_ps - nic.first_sent_ps, static_cast<std::int64_t>(kFiveGiB * 8));
}

// Within the window nothing changes: the whole message enters the NIC when it starts.
TEST(BigMessage, LosslessMessageWithinTheWindowIsQueuedAtOnce) {
  const std::uint64_t bytes = 3 * std::uint64_t{kPacketBytes};
  const auto run = run_network(one_flow(TransportKind::lossless, bytes));
  expect_delivered_exactly(run, bytes);
  EXPECT_EQ(nic_of(run, 0).max_queue_bytes, bytes);
  EXPECT_EQ(nic_of(run, 0).max_queue_packets, 3u);
}

// Past the window, a host's messages still leave in order: the second, due at the same time,
// starts on the wire only after the first's last byte, and the line stays busy throughout.
TEST(BigMessage, LosslessMessagesPastTheWindowKeepTheirOrder) {
  NetworkSpec spec = one_flow(TransportKind::lossless, 0);
  const std::uint64_t bytes = 40 * std::uint64_t{kPacketBytes} + 123;
  spec.workload.messages = {message(0, 0, 1, bytes), message(1, 0, 1, bytes)};
  const auto run = run_network(spec);
  EXPECT_EQ(run.totals.messages_delivered, 2u);
  EXPECT_EQ(run.totals.bytes_delivered, 2 * bytes);
  ASSERT_EQ(run.results.deliveries.size(), 2u);
  const DeliveryRecord& first = run.results.deliveries[0].message == 0 ? run.results.deliveries[0]
                                                                       : run.results.deliveries[1];
  const DeliveryRecord& second =
      &first == &run.results.deliveries[0] ? run.results.deliveries[1] : run.results.deliveries[0];
  EXPECT_LT(first.delivered_ps, second.delivered_ps);
  const PortRecord& nic = nic_of(run, 0);
  EXPECT_EQ(nic.busy_until_ps - nic.first_sent_ps, static_cast<std::int64_t>(2 * bytes * 8));
}

// With credit flow control the packets past the window are cut as credit returns.
TEST(BigMessage, LosslessWithCreditsRefillsOnCredit) {
  NetworkSpec spec = one_flow(TransportKind::lossless, 64 * std::uint64_t{kPacketBytes} + 7);
  spec.switches.flow_control = FlowControl::credit;
  spec.switches.buffer_bytes = 2 * std::uint64_t{kPacketBytes};
  const auto run = run_network(spec);
  expect_delivered_exactly(run, 64 * std::uint64_t{kPacketBytes} + 7);
  EXPECT_LE(nic_of(run, 0).max_queue_bytes, kLosslessWindowBytes + kPacketBytes);
}

}  // namespace
}  // namespace netwarp::netmodels
