// The progress line's text: simulated time in a readable unit, the percentage of end_time done
// (rounded down, so 100% only at the end), an ETA from the wall time so far, and a plain
// statement when the run has no end time.
#include "progress_line.hpp"

#include <gtest/gtest.h>

namespace netwarp::apps {
namespace {

using engine::ms;
using engine::ns;
using engine::SimTime;
using engine::us;

engine::Progress progress(SimTime now, SimTime end, std::uint64_t events, double wall) {
  return engine::Progress{now, end, events, wall};
}

TEST(ProgressLine, PercentIsRoundedDownAndReaches100OnlyAtTheEnd) {
  EXPECT_EQ(percent_done(SimTime{}, ms(10)), 0);
  EXPECT_EQ(percent_done(us(1250), ms(10)), 12);
  EXPECT_EQ(percent_done(us(9999), ms(10)), 99);
  EXPECT_EQ(percent_done(ms(10), ms(10)), 100);
  EXPECT_EQ(percent_done(SimTime::max(), ms(10)), 100);
  // No overflow near the largest times.
  const SimTime almost_max = SimTime::from_ps(SimTime::max().ps() - 1);
  EXPECT_EQ(percent_done(SimTime::from_ps(almost_max.ps() / 3), almost_max), 33);
}

TEST(ProgressLine, SimulatedTimeInTheUnitThatFits) {
  EXPECT_EQ(sim_time_text(ns(850)), "850 ns");
  EXPECT_EQ(sim_time_text(ns(12'500)), "12.5 us");
  EXPECT_EQ(sim_time_text(us(1250)), "1.25 ms");
  EXPECT_EQ(sim_time_text(ms(3500)), "3.5 s");
}

TEST(ProgressLine, EtaInSecondsMinutesOrHours) {
  EXPECT_EQ(eta_text(41.2), "ETA 42 s");
  EXPECT_EQ(eta_text(185), "ETA 3 min 5 s");
  EXPECT_EQ(eta_text(7800), "ETA 2 h 10 min");
}

TEST(ProgressLine, WithAnEndTimeShowsPercentAndEta) {
  // A quarter done in 10 s of wall time: three quarters left take 30 s more.
  EXPECT_EQ(progress_text(progress(us(2500), ms(10), 5'000'000, 10)),
            "[netwarp] t = 2.5 ms of 10 ms (25%), ETA 30 s, 0.50 M events/s");
}

TEST(ProgressLine, WithoutAnEndTimeSaysTheTotalIsUnknown) {
  EXPECT_EQ(progress_text(progress(us(40), SimTime::max(), 1'000'000, 2)),
            "[netwarp] t = 40 us (no end_time: total unknown), 0.50 M events/s");
}

TEST(ProgressLine, AtTheEndShows100PercentAndNoEta) {
  EXPECT_EQ(progress_text(progress(SimTime::max(), ms(10), 0, 0)),
            "[netwarp] t = 10 ms of 10 ms (100%), 0.00 M events/s");
}

}  // namespace
}  // namespace netwarp::apps
