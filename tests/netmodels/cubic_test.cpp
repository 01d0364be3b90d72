// CUBIC (netmodels/src/transport/cubic.cpp) against RFC 9438: the window function and K
// (section 4.2) at given times in the concave and convex regions, per-ACK growth that follows
// it, the Reno-friendly region (4.3), fast convergence (4.7), and the sender's ssthresh and
// cwnd on loss, ECN echo and timeout (4.6, 4.8).
#include "transport/cubic.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "transport/congestion_state.hpp"

namespace netwarp::netmodels {
namespace {

using tcp_cc::cubic::Params;
using tcp_cc::cubic::State;
namespace cubic = tcp_cc::cubic;

constexpr Params kRfc{0.4, 0.7};

// W_max = 100 segments, cwnd_epoch = 70 (beta 0.7): K = cbrt(30 / 0.4) = cbrt(75) s.
constexpr double kK = 4.217163326508746;

TEST(CubicFunction, KIsTheTimeToRegainWmax) {
  EXPECT_NEAR(cubic::k_seconds(100, 70, kRfc), kK, 1e-12);
  EXPECT_NEAR(cubic::window(kK, kK, 100, kRfc), 100, 1e-12);
  EXPECT_NEAR(cubic::window(0, kK, 100, kRfc), 70, 1e-12);  // starts at cwnd_epoch
}

// Values of 0.4 (t - K)^3 + 100 worked out by hand (a calculator), not by the code.
TEST(CubicFunction, MatchesTheFormulaInTheConcaveAndConvexRegions) {
  EXPECT_NEAR(cubic::window(1, kK, 100, kRfc), 86.68076383512988, 1e-9);   // concave
  EXPECT_NEAR(cubic::window(2, kK, 100, kRfc), 95.64033568663878, 1e-9);   // concave
  EXPECT_NEAR(cubic::window(3, kK, 100, kRfc), 99.27871555452667, 1e-9);   // plateau
  EXPECT_NEAR(cubic::window(5, kK, 100, kRfc), 100.1918993394395, 1e-9);   // convex
  EXPECT_NEAR(cubic::window(7, kK, 100, kRfc), 108.62031518986836, 1e-9);  // convex
}

TEST(CubicFunction, TargetIsClampedToOneAndAHalfWindows) {
  EXPECT_EQ(cubic::target(80, 70), 80);    // never below cwnd
  EXPECT_EQ(cubic::target(80, 100), 100);  // W_cubic(t + RTT)
  EXPECT_EQ(cubic::target(80, 200), 120);  // at most 1.5 cwnd
  EXPECT_NEAR(cubic::reno_friendly_alpha(kRfc), 0.9 / 1.7, 1e-15);
}

// An epoch after a loss at W_max = 100 (cwnd_epoch = 70) run for `rounds` RTTs, one ACK per
// segment, the ACKs of a window spread over its RTT.
struct Epoch {
  State c;
  double cwnd = 70;
  double t_s = 0;
};
Epoch run_epoch(int rounds, double rtt_s) {
  Epoch e;
  e.c.w_max = 100;
  e.c.cwnd_prior = 100;
  cubic::start_epoch(e.c, e.cwnd, 0, kRfc);
  for (int round = 0; round < rounds; ++round) {
    const double acks = std::floor(e.cwnd);
    for (int i = 0; i < acks; ++i) {
      e.cwnd = cubic::on_ack(e.c, e.cwnd, 1, e.t_s, rtt_s, kRfc);
      e.t_s += rtt_s / acks;
    }
  }
  return e;
}

// RTT 200 ms: slow enough that W_est stays below the curve (not Reno-friendly).
TEST(CubicGrowth, PerAckGrowthFollowsTheCubicCurve) {
  for (int rounds : {5, 10, 15, 25, 30, 35}) {  // t = 1, 2, 3 s (concave), 5, 6, 7 s (convex)
    const Epoch e = run_epoch(rounds, 0.2);
    EXPECT_NEAR(e.cwnd, cubic::window(e.t_s, kK, 100, kRfc), 0.005 * e.cwnd) << "t = " << e.t_s;
    EXPECT_GT(cubic::window(e.t_s, kK, 100, kRfc), e.c.w_est);  // not Reno-friendly
  }
}

// With a 1 ms RTT the cubic curve barely leaves cwnd_epoch in 20 ms, while W_est gains
// alpha_cubic segments per RTT: cwnd follows W_est, 70 + 20 * 0.529 (section 4.3).
TEST(CubicGrowth, ShortRttGrowsLikeRenoWithAlphaCubic) {
  const Epoch e = run_epoch(20, 0.001);
  EXPECT_LT(cubic::window(e.t_s, kK, 100, kRfc), 71);
  EXPECT_NEAR(e.cwnd, 70 + 20 * 0.9 / 1.7, 0.3);
  EXPECT_EQ(e.cwnd, e.c.w_est);
}

// Once W_est reaches cwnd_prior it grows by one segment per RTT, as Reno.
TEST(CubicGrowth, RenoFriendlyAlphaBecomesOneAboveCwndPrior) {
  const double at_prior = run_epoch(58, 0.001).cwnd;  // 70 + 58 * 0.529: about 100
  ASSERT_GE(at_prior, 100);
  const double later = run_epoch(78, 0.001).cwnd;
  EXPECT_NEAR(later - at_prior, 20, 0.5);
}

TEST(CubicDecrease, FastConvergenceLowersWmaxBelowThePreviousOne) {
  State c;
  c.w_max = 100;
  cubic::on_congestion_event(c, 80, kRfc);
  EXPECT_NEAR(c.w_max, 80 * 1.7 / 2, 1e-12);  // section 4.7
  EXPECT_EQ(c.cwnd_prior, 80);
  cubic::on_congestion_event(c, 120, kRfc);
  EXPECT_EQ(c.w_max, 120);
}

class CubicSenderTest : public ::testing::Test {
 protected:
  static constexpr std::uint32_t kMss = 1000;
  CubicSenderTest() {
    config.congestion_control = CongestionControl::cubic;
    s = tcp_open(config, 1'000'000, kMss, SimTime::zero(), out);  // 10 segments in flight
  }
  TcpConfig config;
  TcpSenderState s;
  TcpSenderActions out;
};

// Section 4.6: ssthresh = 0.7 FlightSize; RFC 6582 then inflates by 3 segments.
TEST_F(CubicSenderTest, FastRetransmitCutsToBetaOfTheFlight) {
  for (int i = 0; i < 3; ++i) tcp_on_ack(s, config, 0, false, engine::us(10), out);
  EXPECT_EQ(s.ssthresh, 7000u);
  EXPECT_EQ(s.cwnd, 10000u);
  const State c = tcp_cc::load_state<State>(s.congestion);
  EXPECT_EQ(c.w_max, 10);
  EXPECT_EQ(c.cwnd_prior, 10);
}

// Section 4.8: cwnd 1 SMSS, ssthresh by beta_cubic, and the next epoch starts from K = 0.
TEST_F(CubicSenderTest, TimeoutKeepsBetaAndResetsWmax) {
  tcp_on_timer(s, config, out.timer.generation, out.timer.at, out);
  EXPECT_EQ(s.cwnd, kMss);
  EXPECT_EQ(s.ssthresh, 7000u);
  EXPECT_EQ(tcp_cc::load_state<State>(s.congestion).w_max, 0);
}

TEST_F(CubicSenderTest, EcnEchoCutsToBetaOfTheFlight) {
  config.ecn = true;
  tcp_on_ack(s, config, 1000, true, engine::us(10), out);
  EXPECT_EQ(s.ssthresh, 6300u);  // 0.7 of the 9 segments still in flight
  EXPECT_EQ(s.cwnd, 6300u);
}

}  // namespace
}  // namespace netwarp::netmodels
