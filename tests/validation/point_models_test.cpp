// Hockney, LogP and LogGP times worked by hand. Times in ns.
#include <gtest/gtest.h>

#include "netwarp/validation/point_models.hpp"

namespace netwarp::validation {
namespace {

constexpr double kTol = 1e-9;

TEST(Hockney, IsAlphaPlusKBeta) {
  const HockneyParams h{.alpha = 5000, .beta = 0.1};
  EXPECT_NEAR(message_time(h, 4096), 5409.6, kTol);  // 5000 + 409.6
  EXPECT_NEAR(send_time(h, 4096), 5409.6, kTol);     // no CPU/network split
  EXPECT_NEAR(recv_time(h, 4096), 5409.6, kTol);
  EXPECT_NEAR(rtt(h, 4096), 10819.2, kTol);
  EXPECT_NEAR(back_to_back(h, 3, 4096), 16228.8, kTol);  // 3 * 5409.6
}

TEST(LogGp, MessageTimeCountsBytesAfterTheFirst) {
  const LogGpParams p{.L = 1000, .o = 2000, .g = 3000, .G = 0.5, .P = 2};
  EXPECT_NEAR(message_time(p, 0), 5000, kTol);     // 2o + L
  EXPECT_NEAR(message_time(p, 1), 5000, kTol);     // o + 0 G + L + o
  EXPECT_NEAR(message_time(p, 1001), 5500, kTol);  // + 1000 * 0.5
  EXPECT_NEAR(send_time(p, 1001), 2000, kTol);     // o
  EXPECT_NEAR(recv_time(p, 1001), 5500, kTol);
  EXPECT_NEAR(rtt(p, 1001), 11000, kTol);
}

TEST(LogGp, BackToBackSendsAreTheLargerOfGAndTheSendGapApart) {
  const LogGpParams p{.L = 1000, .o = 2000, .g = 3000, .G = 0.5, .P = 2};
  EXPECT_NEAR(loggp_send_gap(p, 1001), 3000, kTol);  // max(3000, 2000 + 500)
  EXPECT_NEAR(loggp_send_gap(p, 5001), 4500, kTol);  // max(3000, 2000 + 2500)
  // 2 gaps of 4500, then the last message: 2000 + 2500 + 1000 + 2000.
  EXPECT_NEAR(back_to_back(p, 3, 5001), 16500, kTol);
  EXPECT_NEAR(back_to_back(p, 4, 0), 14000, kTol);  // 3 * max(3000, 2000) + 5000
  EXPECT_NEAR(back_to_back(p, 0, 5001), 0, kTol);
}

TEST(LogP, IgnoresTheMessageSize) {
  const LogPParams p{.L = 1000, .o = 2000, .g = 1500, .P = 4};
  EXPECT_NEAR(message_time(p, 0), 5000, kTol);
  EXPECT_NEAR(message_time(p, 100000), 5000, kTol);
  EXPECT_NEAR(send_time(p, 100000), 2000, kTol);
  EXPECT_NEAR(rtt(p, 7), 10000, kTol);
  EXPECT_NEAR(back_to_back(p, 3, 999), 9000, kTol);  // 2 * max(1500, 2000) + 5000
}

}  // namespace
}  // namespace netwarp::validation
