// The least-squares solver behind the fits: exact and over-determined systems, rank checks.
#include <gtest/gtest.h>

#include "fit/least_squares.hpp"

namespace netwarp::validation::fit {
namespace {

TEST(LeastSquares, SolvesAnOverdeterminedLineOfVeryDifferentScales) {
  // y = 7000 + 0.04 x, exact at x = 0, 1e5, 1e6: unknowns 1e5 apart in size come back.
  const std::vector<std::vector<double>> rows{{1, 0}, {1, 1e5}, {1, 1e6}};
  const auto exact = solve_least_squares(rows, {7000, 11000, 47000});
  ASSERT_EQ(exact.x.size(), 2u);
  EXPECT_NEAR(exact.x[0], 7000, 1e-9);
  EXPECT_NEAR(exact.x[1], 0.04, 1e-15);
  // Over-determined: the constant closest to 1 and 3 is their mean.
  const auto mean = solve_least_squares({{1}, {1}}, {1, 3});
  EXPECT_NEAR(mean.x[0], 2, 1e-15);
}

TEST(LeastSquares, ReportsTheColumnThatDependsOnTheOthers) {
  // Column 2 = column 0 + column 1.
  const auto s = solve_least_squares({{1, 0, 1}, {0, 1, 1}, {1, 1, 2}, {2, 1, 3}}, {1, 2, 3, 4});
  EXPECT_TRUE(s.x.empty());
  EXPECT_EQ(s.rank, 2u);
  EXPECT_EQ(s.dependent.size(), 1u);
  EXPECT_THROW(solve_least_squares({}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace netwarp::validation::fit
