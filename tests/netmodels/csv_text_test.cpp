// CsvBuffer: its numbers are fmt's text, byte for byte (the output files must not change when
// the writers stop formatting each row through a format string).
#include <gtest/gtest.h>

#include <fmt/compile.h>
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "netwarp/netmodels/csv_text.hpp"

namespace netwarp::netmodels {
namespace {

std::string fixed6_text(double value) {
  std::ostringstream out;
  {
    CsvBuffer csv(out);
    csv.fixed6(value);
  }
  return out.str();
}

// Every value through one buffer, one per line, against fmt's text of each.
void expect_as_fmt(const std::vector<double>& values) {
  std::ostringstream out;
  std::string expected;
  {
    CsvBuffer csv(out);
    for (const double v : values) {
      csv.fixed6(v).end_row();
      expected += fmt::format(FMT_COMPILE("{:.6f}\n"), v);
    }
  }
  ASSERT_TRUE(out.str() == expected);
}

TEST(CsvText, Fixed6RoundsHalfwayCasesToEvenAsFmtDoes) {
  // k / 128 is exact in binary and ends in 5 at the seventh decimal for odd k: a true tie.
  EXPECT_EQ(fixed6_text(1.0 / 128), "0.007812");
  EXPECT_EQ(fixed6_text(3.0 / 128), "0.023438");
  std::vector<double> values;
  for (int k = 0; k <= 4096; ++k) values.push_back(k / 128.0);
  expect_as_fmt(values);
}

TEST(CsvText, Fixed6OfBusyFractionsIsFmtsText) {
  // Utilisation as ports_timeseries.csv computes it: busy_ps / interval_ps.
  std::vector<double> values;
  for (const std::int64_t interval : {100'000'000LL, 10'000'000LL, 12'345'679LL})
    for (std::int64_t busy = 0; busy <= interval; busy += interval / 20'000 + 1)
      values.push_back(static_cast<double>(busy) / static_cast<double>(interval));
  expect_as_fmt(values);
}

TEST(CsvText, Fixed6OfAnyDoubleIsFmtsText) {
  std::mt19937_64 random(7);
  std::vector<double> values = {0.0,
                                -0.0,
                                1e-7,
                                4.9999999e-7,
                                5e-7,
                                0.9999995,
                                1.0,
                                4294967295.9999995,
                                4294967296.0,
                                1e300,
                                -2.5,
                                std::numeric_limits<double>::denorm_min(),
                                std::numeric_limits<double>::infinity()};
  for (int i = 0; i < 20'000; ++i) {
    const double unit = static_cast<double>(random() >> 11) * 0x1p-53;
    values.push_back(std::ldexp(unit, static_cast<int>(random() % 64) - 30));
  }
  expect_as_fmt(values);
}

TEST(CsvText, NumbersAndTextAreFmtsText) {
  std::ostringstream out;
  {
    CsvBuffer csv(out);
    csv.number(std::numeric_limits<std::int64_t>::min()).comma();
    csv.number(std::numeric_limits<std::uint64_t>::max()).comma();
    csv.number(std::uint8_t{7}).comma().number(std::uint16_t{65535}).comma().text("sw0");
    csv.end_row();
  }
  EXPECT_EQ(out.str(), fmt::format("{},{},{},{},sw0\n", std::numeric_limits<std::int64_t>::min(),
                                   std::numeric_limits<std::uint64_t>::max(), 7, 65535));
}

TEST(CsvText, NumbersOfEveryLengthAreFmtsText) {
  std::vector<std::uint64_t> values = {0, 1, std::numeric_limits<std::uint64_t>::max()};
  std::uint64_t power = 1;
  for (int digits = 2; digits <= 20; ++digits) {  // 10^19 is the last power below 2^64
    power *= 10;
    values.insert(values.end(), {power - 1, power, power + 1});
  }
  std::mt19937_64 random(11);
  for (int i = 0; i < 20'000; ++i) values.push_back(random() >> (random() % 64));
  std::ostringstream out;
  std::string expected;
  {
    CsvBuffer csv(out);
    for (const std::uint64_t v : values) {
      const auto s = static_cast<std::int64_t>(v);
      csv.number(v).comma().number(s).comma().number(-(s / 2)).comma();
      csv.number(static_cast<std::uint32_t>(v)).comma().number(static_cast<std::int16_t>(v));
      csv.end_row();
      expected += fmt::format("{},{},{},{},{}\n", v, s, -(s / 2), static_cast<std::uint32_t>(v),
                              static_cast<std::int16_t>(v));
    }
  }
  EXPECT_TRUE(out.str() == expected);
}

TEST(CsvText, TextOfEveryShortLengthComesOutWhole) {
  const std::string letters = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::ostringstream out;
  std::string expected;
  {
    CsvBuffer csv(out);
    for (std::size_t length = 0; length <= 40; ++length) {
      const std::string field = letters.substr(length % 7, length);  // not at the start
      csv.text(field).comma().end_row();
      expected += field + ",\n";
    }
  }
  EXPECT_EQ(out.str(), expected);
}

TEST(CsvText, RowsPastTheBufferAndLongTextComeOutWhole) {
  const std::string long_name(3u << 20, 'x');  // longer than the buffer: written through
  std::ostringstream out;
  std::string expected;
  {
    CsvBuffer csv(out);
    for (std::int64_t i = 0; i < 200'000; ++i) {  // about 2.5 MB: the buffer fills twice
      csv.number(i).comma().text("host1").end_row();
      expected += fmt::format("{},host1\n", i);
      if (i == 100'000) {
        csv.text(long_name).end_row();
        expected += long_name + "\n";
      }
    }
  }
  EXPECT_TRUE(out.str() == expected);
}

}  // namespace
}  // namespace netwarp::netmodels
