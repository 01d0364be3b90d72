// PlogP tables and message times worked by hand. Times in ns, sizes in bytes.
#include <gtest/gtest.h>

#include "netwarp/validation/plogp.hpp"

namespace netwarp::validation {
namespace {

constexpr double kTol = 1e-9;

TEST(PlogpTable, InterpolatesBetweenPointsGivenInAnyOrder) {
  const Table t({{1024, 10000}, {0, 2000}, {4096, 22000}});
  EXPECT_EQ(t.points().front().m, 0u);
  EXPECT_NEAR(t(0), 2000, kTol);
  EXPECT_NEAR(t(512), 6000, kTol);  // 2000 + 512 * 8000 / 1024
  EXPECT_NEAR(t(1024), 10000, kTol);
  EXPECT_NEAR(t(2048), 14000, kTol);  // 10000 + 1024 * 12000 / 3072
  EXPECT_NEAR(t(4096), 22000, kTol);
}

TEST(PlogpTable, ExtrapolatesAlongTheNearestSegment) {
  const Table t({{1024, 10000}, {0, 2000}, {4096, 22000}});
  EXPECT_NEAR(t(8192), 38000, kTol);  // 22000 + 4096 * 3.90625
  const Table from_100({{100, 1000}, {200, 1500}});
  EXPECT_NEAR(from_100(0), 500, kTol);  // 1000 - 100 * 5
}

TEST(PlogpTable, OnePointIsConstantAndBadTablesThrow) {
  const Table one({{64, 700}});
  EXPECT_NEAR(one(0), 700, kTol);
  EXPECT_NEAR(one(1 << 20), 700, kTol);
  EXPECT_THROW(Table().at(5), std::invalid_argument);
  EXPECT_THROW(Table({{8, 1}, {8, 2}}), std::invalid_argument);
}

TEST(Plogp, OneMessageIsLPlusG) {
  const PlogpParams p{.L = 3000,
                      .o_s = Table({{0, 1000}}),
                      .o_r = Table({{0, 900}}),
                      .g = Table({{0, 2000}, {1024, 10000}})};
  EXPECT_NEAR(message_time(p, 512), 9000, kTol);      // 3000 + 6000
  EXPECT_NEAR(rtt(p, 512), 18000, kTol);              // 2(L + g)
  EXPECT_NEAR(back_to_back(p, 4, 512), 27000, kTol);  // 4 * 6000 + 3000
  EXPECT_NEAR(send_time(p, 512), 1000, kTol);
  EXPECT_NEAR(recv_time(p, 512), 900, kTol);
}

}  // namespace
}  // namespace netwarp::validation
