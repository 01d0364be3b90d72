// Sums of times over ranks and calls are held at the largest int64 with a flag, never wrapped:
// 16 ranks computing 6e5 s each add up to 9.6e18 ps, past what int64 counts.
#include <gtest/gtest.h>

#include <cctype>
#include <limits>

#include "netwarp/mpiemul/mpi_outputs.hpp"
#include "netwarp/mpiemul/mpi_results.hpp"

namespace netwarp::mpiemul {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

TEST(SaturatingSums, AddHoldsAtTheLargestInt64) {
  std::int64_t sum = kMax - 5;
  EXPECT_FALSE(add_saturating(sum, 5));
  EXPECT_EQ(sum, kMax);
  EXPECT_TRUE(add_saturating(sum, 1));
  EXPECT_EQ(sum, kMax);
}

TEST(SaturatingSums, ComputeOfSixteenRanksIsHeldAndFlagged) {
  CallRecord call;
  call.kind = CallKind::compute;
  call.start_ps = 0;
  call.end_ps = 600'000'000'000'000'000;
  call.compute_ps = 600'000'000'000'000'000;
  CallBreakdown rank;
  rank.add(call);
  EXPECT_FALSE(rank.saturated);
  CallBreakdown all;
  for (int r = 0; r < 16; ++r) all.add(rank);
  EXPECT_TRUE(all.saturated);
  EXPECT_EQ(all.compute_ps, kMax);
  EXPECT_EQ(all.total_ps(), kMax);
  MpiTotals totals;
  totals.calls = all;
  totals.ranks.resize(16);
  const std::string summary = format_mpi_summary(totals);
  EXPECT_NE(summary.find("pass what 64 bits count"), std::string::npos) << summary;
  // No wrapped, negative total: no minus sign before a digit anywhere.
  for (std::size_t at = summary.find('-'); at != std::string::npos; at = summary.find('-', at + 1))
    EXPECT_FALSE(at + 1 < summary.size() &&
                 std::isdigit(static_cast<unsigned char>(summary[at + 1])))
        << summary;
}

}  // namespace
}  // namespace netwarp::mpiemul
