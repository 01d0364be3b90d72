// The interrupt line's simulated time, written by the signal handler with integer arithmetic.
#include "interrupt.hpp"

#include <gtest/gtest.h>

namespace netwarp::apps {
namespace {

TEST(InterruptLine, TimeInTheLargestUnitWithThreeDecimals) {
  EXPECT_EQ(interrupt::time_text(0), "0.000 ns");
  EXPECT_EQ(interrupt::time_text(999), "0.999 ns");
  EXPECT_EQ(interrupt::time_text(1'250'000'000), "1.250 ms");
  EXPECT_EQ(interrupt::time_text(12'345'678), "12.345 us");
  EXPECT_EQ(interrupt::time_text(3'600'000'000'000'000), "3600.000 s");
  EXPECT_EQ(interrupt::time_text(-5), "0.000 ns");
}

}  // namespace
}  // namespace netwarp::apps
