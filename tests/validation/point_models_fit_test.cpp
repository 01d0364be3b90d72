// Hockney and LogGP fits on curves made by hand from known parameters.
#include <gtest/gtest.h>

#include "netwarp/validation/point_models_fit.hpp"

namespace netwarp::validation {
namespace {

constexpr double kTol = 1e-6;

TEST(HockneyFit, RecoversAlphaAndBeta) {
  // alpha = 5000, beta = 0.1: RTT(k) = 2(5000 + 0.1 k).
  LogGpsSamples in{
      .s = 1024, .S = 16384, .W_ns = 1e6, .rtt_w0 = {}, .rtt_wW = {}, .send = {}, .nic_shared = {}};
  for (const std::uint64_t k : {0, 1000, 10000, 100000})
    in.rtt_w0.push_back({k, 2 * (5000 + 0.1 * static_cast<double>(k))});
  const auto fit = fit_hockney(in);
  EXPECT_NEAR(fit.params.alpha, 5000, kTol);
  EXPECT_NEAR(fit.params.beta, 0.1, 1e-12);
  EXPECT_EQ(fit.report.residuals.size(), 4u);
  EXPECT_LT(fit.report.max_abs_error_pct, 1e-9);
}

TEST(LogGpFit, OverheadFromSendCallsAndLatencyAndGFromTheRoundTrip) {
  // o = 2000, L = 1000, G = 0.5: send calls cost 2000; RTT(k) = 2(2o + L + (k - 1)G), k >= 1.
  LogGpsSamples in{
      .s = 1024, .S = 16384, .W_ns = 1e6, .rtt_w0 = {}, .rtt_wW = {}, .send = {}, .nic_shared = {}};
  in.send = {{0, 2000}, {100, 2000}, {1000, 2000}};
  in.rtt_w0 = {{0, 10000}, {1, 10000}, {1001, 11000}, {10001, 20000}};
  auto fit = fit_loggp(in);
  EXPECT_NEAR(fit.params.o, 2000, kTol);
  EXPECT_NEAR(fit.params.L, 1000, kTol);
  EXPECT_NEAR(fit.params.G, 0.5, 1e-12);
  EXPECT_NEAR(fit.params.g, 2000, kTol);  // no burst: g = o
  EXPECT_EQ(fit.report.notes.front(), "no burst measured: g = o");
  fit = fit_loggp(in, BurstSample{10, 35000});
  EXPECT_NEAR(fit.params.g, 3500, kTol);
}

TEST(LogGpFit, NegativeLatencyIsFixedAtZeroAndTheFileReadsBack) {
  // o = 2000 from the send calls; RTT/2 - 2o = -500 + 1.0 (k - 1) would need L = -500. With
  // L = 0 the weighted refit of G alone stays close to 1 and positive.
  LogGpsSamples in{
      .s = 1024, .S = 16384, .W_ns = 1e6, .rtt_w0 = {}, .rtt_wW = {}, .send = {}, .nic_shared = {}};
  in.send = {{0, 2000}, {512, 2000}};
  for (const std::uint64_t k : {1001, 5001, 20001})
    in.rtt_w0.push_back({k, 2 * (4000 - 500 + static_cast<double>(k - 1))});
  const auto fit = fit_loggp(in);
  EXPECT_EQ(fit.params.L, 0);
  EXPECT_GT(fit.params.G, 0.9);
  EXPECT_LT(fit.params.G, 1.0);
  EXPECT_NE(fit.report.notes.front().find("L came out negative"), std::string::npos);
  // Hockney on a curve falling with k: beta is fixed at 0, alpha is the weighted mean.
  LogGpsSamples falling{
      .s = 1024, .S = 16384, .W_ns = 1e6, .rtt_w0 = {}, .rtt_wW = {}, .send = {}, .nic_shared = {}};
  falling.rtt_w0 = {{0, 2000}, {1000, 2000 - 1e-3}};
  const auto h = fit_hockney(falling);
  EXPECT_EQ(h.params.beta, 0);
  EXPECT_NEAR(h.params.alpha, 1000, 1e-3);
}

TEST(PointModelsFit, TooFewPointsIsAClearError) {
  LogGpsSamples in{.s = 1024,
                   .S = 16384,
                   .W_ns = 1e6,
                   .rtt_w0 = {{64, 9000}},
                   .rtt_wW = {},
                   .send = {},
                   .nic_shared = {}};
  try {
    fit_hockney(in);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "hockney fit: too few points: RTT at w = 0 needs at least 2 sizes, got 1");
  }
  in.rtt_w0.push_back({128, 9100});
  in.send = {{0, 2000}};
  EXPECT_THROW(fit_loggp(in), std::invalid_argument);  // one MPI_Send size
}

}  // namespace
}  // namespace netwarp::validation
