// LogGPS parameter fit: curves generated from known parameters come back within 0.1 %;
// rank-deficient, inconsistent and too small inputs are reported.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "netwarp/validation/loggps_fit.hpp"

namespace netwarp::validation {
namespace {

// Sizes across the three regimes of a library with limits s and S.
std::vector<std::uint64_t> sizes_for(std::uint64_t s, std::uint64_t S) {
  std::vector<std::uint64_t> sizes{0, 64, 512, s / 2, s};
  if (S > s) sizes.insert(sizes.end(), {s + 1, (s + S) / 2, S});
  sizes.insert(sizes.end(), {S + 1, S + 4000, 2 * S, 65536});
  return sizes;
}

LogGpsSamples samples_from(const LogGpsParams& p, double W) {
  LogGpsSamples in{
      .s = p.s, .S = p.S, .W_ns = W, .rtt_w0 = {}, .rtt_wW = {}, .send = {}, .nic_shared = {}};
  for (const std::uint64_t k : sizes_for(p.s, p.S)) {
    in.rtt_w0.push_back({k, loggps::rtt(p, k, 0)});
    in.rtt_wW.push_back({k, loggps::rtt(p, k, W)});
    if (k <= p.S) in.send.push_back({k, loggps::send(p, k, 0)});
  }
  return in;
}

void expect_within(double got, double want, const char* name) {
  const double tolerance = want == 0 ? 1e-9 : 1e-3 * std::fabs(want);
  EXPECT_NEAR(got, want, tolerance) << name;
}

void expect_params_within(const LogGpsParams& got, const LogGpsParams& want) {
  expect_within(got.L, want.L, "L");
  expect_within(got.o, want.o, "o'");
  expect_within(got.Oss, want.Oss, "Oss");
  expect_within(got.Ors, want.Ors, "Ors");
  expect_within(got.Osl, want.Osl, "Osl");
  expect_within(got.Orl, want.Orl, "Orl");
  expect_within(got.Gs, want.Gs, "Gs");
  expect_within(got.Gl, want.Gl, "Gl");
  EXPECT_EQ(got.s, want.s);
  EXPECT_EQ(got.S, want.S);
}

bool has_note(const LogGpsFit& fit, const std::string& part) {
  for (const std::string& note : fit.report.notes)
    if (note.find(part) != std::string::npos) return true;
  return false;
}

TEST(LogGpsFit, RecoversMyrinetFromItsOwnCurves) {
  const LogGpsParams myrinet = loggps_preset("myrinet");
  const LogGpsFit fit = fit_loggps(samples_from(myrinet, 5e5));
  expect_params_within(fit.params, myrinet);
  EXPECT_LT(fit.report.max_abs_error_pct, 1e-6);
  EXPECT_TRUE(fit.report.notes.empty());
  EXPECT_EQ(fit.report.residuals.size(), 2 * 12 + 8u);  // w0, wW, send rows
  EXPECT_EQ(fit.report.residuals.front().series, "w0");
  EXPECT_EQ(fit.report.residuals.back().series, "send");
}

TEST(LogGpsFit, RecoversFastEthernetWithAWLargeEnoughToHideItsNetwork) {
  // Fast Ethernet's network is slow: at k = 5000 the w = W round trip still waits
  // T1 + 2T2' + T3 - W = 617289 ns for W = 5e5 (loggps_test.cpp), so W = 1e7 here.
  const LogGpsParams fast_ethernet = loggps_preset("fast-ethernet");
  const LogGpsFit fit = fit_loggps(samples_from(fast_ethernet, 1e7));
  expect_params_within(fit.params, fast_ethernet);
  EXPECT_TRUE(fit.report.notes.empty());
}

TEST(LogGpsFit, NamesTheSizesForWhichWIsTooSmall) {
  const LogGpsFit fit = fit_loggps(samples_from(loggps_preset("fast-ethernet"), 5e5));
  EXPECT_TRUE(has_note(fit, "W = 500000 ns is too small for k = 16383"));
  EXPECT_TRUE(has_note(fit, "W = 500000 ns is too small for k = 65536"));
  EXPECT_FALSE(has_note(fit, "too small for k = 512:"));
  EXPECT_GT(fit.report.max_abs_error_pct, 1.0);  // the fit cannot follow those points
}

TEST(LogGpsFit, EqualLimitsFixGlAtZeroWithANote) {
  // Cenju-4: s = S = 1028, only Orl + Gl = 0.28 known; the preset already has Gl = 0.
  const LogGpsParams cenju = loggps_preset("cenju4");
  const LogGpsFit fit = fit_loggps(samples_from(cenju, 5e5));
  expect_params_within(fit.params, cenju);
  EXPECT_EQ(fit.params.Gl, 0.0);
  EXPECT_TRUE(has_note(fit, "Gl is fixed at 0 and Orl holds Orl + Gl"));
}

TEST(LogGpsFit, NegativeParameterIsFixedAtZeroAndNoted) {
  // MPI_Send times claiming Oss = 12 while the w = W slope says Oss + Ors = 9.74: Ors would
  // come out near -2.26.
  const LogGpsParams myrinet = loggps_preset("myrinet");
  LogGpsSamples in = samples_from(myrinet, 5e5);
  for (SizePoint& p : in.send) p.ns = myrinet.o + 12.0 * static_cast<double>(p.k);
  const LogGpsFit fit = fit_loggps(in);
  EXPECT_EQ(fit.params.Ors, 0.0);
  EXPECT_TRUE(has_note(fit, "Ors came out negative"));
  for (double v : {fit.params.L, fit.params.o, fit.params.Oss, fit.params.Osl, fit.params.Orl,
                   fit.params.Gs, fit.params.Gl})
    EXPECT_GE(v, 0.0);
}

TEST(LogGpsFit, TooFewPointsIsAClearError) {
  LogGpsSamples in = samples_from(loggps_preset("myrinet"), 5e5);
  std::erase_if(in.rtt_wW, [](const SizePoint& p) { return p.k > 16383; });
  try {
    fit_loggps(in);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "loggps fit: too few points: RTT at w = W with k > S (16383) needs at least 2 "
                 "sizes, got 0");
  }
  in = samples_from(loggps_preset("myrinet"), 5e5);
  in.send.clear();
  EXPECT_THROW(fit_loggps(in), std::invalid_argument);
  in = samples_from(loggps_preset("myrinet"), 5e5);
  in.s = 20000;  // s > S
  EXPECT_THROW(fit_loggps(in), std::invalid_argument);
  in = samples_from(loggps_preset("myrinet"), 5e5);
  in.rtt_w0[3].ns = -1;
  EXPECT_THROW(fit_loggps(in), std::invalid_argument);
}

// A platform whose receiver copies an unexpected eager message once more (the packet MPI's
// unexpected-buffer copy, which LogGPS has no parameter for): the w = W curve then carries it in
// Ors, and the ping-pong alone gives it back from Gl, so Orl takes what Gl lacks. What sharing a
// NIC adds to a round trip, 2 k Gl plus a constant (§3, two messages each way), sets Gl and Orl
// right; the contention rule scales Gl by the number of sharers, so it must be the wire's.
LogGpsParams tree_platform() {
  LogGpsParams p;
  p.L = 2000;
  p.o = 1000;
  p.Oss = 0.05;
  p.Ors = 0.05;
  p.Osl = 0.02;
  p.Orl = 0.02;
  p.Gs = 0.6;
  p.Gl = 0.33;
  p.s = 1024;
  p.S = 16384;
  return p;
}

LogGpsSamples with_unexpected_copy(const LogGpsParams& p, double copy_per_byte) {
  LogGpsSamples in = samples_from(p, 5e5);
  for (SizePoint& point : in.rtt_wW)
    if (point.k <= p.S) point.ns += copy_per_byte * static_cast<double>(point.k);
  return in;
}

void add_nic_points(LogGpsSamples& in, double gl, double constant) {
  for (const std::uint64_t k : {32768, 65536, 98304, 131072}) {
    const double alone = 40000 + 0.75 * static_cast<double>(k);
    in.nic_shared.push_back({k, alone, alone + constant + 2 * gl * static_cast<double>(k)});
  }
}

TEST(LogGpsFit, NicSharingSeparatesGlFromOrl) {
  const LogGpsParams truth = tree_platform();
  LogGpsSamples in = with_unexpected_copy(truth, 0.1);
  const LogGpsFit pingpong_only = fit_loggps(in);
  EXPECT_LT(pingpong_only.params.Gl, 0.9 * truth.Gl);  // what the series is there for
  EXPECT_GT(pingpong_only.params.Orl, 3 * truth.Orl);
  add_nic_points(in, truth.Gl, -8000);
  const LogGpsFit fit = fit_loggps(in);
  expect_within(fit.params.Gl, truth.Gl, "Gl");
  EXPECT_NEAR(fit.params.Orl, truth.Orl, 1e-3);
  expect_within(fit.params.Osl, truth.Osl, "Osl");
  expect_within(fit.params.Oss, truth.Oss, "Oss");
  EXPECT_TRUE(has_note(fit, "Gl = 0.33 ns/byte from what sharing a NIC adds"));
  for (const FitResidual& r : fit.report.residuals) {
    if (r.series == "nic") {
      EXPECT_NEAR(r.error_pct, 0, 1e-6) << r.k;
    }
  }
}

TEST(LogGpsFit, NicSharingWithoutGrowthLeavesGlToThePingPong) {
  const LogGpsParams truth = tree_platform();
  LogGpsSamples in = samples_from(truth, 5e5);
  add_nic_points(in, 0, 3000);
  const LogGpsFit fit = fit_loggps(in);
  expect_params_within(fit.params, truth);
  EXPECT_TRUE(has_note(fit, "sharing a NIC adds no time that grows with k"));
}

TEST(LogGpsFit, NicSharingPointsAreChecked) {
  LogGpsSamples in = samples_from(tree_platform(), 5e5);
  in.nic_shared.push_back({16384, 30000, 40000});
  try {
    fit_loggps(in);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "loggps fit: nic point at k = 16384: NIC sharing is measured for k > S (16384) "
                 "only");
  }
  in.nic_shared = {{65536, 30000, 40000}};
  try {
    fit_loggps(in);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "loggps fit: too few points: NIC sharing needs at least 2 sizes, got 1");
  }
  in.nic_shared = {{65536, 30000, 0}, {131072, 50000, 70000}};
  EXPECT_THROW(fit_loggps(in), std::invalid_argument);
}

}  // namespace
}  // namespace netwarp::validation
