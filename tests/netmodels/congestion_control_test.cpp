// Congestion control end to end (netmodels/src/transport/congestion_control.cpp): incasts through
// one switch with DCTCP (RFC 8257) and CUBIC (RFC 9438), each run by every kernel with equal
// digests (network_fixtures.hpp): DCTCP holds the bottleneck queue near the marking threshold
// without a drop where drop-tail NewReno overflows it; CUBIC recovers its losses and its cwnd
// trace shows the beta_cubic = 0.7 cut where NewReno halves, with NewReno and with RFC 6675
// SACK recovery.
#include <gtest/gtest.h>

#include <algorithm>

#include "network_fixtures.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;
using testing::message;
using testing::run_network;

constexpr NodeId kSenders = 4;
constexpr NodeId kReceiver = kSenders;
constexpr NodeId kSwitch = kSenders + 1;
constexpr std::uint64_t kBufferBytes = 128 * 1024;
constexpr std::uint64_t kThresholdBytes = 30 * 1024;  // DCTCP's K, about 20 packets

// Four senders, 1 MB each, to one receiver at 1 Gbit/s; the receiver's switch port is traced.
NetworkSpec incast(CongestionControl algorithm) {
  NetworkSpec spec;
  spec.topology = testing::star_topology(kSenders + 1, LinkSpec{gbps(1), us(5)});
  spec.switches.buffer_bytes = kBufferBytes;
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.congestion_control = algorithm;
  spec.transport.tcp.min_rto = engine::ms(1);
  for (NodeId s = 0; s < kSenders; ++s)
    spec.workload.messages.push_back(message(s, s, kReceiver, 1'000'000));
  spec.outputs.queue_ports = {PortRef{kSwitch, static_cast<PortIndex>(kReceiver)}};
  spec.outputs.cwnd_trace = true;
  return spec;
}

const PortRecord& bottleneck(const testing::NetworkRun& run) {
  for (const PortRecord& p : run.results.ports)
    if (p.node == kSwitch && p.port == kReceiver) return p;
  throw std::logic_error("no bottleneck port record");
}

// Largest queue once every sender has left its initial window (the first `skip_ps`).
std::uint64_t max_queue_after(const testing::NetworkRun& run, std::int64_t skip_ps) {
  std::uint64_t max_bytes = 0;
  for (const QueueSample& q : run.results.queue_samples)
    if (q.time_ps >= skip_ps) max_bytes = std::max(max_bytes, q.bytes);
  return max_bytes;
}

// Mean of the queue samples while all senders are active, after their initial windows.
double mean_queue_between(const testing::NetworkRun& run, SimTime from, SimTime to) {
  double sum = 0;
  int count = 0;
  for (const QueueSample& q : run.results.queue_samples) {
    if (q.time_ps < from.ps() || q.time_ps >= to.ps()) continue;
    sum += static_cast<double>(q.bytes);
    ++count;
  }
  return count == 0 ? 0 : sum / count;
}

// ssthresh / cwnd at the first reduction of flow 0's window (cwnd trace).
double first_cut_ratio(const testing::NetworkRun& run) {
  std::uint64_t cwnd_before = 0;
  for (const CwndSample& c : run.results.cwnd_samples) {
    if (c.flow != 0) continue;
    if (cwnd_before != 0 && c.cwnd < cwnd_before)
      return static_cast<double>(c.ssthresh) / static_cast<double>(cwnd_before);
    cwnd_before = c.cwnd;
  }
  return 0;
}

TEST(CongestionControlIncast, DropTailNewRenoOverflowsTheBuffer) {
  const auto run = run_network(incast(CongestionControl::new_reno));
  EXPECT_EQ(run.totals.messages_delivered, kSenders);
  EXPECT_GT(bottleneck(run).packets_dropped, 0u);
  EXPECT_GT(max_queue_after(run, engine::ms(2).ps()), kBufferBytes - 2000);
  EXPECT_NEAR(first_cut_ratio(run), 0.5, 0.02);  // RFC 5681 eq. (4)
}

// The same incast with DCTCP and marking at K: no drop, the queue stays about K (RFC 8257 3.1),
// also with delayed ACKs (the receiver's exact CE echo, 3.2).
TEST(CongestionControlIncast, DctcpHoldsTheQueueNearTheThresholdWithoutDrops) {
  for (bool delayed_ack : {false, true}) {
    SCOPED_TRACE(delayed_ack ? "delayed ACK" : "ACK every segment");
    NetworkSpec spec = incast(CongestionControl::dctcp);
    spec.switches.ecn_threshold_bytes = kThresholdBytes;
    spec.transport.tcp.delayed_ack = delayed_ack;
    spec.transport.tcp.delayed_ack_timeout = us(200);  // below the 1 ms min RTO: no spurious RTO
    const auto run = run_network(spec);
    EXPECT_EQ(run.totals.messages_delivered, kSenders);
    EXPECT_EQ(run.totals.packets_dropped, 0u);
    EXPECT_EQ(run.totals.retransmitted_segments, 0u);
    EXPECT_GT(bottleneck(run).ecn_marked, 0u);
    // Past the initial windows: at most two packets per sender above K, on average about K.
    EXPECT_LT(max_queue_after(run, engine::ms(2).ps()), kThresholdBytes + 2 * kSenders * 1538);
    const double mean = mean_queue_between(run, engine::ms(2), engine::ms(28));
    EXPECT_GT(mean, 0.8 * kThresholdBytes);
    EXPECT_LT(mean, 1.2 * kThresholdBytes);
  }
}

// Once alpha has settled below 1, a cut is gentler than halving (cwnd (1 - alpha / 2)).
TEST(CongestionControlIncast, DctcpCutsLessThanHalfOnceAlphaSettles) {
  NetworkSpec spec = incast(CongestionControl::dctcp);
  spec.switches.ecn_threshold_bytes = kThresholdBytes;
  const auto run = run_network(spec);
  double last_ratio = 0;
  std::uint64_t cwnd_before = 0;
  for (const CwndSample& c : run.results.cwnd_samples) {
    if (c.flow != 0) continue;
    if (cwnd_before != 0 && c.cwnd < cwnd_before) {
      last_ratio = static_cast<double>(c.cwnd) / static_cast<double>(cwnd_before);
      EXPECT_GE(last_ratio, 0.5);
    }
    cwnd_before = c.cwnd;
  }
  EXPECT_GT(last_ratio, 0.7);
}

// CUBIC on the drop-tail incast: losses repaired, the first cut to beta_cubic (RFC 9438 4.6).
TEST(CongestionControlIncast, CubicRecoversAndCutsToBetaCubic) {
  const auto run = run_network(incast(CongestionControl::cubic));
  EXPECT_EQ(run.totals.messages_delivered, kSenders);
  EXPECT_GT(run.totals.packets_dropped, 0u);
  EXPECT_GT(run.totals.fast_retransmits, 0u);
  EXPECT_NEAR(first_cut_ratio(run), 0.7, 0.02);
}

// The window rules are the same under RFC 6675 SACK recovery: ssthresh from beta_cubic there too.
TEST(CongestionControlIncast, CubicWithSackRecoveryCutsToBetaCubic) {
  NetworkSpec spec = incast(CongestionControl::cubic);
  spec.transport.tcp.sack = true;
  spec.transport.tcp.recovery = TcpRecovery::sack_6675;
  // Without limited transmit: its two segments join FlightSize (RFC 6675 4.2), which would put
  // the cut at 0.7 x (cwnd + 2 SMSS) rather than 0.7 x cwnd.
  spec.transport.tcp.limited_transmit = false;
  const auto run = run_network(spec);
  EXPECT_EQ(run.totals.messages_delivered, kSenders);
  EXPECT_GT(run.totals.fast_retransmits, 0u);
  EXPECT_NEAR(first_cut_ratio(run), 0.7, 0.02);
}

}  // namespace
}  // namespace netwarp::netmodels
