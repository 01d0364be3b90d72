// DCQCN's reaction point by hand (Zhu et al., SIGCOMM 2015, Figure 7): the cut by alpha / 2,
// alpha's gain and decay, fast recovery toward the target in F steps, then additive and hyper
// increase, capped at the line rate.
#include "netwarp/netmodels/dcqcn.hpp"

#include <gtest/gtest.h>

namespace netwarp::netmodels {
namespace {

constexpr std::uint64_t kLine = 40'000'000'000;  // 40 Gbit/s, the paper's testbed

TEST(Dcqcn, ACnpCutsByHalfAlphaAndRaisesAlphaByG) {
  const DcqcnConfig c;
  DcqcnRate r = dcqcn_start(kLine);
  EXPECT_EQ(r.alpha, 1.0);
  dcqcn_on_cnp(r, c);
  EXPECT_DOUBLE_EQ(r.rate_bps, kLine / 2.0);  // alpha 1: cut by half
  EXPECT_DOUBLE_EQ(r.target_bps, static_cast<double>(kLine));
  EXPECT_DOUBLE_EQ(r.alpha, 1.0);  // (1 - g) + g
  dcqcn_decay_alpha(r, c, 1);
  EXPECT_DOUBLE_EQ(r.alpha, 1 - c.g);
  dcqcn_on_cnp(r, c);
  EXPECT_DOUBLE_EQ(r.rate_bps, kLine / 2.0 * (1 - (1 - c.g) / 2));
}

TEST(Dcqcn, AlphaDecaysOncePerPeriodWithoutACnp) {
  DcqcnConfig c;
  c.g = 0.5;
  DcqcnRate r = dcqcn_start(kLine);
  dcqcn_decay_alpha(r, c, 0);
  EXPECT_EQ(r.alpha, 1.0);
  dcqcn_decay_alpha(r, c, 3);
  EXPECT_EQ(r.alpha, 0.125);
  dcqcn_decay_alpha(r, c, 5000);  // reaches 0 and stops there
  EXPECT_EQ(r.alpha, 0.0);
}

// With the paper's g = 1/256 alpha never reaches 0: it stops at a subnormal that (1 - g) no
// longer changes. A stream idle for 2^62 periods decays to that value at once (the loop used to
// run once per period: this test would not finish).
TEST(Dcqcn, AlphaDecayStopsWhereItNoLongerChanges) {
  const DcqcnConfig c;
  DcqcnRate r = dcqcn_start(kLine);
  dcqcn_decay_alpha(r, c, std::uint64_t{1} << 62);
  EXPECT_GT(r.alpha, 0.0);
  EXPECT_EQ(r.alpha * (1 - c.g), r.alpha);
  double stepped = 1.0;
  for (int i = 0; i < 200'000; ++i) stepped *= 1 - c.g;  // the same value, period by period
  EXPECT_EQ(r.alpha, stepped);
}

TEST(Dcqcn, FastRecoveryHalvesTheGapFStepsThenAdditiveThenHyper) {
  DcqcnConfig c;
  DcqcnRate r = dcqcn_start(kLine);
  dcqcn_on_cnp(r, c);
  dcqcn_on_cnp(r, c);  // target: the rate after one cut (20 G), rate 10 G
  const double target = r.target_bps;
  double gap = target - r.rate_bps;
  for (std::uint32_t i = 0; i < c.fast_recovery_steps; ++i) {
    dcqcn_on_rate_timer(r, c, kLine);
    gap /= 2;
    EXPECT_DOUBLE_EQ(r.target_bps, target);
    EXPECT_DOUBLE_EQ(target - r.rate_bps, gap);
  }
  dcqcn_on_rate_timer(r, c, kLine);  // timer count 6 > F, byte count 0: additive
  EXPECT_DOUBLE_EQ(r.target_bps, target + c.rai_bps);
  for (std::uint32_t i = 0; i <= c.fast_recovery_steps; ++i)
    dcqcn_on_sent(r, c, c.byte_counter_bytes, kLine);  // byte count 6 > F too: hyper, i = 1
  EXPECT_DOUBLE_EQ(r.target_bps, target + c.rai_bps * (c.fast_recovery_steps + 1) + c.rhai_bps);
}

TEST(Dcqcn, NeverAboveTheLineRateNorBelowTheMinimum) {
  DcqcnConfig c;
  DcqcnRate r = dcqcn_start(kLine);
  for (int i = 0; i < 200; ++i) dcqcn_on_cnp(r, c);
  EXPECT_DOUBLE_EQ(r.rate_bps, static_cast<double>(c.min_rate_bps));
  for (int i = 0; i < 2000; ++i) dcqcn_on_rate_timer(r, c, kLine);
  EXPECT_DOUBLE_EQ(r.rate_bps, static_cast<double>(kLine));
  EXPECT_DOUBLE_EQ(r.target_bps, static_cast<double>(kLine));
}

}  // namespace
}  // namespace netwarp::netmodels
