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

// Frames under 1 MiB take a 64-bit path; it must round as the 128-bit one does, on both sides
// of the switch-over and for rates that do not divide.
TEST(SerialisationTime, SixtyFourBitPathMatchesTheExactQuotient) {
  __extension__ using U128 = unsigned __int128;
  const std::uint64_t edge = std::uint64_t{1} << 20;
  for (const std::uint64_t bytes : {std::uint64_t{1}, std::uint64_t{1106}, edge - 1, edge})
    for (const std::uint64_t rate : {std::uint64_t{3}, gbps(100), std::uint64_t{99'999'999'989},
                                     (std::uint64_t{1} << 62) - 1}) {
      const U128 exact = (U128{bytes} * 8'000'000'000'000u + rate - 1) / rate;
      EXPECT_EQ(serialisation_time(bytes, rate).ps(), static_cast<std::int64_t>(exact))
          << bytes << " bytes at " << rate << " bit/s";
    }
}

}  // namespace
}  // namespace netwarp::netmodels
