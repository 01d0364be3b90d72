// OptimismWindow: the adaptive window halves under rollbacks, doubles when they are rare and the
// window held the rank back, judges only samples of enough events, stays within its bounds, and
// a fixed or unbounded one never moves.
#include "optimistic/optimism_window.hpp"

#include <gtest/gtest.h>

namespace netwarp::engine {
namespace {

using Round = OptimismWindow::Round;

constexpr std::uint64_t kSample = OptimismWindow::kSample;
constexpr Round kThrashing{
    .processed = kSample, .rolled_back = kSample / 2, .held_by_window = true};
constexpr Round kCalmAndHeld{.processed = kSample, .rolled_back = 0, .held_by_window = true};

TEST(OptimismWindow, HalvesWhenMoreThanASixteenthOfTheEventsRolledBack) {
  OptimismWindow window(us(8), true);
  window.adapt(Round{.processed = kSample,
                     .rolled_back = kSample / OptimismWindow::kShrinkDivisor + 1,
                     .held_by_window = true});
  EXPECT_EQ(window.width(), us(4));
  window.adapt(kThrashing);
  EXPECT_EQ(window.width(), us(2));
  EXPECT_EQ(window.narrowest(), us(2));
}

TEST(OptimismWindow, KeepsItsWidthBetweenTheThresholds) {
  OptimismWindow window(us(8), true);
  window.adapt(Round{.processed = kSample,
                     .rolled_back = kSample / OptimismWindow::kShrinkDivisor,
                     .held_by_window = true});
  window.adapt(Round{.processed = kSample,
                     .rolled_back = kSample / OptimismWindow::kGrowDivisor + 1,
                     .held_by_window = true});
  EXPECT_EQ(window.width(), us(8));
}

TEST(OptimismWindow, JudgesOnlyOnceTheRoundsHandledASampleOfEvents) {
  OptimismWindow window(us(8), true);
  const Round half_thrashing{.processed = kSample / 2, .rolled_back = kSample / 4};
  window.adapt(half_thrashing);
  EXPECT_EQ(window.width(), us(8));
  window.adapt(half_thrashing);
  EXPECT_EQ(window.width(), us(4));
  window.adapt(half_thrashing);  // a new sample begins after every judgement
  EXPECT_EQ(window.width(), us(4));
}

TEST(OptimismWindow, GrowsByAQuarterOnlyWhenRollbacksAreRareAndTheWindowHeldTheRankBack) {
  OptimismWindow window(us(8), true);
  window.adapt(Round{.processed = kSample, .rolled_back = 0, .held_by_window = false});
  EXPECT_EQ(window.width(), us(8));  // the caps or a lack of events held it: wider helps nothing
  window.adapt(Round{.processed = kSample,
                     .rolled_back = kSample / OptimismWindow::kGrowDivisor,
                     .held_by_window = true});
  EXPECT_EQ(window.width(), us(10) + SimTime::from_ps(1));
  EXPECT_EQ(window.widest(), window.width());
  EXPECT_EQ(window.limit(us(100)), us(110) + SimTime::from_ps(1));
}

TEST(OptimismWindow, DoublesWhenNothingRolledBackAndTheWindowHeldTheRankBack) {
  OptimismWindow window(us(8), true);
  window.adapt(kCalmAndHeld);
  EXPECT_EQ(window.width(), us(16));
}

TEST(OptimismWindow, DoublesAtOnceWhenTheRankHadNothingToDoInsideIt) {
  OptimismWindow window(us(8), true);
  window.adapt(Round{.processed = 0, .rolled_back = 0, .held_by_window = true});
  EXPECT_EQ(window.width(), us(16));
  window.adapt(Round{.processed = 0, .rolled_back = 0, .held_by_window = false});  // no events
  EXPECT_EQ(window.width(), us(16));
}

TEST(OptimismWindow, StaysWithinAnEighthAndFourThousandTimesItsStart) {
  OptimismWindow window(us(64), true);
  for (int i = 0; i < 20; ++i) window.adapt(kThrashing);
  EXPECT_EQ(window.width(), us(8));
  for (int i = 0; i < 60; ++i) window.adapt(kCalmAndHeld);
  EXPECT_EQ(window.width(), us(64 * 4096));
}

TEST(OptimismWindow, AFixedWindowNeverMoves) {
  OptimismWindow window(us(8), false);
  window.adapt(kThrashing);
  window.adapt(kCalmAndHeld);
  EXPECT_EQ(window.width(), us(8));
  EXPECT_EQ(window.narrowest(), us(8));
  EXPECT_EQ(window.widest(), us(8));
}

TEST(OptimismWindow, AnUnboundedWindowStaysUnbounded) {
  OptimismWindow window(SimTime::max(), true);
  EXPECT_FALSE(window.is_adaptive());
  window.adapt(kThrashing);
  EXPECT_EQ(window.width(), SimTime::max());
  EXPECT_EQ(window.limit(us(5)), SimTime::max());
}

}  // namespace
}  // namespace netwarp::engine
