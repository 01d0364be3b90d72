// CUBIC as ns-3.37's TcpCubic runs it (netmodels/src/transport/cubic_ns3.cpp), against values
// worked out by hand from tcp-cubic.cc's Update, GetSsThresh, PktsAcked and CubicReset; each
// differs from what RFC 9438 as written (cubic.cpp) gives in the same state.
#include "transport/cubic_ns3.hpp"

#include <gtest/gtest.h>

#include "netwarp/netmodels/tcp.hpp"
#include "transport/congestion_state.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::us;
using tcp_cc::cubic_ns3::State;
namespace cubic_ns3 = tcp_cc::cubic_ns3;

constexpr double kC = 0.4;
constexpr double kBeta = 0.7;
constexpr std::int64_t kRtt = 100'000'000;  // 100 us in ps

TEST(CubicNs3Update, BeforeAnyLossTheCountIsClampedTo20) {
  State c;
  c.has_delay_min = 1;
  c.delay_min_ps = kRtt;
  // K = 0, origin = cwnd: the target is cwnd itself (delta = uint32(0.4 * 1e-12) = 0), so
  // cnt = 100 * cwnd = 1000, clamped to CntClamp while W_max is 0.
  EXPECT_EQ(cubic_ns3::update(c, 10, 5 * kRtt, kC), 20u);
  EXPECT_EQ(c.in_epoch, 1);
  EXPECT_EQ(c.epoch_start_ps, 5 * kRtt);
  EXPECT_EQ(c.origin, 10u);
}

TEST(CubicNs3Update, BelowWmaxTheCountFollowsTheWholeSegmentTarget) {
  State c;
  c.has_delay_min = 1;
  c.delay_min_ps = kRtt;
  c.last_max_cwnd = 100;
  // K = cbrt((100 - 70) / 0.4) = 4.2172 s; t = delay_min = 1e-4 s: delta = uint32(0.4 (K -
  // t)^3) = uint32(29.998) = 29, target = 100 - 29 = 71, cnt = 70 / (71 - 70) = 70.
  EXPECT_EQ(cubic_ns3::update(c, 70, 0, kC), 70u);
  EXPECT_NEAR(c.k_s, 4.217163326508746, 1e-12);
  EXPECT_EQ(c.origin, 100u);
  // One second later: delta = uint32(0.4 * 3.2171^3) = 13, target 87: cnt = 70 / 17 = 4.
  EXPECT_EQ(cubic_ns3::update(c, 70, 1'000'000'000'000, kC), 4u);
  // Past K the target is above W_max; the count never goes below 2.
  EXPECT_EQ(cubic_ns3::update(c, 70, 9'000'000'000'000, kC), 2u);
}

TEST(CubicNs3Ssthresh, FromCwndInWholeSegmentsWithFastConvergence) {
  State c;
  // 33 segments: ssthresh = uint32(33 * 0.7 = 23.1) = 23 (RFC 9438 on a FlightSize of 33
  // segments: 23.1 segments in bytes); W_max = 33.
  EXPECT_EQ(cubic_ns3::ssthresh_segments(c, 33, kBeta), 23u);
  EXPECT_EQ(c.last_max_cwnd, 33u);
  c.in_epoch = 1;
  // Below W_max again: W_max = uint32(20 * 1.7 / 2 = 17); ssthresh uint32(14.0) = 14; the
  // epoch ends.
  EXPECT_EQ(cubic_ns3::ssthresh_segments(c, 20, kBeta), 14u);
  EXPECT_EQ(c.last_max_cwnd, 17u);
  EXPECT_EQ(c.in_epoch, 0);
  EXPECT_EQ(cubic_ns3::ssthresh_segments(c, 2, kBeta), 2u);  // at least 2 segments
}

class CubicNs3SenderTest : public ::testing::Test {
 protected:
  CubicNs3SenderTest() {
    config.recovery = TcpRecovery::ns3_classic;
    config.congestion_control = CongestionControl::cubic;
    config.cubic_reading = CubicReading::ns3;
    config.limited_transmit = false;
  }
  void open(std::uint64_t bytes) { s = tcp_open(config, bytes, kMss, SimTime::zero(), out); }
  void ack(std::uint32_t a, SimTime now) { tcp_on_ack(s, config, a, false, now, out); }
  State state() const { return tcp_cc::load_state<State>(s.congestion); }

  static constexpr std::uint32_t kMss = 1000;
  TcpConfig config;
  TcpSenderState s;
  TcpSenderActions out;
};

TEST_F(CubicNs3SenderTest, FastRetransmitTakesSsthreshFromCwnd) {
  open(100'000);
  ack(1000, us(100));  // slow start: 10 -> 11 segments
  ASSERT_EQ(s.cwnd, 11'000u);
  for (int i = 0; i < 3; ++i) ack(1000, us(110 + i));
  // GetSsThresh: uint32(11 * 0.7 = 7.7) = 7 segments (TcpNewReno: half the pipe + SMSS, 5000).
  EXPECT_EQ(s.fast_retransmits, 1u);
  EXPECT_EQ(s.ssthresh, 7000u);
  EXPECT_EQ(s.cwnd, 7000u);
  EXPECT_EQ(state().last_max_cwnd, 11u);
}

TEST_F(CubicNs3SenderTest, CongestionAvoidanceGrowsOneSegmentPerCountOfAckedSegments) {
  open(1'000'000);
  s.ssthresh = 10'000;  // cwnd 10 segments = ssthresh: congestion avoidance from the first ACK
  // No loss yet: cnt = 20, so cwnd grows by one SMSS on the 20th acknowledged segment.
  for (std::uint32_t i = 1; i < 20; ++i) {
    ack(i * kMss, us(100 + i));
    ASSERT_EQ(s.cwnd, 10'000u) << i;
  }
  ack(20 * kMss, us(120));
  EXPECT_EQ(s.cwnd, 11'000u);
  EXPECT_EQ(state().cwnd_count, 0u);
}

TEST_F(CubicNs3SenderTest, LeastRttIsFrozenForCubicDeltaAfterAnEpochStarts) {
  open(1'000'000);
  s.ssthresh = 10'000;
  ack(1000, us(100));  // the first sample: delay_min = SRTT = 100 us; the epoch starts
  ASSERT_EQ(state().has_delay_min, 1);
  EXPECT_EQ(state().delay_min_ps, us(100).ps());
  const std::int64_t epoch = state().epoch_start_ps;
  s.srtt_ps = us(50).ps();  // a lower SRTT within CubicDelta (10 ms) is not taken
  ack(2000, us(200));
  EXPECT_EQ(state().delay_min_ps, us(100).ps());
  s.srtt_ps = us(50).ps();
  ack(3000, SimTime::from_ps(epoch) + ms(10));
  EXPECT_EQ(state().delay_min_ps, us(50).ps());
}

TEST_F(CubicNs3SenderTest, TimeoutForgetsWmaxAndTheLeastRtt) {
  open(100'000);
  ack(1000, us(100));
  for (int i = 0; i < 3; ++i) ack(1000, us(110 + i));
  ASSERT_EQ(state().last_max_cwnd, 11u);
  tcp_on_timer(s, config, s.timer_generation, ms(300), out);
  EXPECT_EQ(state().last_max_cwnd, 0u);
  EXPECT_EQ(state().has_delay_min, 0);
  EXPECT_EQ(s.cwnd, kMss);
}

}  // namespace
}  // namespace netwarp::netmodels
