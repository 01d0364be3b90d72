// Serialisation time: exact where the rate divides, rounded up where it does not.
#include <gtest/gtest.h>

#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {
namespace {

TEST(SerialisationTime, IsExactForWholeNanosecondRates) {
  EXPECT_EQ(serialisation_time(1500, gbps(1)).ps(), 12'000'000);  // 12 us
  EXPECT_EQ(serialisation_time(1500, gbps(8)).ps(), 1'500'000);   // 1 GB/s
  EXPECT_EQ(serialisation_time(0, gbps(1)).ps(), 0);
}

TEST(SerialisationTime, RoundsUpToTheNextPicosecond) {
  EXPECT_EQ(serialisation_time(1, 3'000'000'000'000).ps(), 3);  // 8/3 ps -> 3
  EXPECT_EQ(serialisation_time(1, gbps(100)).ps(), 80);
}

TEST(SerialisationTime, DoesNotOverflowForLargeMessages) {
  // 1 TiB at 1 bit/s would overflow 64-bit arithmetic in bits * 1e12.
  EXPECT_EQ(serialisation_time(std::uint64_t{1} << 30, gbps(1)).ps(),
            std::int64_t{8} * (std::int64_t{1} << 30) * 1000);
}

}  // namespace
}  // namespace netwarp::netmodels
