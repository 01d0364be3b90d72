// DCTCP (netmodels/src/transport/dctcp.cpp, tcp_receiver.cpp) against RFC 8257: alpha after a
// known marking pattern (section 3.3), the window after an ECN echo, the once-per-window rule,
// and the receiver's exact CE echo with delayed ACKs (section 3.2).
#include "transport/dctcp.hpp"

#include <gtest/gtest.h>

#include "transport/congestion_state.hpp"

namespace netwarp::netmodels {
namespace {

namespace dctcp = tcp_cc::dctcp;

constexpr double kG = 1.0 / 16;

// Four observation windows of 10 segments marked 0, 5, 10 and 2 times (M = 0, 0.5, 1, 0.2).
TEST(DctcpAlpha, FollowsTheMarkedFractionPerWindow) {
  dctcp::State d;  // alpha starts at 1
  d.window_end = 9000;
  std::uint32_t ack = 0;
  double expected = 1;
  for (int marked : {0, 5, 10, 2}) {
    for (int i = 0; i < 10; ++i) {
      ack += 1000;
      dctcp::observe_ack(d, 1000, i < marked, ack, ack + 9000, kG);  // snd_nxt 9 segments on
    }
    expected = (1 - kG) * expected + kG * marked / 10.0;
    EXPECT_DOUBLE_EQ(d.alpha, expected) << marked << " marked";
    EXPECT_EQ(d.bytes_acked, 0u);
  }
  EXPECT_NEAR(d.alpha, 0.87104, 1e-5);  // by hand: 0.9375, 0.91016, 0.91577, 0.87104
}

TEST(DctcpAlpha, AcksInsideTheWindowOnlyCount) {
  dctcp::State d;
  d.window_end = 10'000;
  dctcp::observe_ack(d, 4000, true, 4000, 20'000, kG);
  EXPECT_EQ(d.alpha, 1);
  EXPECT_EQ(d.bytes_acked, 4000u);
  EXPECT_EQ(d.bytes_marked, 4000u);
}

TEST(DctcpWindow, EchoCutsByHalfAlpha) {
  EXPECT_EQ(dctcp::reduced_cwnd(100'000, 0.5, 1000), 75'000u);
  EXPECT_EQ(dctcp::reduced_cwnd(100'000, 1, 1000), 50'000u);
  EXPECT_EQ(dctcp::reduced_cwnd(3000, 1, 1000), 2000u);  // at least 2 SMSS
}

class DctcpSenderTest : public ::testing::Test {
 protected:
  static constexpr std::uint32_t kMss = 1000;
  DctcpSenderTest() {
    config.congestion_control = CongestionControl::dctcp;  // no `ecn` needed
    s = tcp_open(config, 1'000'000, kMss, SimTime::zero(), out);
  }
  void ack(std::uint32_t a, bool ece) { tcp_on_ack(s, config, a, ece, engine::us(100), out); }
  TcpConfig config;
  TcpSenderState s;
  TcpSenderActions out;
};

// The first ACK closes the first window (WindowEnd = SND.UNA at the start) unmarked: alpha =
// 15/16. The next window (up to the snd_nxt then, 10 000) holds ACKs 2000..11000, half marked.
TEST_F(DctcpSenderTest, AlphaAndWindowAfterAMarkedWindow) {
  ack(1000, false);
  EXPECT_DOUBLE_EQ(dctcp::alpha(s), 15.0 / 16);
  EXPECT_EQ(s.cwnd, 11'000u);  // slow start
  ack(2000, true);             // reduces at once, with alpha 15/16
  EXPECT_EQ(s.cwnd, 5843u);    // 11 000 (1 - 15/32), truncated
  EXPECT_EQ(s.ssthresh, 5843u);
  const std::uint64_t reduced = s.cwnd;
  for (std::uint32_t a = 3000; a <= 11'000; a += 1000) ack(a, a <= 6000);
  EXPECT_DOUBLE_EQ(dctcp::alpha(s), 15.0 / 16 * 15 / 16 + 0.5 / 16);
  EXPECT_GT(s.cwnd, reduced);  // one reduction per window: the other marks did not cut again
}

// Delayed ACK, every second segment: the ACK before a CE flip leaves at once with the old state.
TEST(DctcpReceiver, EchoesTheCeStateExactlyWithDelayedAcks) {
  TcpConfig config;
  config.congestion_control = CongestionControl::dctcp;
  config.delayed_ack = true;
  TcpReceiverState r = tcp_accept(10'000);
  TcpRangeMap ooo;
  TcpReceiverActions out;
  const SimTime now = engine::us(1);
  tcp_on_segment(r, config, ooo, 0, 1000, false, now, out);
  EXPECT_FALSE(out.send_ack);
  const TcpTimerRequest timer = out.timer;
  tcp_on_segment(r, config, ooo, 1000, 1000, true, now, out);  // flip to CE
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 1000u);  // the unmarked segment, unmarked
  EXPECT_FALSE(out.ece);
  tcp_on_segment(r, config, ooo, 2000, 1000, true, now, out);
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 3000u);
  EXPECT_TRUE(out.ece);
  tcp_on_segment(r, config, ooo, 3000, 1000, true, now, out);
  EXPECT_FALSE(out.send_ack);
  tcp_on_segment(r, config, ooo, 4000, 1000, false, now, out);  // flip back
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 4000u);
  EXPECT_TRUE(out.ece);
  tcp_on_delayed_ack_timer(r, config, timer.generation, timer.at, out);
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 5000u);
  EXPECT_FALSE(out.ece);  // the state is echoed, not latched until the next ACK
}

}  // namespace
}  // namespace netwarp::netmodels
