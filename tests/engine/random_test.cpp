// SplitMix64 against its reference output, and the per-event random stream built on it:
// reproducible from (seed, LP, key), sensitive to each, unrelated between neighbouring events,
// and correctly distributed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/random.hpp"

namespace netwarp::engine {
namespace {

// The first five outputs of Vigna's reference splitmix64.c seeded with 1234567.
TEST(SplitMix64, MatchesTheReferenceSequence) {
  const std::array<std::uint64_t, 5> expected = {6457827717110365317ull, 3203168211198807973ull,
                                                 9817491932198370423ull, 4593380528125082431ull,
                                                 16408922859458223821ull};
  SplitMix64 in_order(1234567);
  for (std::uint64_t n = 0; n < expected.size(); ++n) {
    EXPECT_EQ(splitmix64_draw(1234567, n), expected[n]) << "draw " << n;
    EXPECT_EQ(in_order.next(), expected[n]) << "next() " << n;
  }
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

// A value moved from one field to another must give another stream: a start that hashed each
// field alone and combined them symmetrically would give (LP 3, creator 5) and (LP 5, creator 3)
// the same numbers.
TEST(EventRng, FieldsAreNotInterchangeable) {
  const std::vector<EventRng> variants = {
      EventRng(7, 3, EventKey{ps(9), 5, 11}),
      EventRng(7, 5, EventKey{ps(9), 3, 11}),  // LP, creator
      EventRng(7, 3, EventKey{ps(11), 5, 9}),
      EventRng(7, 3, EventKey{ps(9), 11, 5}),  // time, counter, creator
      EventRng(3, 7, EventKey{ps(9), 5, 11}),
      EventRng(9, 3, EventKey{ps(7), 5, 11}),  // seed
      EventRng(11, 3, EventKey{ps(9), 5, 7}),
  };
  std::set<std::uint64_t> first_draws;
  for (EventRng rng : variants) first_draws.insert(rng.next_u64());
  EXPECT_EQ(first_draws.size(), variants.size());
}

TEST(EventRng, IsTheSplitMix64SequenceFromTheEventsStreamStart) {
  const std::uint64_t start = event_stream_start(99, 5, kKey);
  const std::vector<std::uint64_t> got = draws(EventRng(99, 5, kKey), 6);
  for (std::uint64_t n = 0; n < got.size(); ++n) EXPECT_EQ(got[n], splitmix64_draw(start, n));
}

// Events that differ by one in a single field (consecutive times, send counters, creators, LPs
// or seeds) must not get overlapping or correlated streams: a stream start that moved by a fixed
// step per field value would make one event's draw n + 1 another's draw n.
constexpr int kStreams = 4096;
constexpr int kDrawsPerStream = 4;

// kDrawsPerStream draws of each of kStreams streams, stream by stream.
template <class MakeRng>
std::vector<std::uint64_t> neighbour_streams(MakeRng make) {
  std::vector<std::uint64_t> out;
  for (int i = 0; i < kStreams; ++i) {
    EventRng rng = make(static_cast<std::uint32_t>(i));
    for (int d = 0; d < kDrawsPerStream; ++d) out.push_back(rng.next_u64());
  }
  return out;
}

void expect_unrelated(const std::vector<std::uint64_t>& draws, const char* field) {
  const std::set<std::uint64_t> distinct(draws.begin(), draws.end());
  EXPECT_EQ(distinct.size(), draws.size()) << field << ": streams share draws";
  const double n = static_cast<double>(draws.size());
  for (int bit = 0; bit < 64; ++bit) {
    const auto ones =
        std::count_if(draws.begin(), draws.end(), [&](std::uint64_t x) { return (x >> bit) & 1u; });
    EXPECT_NEAR(static_cast<double>(ones) / n, 0.5, 4.5 * 0.5 / std::sqrt(n))
        << field << ": bit " << bit;
  }
  const auto first = [&](int stream) {  // the stream's draw 0 as a uniform in [0, 1)
    return static_cast<double>(draws[stream * kDrawsPerStream] >> 11) * 0x1.0p-53;
  };
  double covariance = 0;  // of neighbours' first draws; its sd is 1 / (12 sqrt(kStreams))
  for (int i = 0; i + 1 < kStreams; ++i) covariance += (first(i) - 0.5) * (first(i + 1) - 0.5);
  covariance /= kStreams - 1;
  EXPECT_LT(std::abs(covariance), 4.5 / (12 * std::sqrt(double{kStreams}))) << field;
}

TEST(EventRng, NeighbouringEventsGetUnrelatedStreams) {
  expect_unrelated(neighbour_streams([](std::uint32_t i) {
                     return EventRng(7, 3, EventKey{ps(1000 + i), 2, 9});
                   }),
                   "time");
  expect_unrelated(neighbour_streams([](std::uint32_t i) {
                     return EventRng(7, 3, EventKey{ps(1000), 2, 9 + i});
                   }),
                   "counter");
  expect_unrelated(neighbour_streams([](std::uint32_t i) {
                     return EventRng(7, 3, EventKey{ps(1000), i, 9});
                   }),
                   "creator");
  expect_unrelated(neighbour_streams([](std::uint32_t i) {
                     return EventRng(7, i, EventKey{ps(1000), 2, 9});
                   }),
                   "lp");
  expect_unrelated(neighbour_streams([](std::uint32_t i) {
                     return EventRng(i, 3, EventKey{ps(1000), 2, 9});
                   }),
                   "seed");
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
