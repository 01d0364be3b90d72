// Philox4x32-10 against the Random123 known-answer vectors, and the per-event random stream
// built on it: reproducible from (seed, LP, key), sensitive to each, and correctly distributed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/random.hpp"

namespace netwarp::engine {
namespace {

// Random123 kat_vectors, "philox4x32 10" lines.
TEST(Philox, MatchesTheRandom123VectorForZeroCounterAndKey) {
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}),
            (PhiloxBlock{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
}

TEST(Philox, MatchesTheRandom123VectorForAllOnesCounterAndKey) {
  EXPECT_EQ(
      philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
      (PhiloxBlock{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
}

TEST(Philox, MatchesTheRandom123VectorForPiDigits) {
  EXPECT_EQ(
      philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
      (PhiloxBlock{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

std::vector<std::uint64_t> draws(EventRng rng, int n) {
  std::vector<std::uint64_t> out;
  for (int i = 0; i < n; ++i) out.push_back(rng.next_u64());
  return out;
}

const EventKey kKey{us(17), 3, 42};

TEST(EventRng, SameSeedLpAndKeyGiveTheSameSequence) {
  EventRng a(99, 5, kKey);
  EventRng b(99, 5, EventKey{us(17), 3, 42});
  for (int i = 0; i < 257; ++i) {
    ASSERT_EQ(a.next_u64(), b.next_u64()) << "draw " << i;
  }
  EXPECT_EQ(a.draws(), 257u);
  EXPECT_DOUBLE_EQ(a.uniform(), b.uniform());
  EXPECT_EQ(a.below(1000), b.below(1000));
}

TEST(EventRng, DifferentSeedLpTimeCreatorOrCounterGiveDifferentSequences) {
  const std::vector<EventRng> variants = {
      EventRng(99, 5, kKey),
      EventRng(98, 5, kKey),                                                // seed, low word
      EventRng(99 + (std::uint64_t{1} << 32), 5, kKey),                     // seed, high word
      EventRng(99, 6, kKey),                                                // LP
      EventRng(99, 5, EventKey{us(17) + ps(1), 3, 42}),                     // time
      EventRng(99, 5, EventKey{us(17), 4, 42}),                             // creator
      EventRng(99, 5, EventKey{us(17), 3, 43}),                             // counter
      EventRng(99, 5, EventKey{us(17), 3, 42 + (std::uint64_t{1} << 32)}),  // counter, high
  };
  std::set<std::uint64_t> all_draws;
  for (const EventRng& rng : variants) {
    for (std::uint64_t x : draws(rng, 16)) all_draws.insert(x);
  }
  EXPECT_EQ(all_draws.size(), variants.size() * 16);  // no sequence shares any draw
}

TEST(EventRng, EventCtxHandsOutTheStreamOfItsSeedLpAndKey) {
  EventScope scope;
  scope.self = 5;
  scope.key = kKey;
  scope.seed = 99;
  EventCtx ctx(scope);
  EXPECT_EQ(draws(ctx.rng(), 8), draws(EventRng(99, 5, kKey), 8));
}

TEST(EventRng, BelowStaysBelowTheBound) {
  EventRng rng(1, 2, kKey);
  for (std::uint64_t bound :
       {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{7}, std::uint64_t{1000},
        (std::uint64_t{1} << 63) + 1, ~std::uint64_t{0}}) {
    for (int i = 0; i < 2000; ++i) {
      ASSERT_LT(rng.below(bound), bound) << "bound " << bound;
    }
  }
}

TEST(EventRng, BelowIsRoughlyUniformByChiSquare) {
  EventRng rng(2024, 11, kKey);
  constexpr int kBins = 10;
  constexpr int kDraws = 100000;
  std::array<int, kBins> counts{};
  for (int i = 0; i < kDraws; ++i) ++counts[rng.below(kBins)];
  const double expected = static_cast<double>(kDraws) / kBins;
  double chi2 = 0;
  for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi2, 40.0);  // 9 degrees of freedom: P(chi2 > 40) ~ 1e-5
}

// For bound = 3 * 2^62, a plain multiply-shift without rejection returns multiples of 3 half the
// time instead of a third of the time.
TEST(EventRng, BelowRejectsTheBiasedSliceForALargeBound) {
  EventRng rng(5, 0, kKey);
  const std::uint64_t bound = std::uint64_t{3} << 62;
  constexpr int kDraws = 30000;
  int multiples_of_three = 0;
  for (int i = 0; i < kDraws; ++i) multiples_of_three += rng.below(bound) % 3 == 0 ? 1 : 0;
  EXPECT_NEAR(static_cast<double>(multiples_of_three) / kDraws, 1.0 / 3.0, 0.02);
}

TEST(EventRng, ExponentialSampleMeanIsWithinTwoPercent) {
  EventRng rng(77, 3, kKey);
  constexpr int kDraws = 200000;
  const double mean = 250.0;
  double sum = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double x = rng.exponential(mean);
    ASSERT_GE(x, 0.0);
    sum += x;
  }
  EXPECT_NEAR(sum / kDraws, mean, 0.02 * mean);
}

TEST(EventRng, UniformIsInTheHalfOpenUnitIntervalWithMeanOneHalf) {
  EventRng rng(8, 8, kKey);
  constexpr int kDraws = 200000;
  double sum = 0;
  double low = 1;
  double high = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    low = std::min(low, u);
    high = std::max(high, u);
  }
  EXPECT_NEAR(sum / kDraws, 0.5, 0.005);
  EXPECT_LT(low, 1e-3);
  EXPECT_GT(high, 1 - 1e-3);
}

}  // namespace
}  // namespace netwarp::engine

namespace netwarp::engine {
namespace {

TEST(EventRng, BelowZeroIsAnInternalError) {
  EventRng rng(1, 0, EventKey{us(1), 0, 0});
  EXPECT_DEATH(rng.below(0), "below\\(0\\)");
}

}  // namespace
}  // namespace netwarp::engine
