// Kielmann's PlogP procedure and the PlogP-BR pattern gap, on numbers worked by hand.
#include <gtest/gtest.h>

#include "netwarp/validation/plogp_fit.hpp"

namespace netwarp::validation {
namespace {

constexpr double kTol = 1e-9;

// Made from L = 3000, g(0) = 2000, g(1024) = 10000, g(4096) = 22000:
// burst 10 * 2000; RTT(0) = 2(3000 + 2000); RTT(m, 0) = 2L + g(m) + g(0).
PlogpSamples kielmann_samples() {
  return {.burst_count = 10,
          .burst_ns = 20000,
          .rtt0_ns = 10000,
          .sizes = {{1024, 18000, 1500, 1200}, {4096, 30000, 3000, 2500}}};
}

TEST(PlogpFit, FollowsKielmannsProcedure) {
  const ModelFit<PlogpParams> fit = fit_plogp(kielmann_samples());
  EXPECT_NEAR(fit.params.L, 3000, kTol);
  ASSERT_EQ(fit.params.g.points().size(), 3u);  // g(0) from the burst, then the sizes
  EXPECT_NEAR(fit.params.g(0), 2000, kTol);
  EXPECT_NEAR(fit.params.g(1024), 10000, kTol);
  EXPECT_NEAR(fit.params.g(4096), 22000, kTol);
  EXPECT_NEAR(fit.params.o_s(1024), 1500, kTol);
  EXPECT_NEAR(fit.params.o_r(4096), 2500, kTol);
  EXPECT_EQ(fit.report.notes.size(), 2u);
  EXPECT_TRUE(fit.report.residuals.empty());
}

TEST(PlogpFit, RejectsInconsistentMeasurements) {
  PlogpSamples in = kielmann_samples();
  in.rtt0_ns = 3000;  // L = 1500 - 2000 < 0
  EXPECT_THROW(fit_plogp(in), std::invalid_argument);
  in = kielmann_samples();
  in.sizes[0].rtt_m0_ns = 7000;  // g(1024) = 7000 - 6000 - 2000 < 0
  EXPECT_THROW(fit_plogp(in), std::invalid_argument);
  in = kielmann_samples();
  in.sizes.push_back(in.sizes[0]);
  EXPECT_THROW(fit_plogp(in), std::invalid_argument);
  in = kielmann_samples();
  in.sizes.clear();
  EXPECT_THROW(fit_plogp(in), std::invalid_argument);
}

TEST(PlogpFit, PatternGapFromConcurrentPingPongs) {
  // T_Ce = 2(3000 + 10000) = 26000 at m = 1024; with T_C = 39000 the pattern's gap is
  // 1.5 * 13000 - 3000 = 16500.
  const PlogpParams base = fit_plogp(kielmann_samples()).params;
  std::vector<std::string> notes;
  const Table g = fit_pattern_gap(base, {{1024, 39000, 26000}}, "xor1", notes);
  EXPECT_NEAR(g(1024), 16500, kTol);
  EXPECT_TRUE(notes.empty());
  EXPECT_THROW(fit_pattern_gap(base, {}, "xor1", notes), std::invalid_argument);
}

TEST(PlogpFit, PatternGapIsConstrainedToZeroAndNamedWhenEq3GoesNegative) {
  // T_C = 2000 << T_Ce = 26000 (pairs sharing a host): eq (3) gives
  // 2000 / 26000 * 13000 - 3000 = -2000; the constrained fit is 0, with a note.
  const PlogpParams base = fit_plogp(kielmann_samples()).params;
  std::vector<std::string> notes;
  const Table g = fit_pattern_gap(base, {{1024, 2000, 26000}}, "xor2", notes);
  EXPECT_EQ(g(1024), 0.0);
  ASSERT_EQ(notes.size(), 1U);
  EXPECT_NE(notes[0].find("g(m = 1024, xor2) came out -2000.00 ns"), std::string::npos) << notes[0];
}

}  // namespace
}  // namespace netwarp::validation
