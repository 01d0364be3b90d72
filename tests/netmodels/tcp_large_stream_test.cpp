// TCP connections that carry more than 2^32 bytes (netmodels/src/transport with 64-bit stream
// offsets, host_lp.cpp turning the wire's 32-bit sequence numbers back into offsets): three
// messages of 1.5 GB share one connection, whose offsets pass 2^32 inside a segment. Every run
// is checked sequential, optimistic and in reverse check mode (network_fixtures.hpp). A fast
// link and 1 MB segments keep it to a few thousand packets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/tcp.hpp"
#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;
using testing::message;
using testing::run_network;

constexpr std::uint64_t kTwoTo32 = std::uint64_t{1} << 32;
constexpr std::uint32_t kMss = 1'000'000;
constexpr std::uint64_t kMessageBytes = 1'500'000'000;
constexpr std::uint64_t kStreamBytes = 3 * kMessageBytes;
constexpr std::uint64_t kSegments = kStreamBytes / kMss;
// The segment at offset 4,294,000,000 holds byte 2^32; the next one (offset 4,295,000,000) is
// the first to begin past it, and its wire number has wrapped.
constexpr std::uint32_t kStraddlingSeq = 4'294'000'000;
constexpr std::uint32_t kFirstWrappedSeq = static_cast<std::uint32_t>(4'295'000'000 - kTwoTo32);

// host0 - switch - host1 at 1 Tbit/s, one persistent connection of three messages.
NetworkSpec large_stream(TcpRecovery recovery, bool sack) {
  NetworkSpec spec;
  spec.topology = testing::line_topology(2, LinkSpec{gbps(1000), us(1)});
  spec.format = testing::plain_format(kMss);
  spec.switches.buffer_bytes = 256 * std::uint64_t{kMss};
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.sack = sack;
  spec.transport.tcp.recovery = recovery;
  spec.workload.kind = "flows";
  spec.workload.persistent_connections = true;
  spec.workload.messages = {message(0, 0, 1, kMessageBytes), message(1, 0, 1, kMessageBytes),
                            message(2, 0, 1, kMessageBytes)};
  spec.outputs.pcap_nodes = {0};
  return spec;
}

std::vector<std::uint32_t> sent_data_seqs(const testing::NetworkRun& run) {
  std::vector<std::uint32_t> seqs;
  for (const PacketTrace& t : run.results.packet_traces)
    if (t.node == 0 && t.direction == trace_direction::sent && t.packet.kind == PacketKind::data)
      seqs.push_back(t.packet.seq);
  return seqs;
}

void expect_every_message_delivered(const testing::NetworkRun& run) {
  EXPECT_EQ(run.totals.messages_delivered, 3u);
  EXPECT_EQ(run.totals.bytes_delivered, kStreamBytes);
  ASSERT_EQ(run.results.flows.size(), 3u);
  for (const FlowRecord& f : run.results.flows) {
    EXPECT_EQ(f.bytes, kMessageBytes);
    EXPECT_GT(f.completed_ps, 0) << "message " << f.flow;
  }
}

TEST(TcpLargeStream, ConnectionPastTwoTo32BytesDeliversEveryByte) {
  const auto run = run_network(large_stream(TcpRecovery::newreno, false));
  expect_every_message_delivered(run);
  const FlowRecord& connection = run.results.flows[2];  // carries the connection's counters
  EXPECT_EQ(connection.segments_sent, kSegments);
  EXPECT_EQ(connection.retransmitted_segments, 0u);
  EXPECT_EQ(connection.timeouts, 0u);
  // host0's NIC put every byte on the wire once (plain_format: no headers; the SYN and the
  // handshake's ACK add their control bytes).
  std::uint64_t wire_bytes = 0;
  for (const PortRecord& p : run.results.ports)
    if (p.node == 0) wire_bytes += p.bytes_sent;
  EXPECT_GE(wire_bytes, kStreamBytes);
  EXPECT_LT(wire_bytes, kStreamBytes + 1000);
}

// On the wire the sequence numbers wrap as RFC 793's do (what the pcap writer prints): the
// segment at offset 4,294,000,000 keeps its number, the next one starts again near 0.
TEST(TcpLargeStream, WireSequenceNumbersWrap) {
  const auto run = run_network(large_stream(TcpRecovery::newreno, false));
  const std::vector<std::uint32_t> seqs = sent_data_seqs(run);
  ASSERT_EQ(seqs.size(), kSegments);
  for (std::size_t i = 0; i < seqs.size(); ++i)
    ASSERT_EQ(seqs[i], static_cast<std::uint32_t>(i * kMss)) << "segment " << i;
  EXPECT_EQ(seqs[4294], kStraddlingSeq);
  EXPECT_EQ(seqs[4295], kFirstWrappedSeq);
}

// A segment is lost, either the one that straddles 2^32 (the duplicate ACKs and SACK blocks
// above it carry wrapped numbers while snd_una has not wrapped) or the first one past it: every
// recovery repairs it without a timeout.
struct LossCase {
  TcpRecovery recovery;
  bool sack;
  std::uint32_t dropped_seq;
};

class TcpLargeStreamLoss : public ::testing::TestWithParam<LossCase> {};

TEST_P(TcpLargeStreamLoss, LossAroundTheWrapIsRepaired) {
  NetworkSpec spec = large_stream(GetParam().recovery, GetParam().sack);
  spec.drops.push_back(PacketDrop{0, GetParam().dropped_seq});
  const auto run = run_network(spec);
  expect_every_message_delivered(run);
  const FlowRecord& connection = run.results.flows[2];
  EXPECT_EQ(connection.fast_retransmits, 1u);
  EXPECT_EQ(connection.timeouts, 0u);
  EXPECT_GE(connection.retransmitted_segments, 1u);
  const std::vector<std::uint32_t> seqs = sent_data_seqs(run);
  EXPECT_EQ(std::count(seqs.begin(), seqs.end(), GetParam().dropped_seq), 2);
}

std::vector<LossCase> loss_cases() {
  std::vector<LossCase> cases;
  for (std::uint32_t seq : {kStraddlingSeq, kFirstWrappedSeq}) {
    cases.push_back({TcpRecovery::newreno, false, seq});
    cases.push_back({TcpRecovery::sack_6675, true, seq});
    cases.push_back({TcpRecovery::prr, true, seq});
    cases.push_back({TcpRecovery::ns3_classic, false, seq});
  }
  return cases;
}

std::string loss_case_name(const ::testing::TestParamInfo<LossCase>& info) {
  static constexpr const char* kNames[] = {"newreno", "sack_6675", "prr", "ns3_classic"};
  return std::string(kNames[static_cast<int>(info.param.recovery)]) +
         (info.param.dropped_seq == kStraddlingSeq ? "_straddling" : "_wrapped");
}

INSTANTIATE_TEST_SUITE_P(Recoveries, TcpLargeStreamLoss, ::testing::ValuesIn(loss_cases()),
                         loss_case_name);

TEST(TcpUnwrap, TakesTheOffsetNearestTheReference) {
  EXPECT_EQ(tcp_unwrap(100, 0), 100u);
  EXPECT_EQ(tcp_unwrap(5, kTwoTo32 - 10), kTwoTo32 + 5);            // ahead, past the wrap
  EXPECT_EQ(tcp_unwrap(0xFFFFFFF0u, kTwoTo32 + 5), kTwoTo32 - 16);  // behind, before it
  EXPECT_EQ(tcp_unwrap(7, 3 * kTwoTo32 + 1), 3 * kTwoTo32 + 7);
  EXPECT_EQ(tcp_unwrap(0xFFFFFFF0u, 4), 0xFFFFFFF0u);  // never below the stream's start
  TcpSackBlocks blocks;
  blocks.count = 1;
  blocks.block[0] = TcpRange{10, 20};
  EXPECT_EQ(tcp_unwrap(blocks, kTwoTo32 - 100).block[0], (TcpRange{kTwoTo32 + 10, kTwoTo32 + 20}));
}

// The digest's fixed buffers: what fits is hashed, one value more is a failed check naming
// the buffer, never a write past it.
TEST(TcpLegacyBytesDeathTest, PastTheBufferIsACheckNotAnOverflow) {
  TcpLegacyBytes b;
  for (int i = 0; i < 64; ++i) b.put(std::uint64_t{1});  // 512 bytes: full
  EXPECT_DEATH(b.put(std::uint8_t{1}), "TcpLegacyBytes: 1 more bytes do not fit");
}

TEST(TcpLegacyBytesDeathTest, MoreOffsetsThanHighHalvesIsACheck) {
  TcpLegacyBytes b;
  for (int i = 0; i < 24; ++i) b.put_seq(TcpSeq{1} << 33);
  EXPECT_DEATH(b.put_seq(0), "TcpLegacyBytes: more than 24 offsets");
}

}  // namespace
}  // namespace netwarp::netmodels
