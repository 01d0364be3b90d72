// WorstCaseTime: load-time estimates of bytes at a rate, per-byte costs and sums that saturate
// instead of wrapping; serialisation_time saturates at SimTime::max() for the run-time check.
#include "netwarp/netmodels/time_budget.hpp"

#include <gtest/gtest.h>

#include <cstdint>

#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {
namespace {

TEST(WorstCaseTime, TransferRoundsUpLikeSerialisation) {
  EXPECT_EQ(WorstCaseTime::transfer(1500, gbps(1)).ps(), 12'000'000u);
  EXPECT_EQ(WorstCaseTime::transfer(1, 3'000'000'000'000).ps(), 3u);
}

TEST(WorstCaseTime, TwoMegabytesAtOneBitPerSecondPassTheBudget) {
  const WorstCaseTime time = WorstCaseTime::transfer(2'000'000, 1);
  EXPECT_EQ(time.ps(), 16'000'000'000'000'000'000u);
  EXPECT_FALSE(time.is_within_budget());
}

TEST(WorstCaseTime, ProductsBeyond64BitsSaturate) {
  const WorstCaseTime huge = WorstCaseTime::transfer(UINT64_MAX, 1);
  EXPECT_EQ(huge, WorstCaseTime::too_long());
  EXPECT_EQ(huge + WorstCaseTime::from_ps(1), WorstCaseTime::too_long());
  EXPECT_EQ(WorstCaseTime::from_ps(1u << 20).times(UINT64_MAX), WorstCaseTime::too_long());
  EXPECT_EQ(WorstCaseTime::per_byte(16384, 1e300), WorstCaseTime::too_long());
}

TEST(WorstCaseTime, SumsOfTimesStopAtTheBudget) {
  const WorstCaseTime half = WorstCaseTime::from_ps(kTimeBudgetPs / 2);
  EXPECT_TRUE((half + half).is_within_budget());
  EXPECT_FALSE((half + half + WorstCaseTime::from_ps(1)).is_within_budget());
}

TEST(WorstCaseTime, NegativeOrNonFiniteNanosecondsAreTooLong) {
  EXPECT_EQ(WorstCaseTime::from_ns(-1.0), WorstCaseTime::too_long());
  EXPECT_EQ(WorstCaseTime::from_ns(1.0 / 0.0), WorstCaseTime::too_long());
  EXPECT_EQ(WorstCaseTime::from_ns(0.5).ps(), 500u);
  EXPECT_EQ(WorstCaseTime::from_ns(std::uint64_t{3}).ps(), 3000u);
}

TEST(WorstCaseTime, DescribesItselfInSeconds) {
  EXPECT_EQ(WorstCaseTime::from_ps(kTimeBudgetPs).describe(), "1e+06 s");
  EXPECT_EQ(over_budget(WorstCaseTime::transfer(2'000'000, 1)),
            "1.6e+07 s of simulated time, more than the 1e+06 s (11.6 days) a run can simulate");
}

TEST(SerialisationTime, SaturatesAtSimTimeMaxInsteadOfWrapping) {
  EXPECT_TRUE(serialisation_time(2'000'000, 1).is_max());
  EXPECT_TRUE(serialisation_time(UINT64_MAX, 1).is_max());
  EXPECT_EQ(serialisation_time(1'000'000, 1).ps(), 8'000'000'000'000'000'000);
}

}  // namespace
}  // namespace netwarp::netmodels
