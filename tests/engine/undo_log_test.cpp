// The undo log behind the reversible primitives: ranges, truncation, front trimming, a null log
// (the sequential kernel) recording nothing, and long random sequences of writes rolled back to
// random marks against plain snapshots.
#include <gtest/gtest.h>

#include "engine/reversible_harness.hpp"

namespace netwarp::engine {
namespace {

using testing::contents;
using testing::Flow;
using testing::Harness;
using testing::make_flow;
using testing::make_odd;
using testing::Odd;

TEST(UndoLog, NullLogAppliesWritesButLogsNothing) {
  Harness h;
  EventCtx ctx = h.unlogged_ctx();
  Rev<std::int64_t> value(1);
  RevCounter counter;
  RevFifo<Odd> fifo;
  RevVector<std::uint32_t> vec(1, 0u);
  RevMap<std::uint32_t, Flow> map;
  ctx.set(value, std::int64_t{2});
  ctx.add(counter, 3);
  ctx.push_back(fifo, make_odd(1));
  ctx.push_back(fifo, make_odd(2));
  EXPECT_EQ(ctx.pop_front(fifo), make_odd(1));
  ctx.set(vec, 0, 4u);
  ctx.push_back(vec, 5u);
  ctx.put(map, 6u, make_flow(6));
  EXPECT_EQ(value.get(), 2);
  EXPECT_EQ(counter.get(), 3);
  EXPECT_EQ(contents(fifo), std::vector<Odd>{make_odd(2)});
  EXPECT_EQ(std::vector<std::uint32_t>(vec.begin(), vec.end()),
            (std::vector<std::uint32_t>{4u, 5u}));
  EXPECT_TRUE(map.contains(6u));
  EXPECT_TRUE(h.undo.empty());
  EXPECT_EQ(h.undo.mark(), 0u);
  EXPECT_EQ(h.undo.capacity_bytes(), 0u);
}

TEST(UndoLog, TruncateDropsRecordsWithoutApplyingThem) {
  Harness h;
  EventCtx ctx = h.ctx();
  Rev<std::int64_t> value(1);
  ctx.set(value, std::int64_t{2});
  const std::uint64_t mark = h.undo.mark();
  ctx.set(value, std::int64_t{3});
  h.undo.truncate(mark);
  EXPECT_EQ(value.get(), 3);
  EXPECT_EQ(h.undo.mark(), mark);
  h.undo.undo_to(0);
  EXPECT_EQ(value.get(), 1);
}

TEST(UndoLog, UndoRangeAppliesOnlyThatRangeNewestFirstAndKeepsTheRecords) {
  Harness h;
  EventCtx ctx = h.ctx();
  Rev<std::int64_t> value(1);
  ctx.set(value, std::int64_t{2});
  const std::uint64_t begin = h.undo.mark();
  ctx.set(value, std::int64_t{3});
  ctx.set(value, std::int64_t{4});
  const std::uint64_t end = h.undo.mark();
  ctx.set(value, std::int64_t{5});
  h.undo.undo_range(begin, end);
  EXPECT_EQ(value.get(), 2);  // oldest record in the range applied last
  EXPECT_GT(h.undo.mark(), end);
}

TEST(UndoLog, MarksStayAbsoluteAcrossForgetBefore) {
  Harness h;
  EventCtx ctx = h.ctx();
  Rev<std::int64_t> value(0);
  ctx.set(value, std::int64_t{1});
  const std::uint64_t committed = h.undo.mark();
  ctx.set(value, std::int64_t{2});
  const std::uint64_t mark = h.undo.mark();
  ctx.set(value, std::int64_t{3});
  const std::uint64_t end = h.undo.mark();
  h.undo.forget_before(committed);
  EXPECT_EQ(h.undo.mark(), end);
  h.undo.undo_to(mark);
  EXPECT_EQ(value.get(), 2);
  h.undo.undo_to(committed);
  EXPECT_EQ(value.get(), 1);
  EXPECT_TRUE(h.undo.empty());
}

TEST(UndoLog, ForgetBeforePastTheCompactionThresholdKeepsLaterRecordsUndoable) {
  Harness h;
  EventCtx ctx = h.ctx();
  Rev<Odd> value(make_odd(0));
  for (std::uint64_t i = 1; i <= 300; ++i) ctx.set(value, make_odd(i));  // ~12 KB of records
  const std::uint64_t committed = h.undo.mark();
  for (std::uint64_t i = 301; i <= 400; ++i) ctx.set(value, make_odd(i));
  const std::uint64_t mark = h.undo.mark();
  ctx.set(value, make_odd(401));
  const std::uint64_t end = h.undo.mark();
  h.undo.forget_before(committed);  // trims > 4096 bytes, more than half the log
  EXPECT_EQ(h.undo.mark(), end);
  for (std::uint64_t i = 402; i <= 450; ++i) ctx.set(value, make_odd(i));
  h.undo.undo_to(mark);
  EXPECT_EQ(value.get(), make_odd(400));
  h.undo.undo_to(committed);
  EXPECT_EQ(value.get(), make_odd(300));
}

TEST(UndoLog, ForgettingASlidingWindowKeepsTheLogSmall) {
  Harness h;
  EventCtx ctx = h.ctx();
  Rev<Odd> value(make_odd(0));
  std::deque<std::uint64_t> window;
  std::deque<Odd> values_at_mark;
  for (std::uint64_t event = 1; event <= 20000; ++event) {
    window.push_back(h.undo.mark());
    values_at_mark.push_back(value.get());
    for (std::uint64_t i = 0; i < 4; ++i) ctx.set(value, make_odd(event * 4 + i));
    if (window.size() > 16) {  // events older than the window commit; the log never empties
      window.pop_front();
      values_at_mark.pop_front();
      h.undo.forget_before(window.front());
    }
  }
  EXPECT_LT(h.undo.capacity_bytes(), std::size_t{64} << 10);
  h.undo.undo_to(window.front());
  EXPECT_EQ(value.get(), values_at_mark.front());
}

// A plain copy of every primitive's contents, to snapshot at each event start.
struct Shadow {
  Flow value{};
  std::int64_t counter = 0;
  std::deque<Odd> fifo;
  std::vector<std::uint32_t> vec;
  std::map<std::uint32_t, Flow> map;
};

struct Primitives {
  Rev<Flow> value;
  RevCounter counter;
  RevFifo<Odd> fifo;
  RevVector<std::uint32_t> vec;
  RevMap<std::uint32_t, Flow> map;
};

::testing::AssertionResult matches(const Primitives& p, const Shadow& s) {
  if (!(p.value.get() == s.value)) return ::testing::AssertionFailure() << "Rev differs";
  if (p.counter.get() != s.counter)
    return ::testing::AssertionFailure() << "counter " << p.counter.get() << " != " << s.counter;
  if (p.fifo.size() != s.fifo.size())
    return ::testing::AssertionFailure()
           << "fifo size " << p.fifo.size() << " != " << s.fifo.size();
  for (std::size_t i = 0; i < s.fifo.size(); ++i)
    if (!(p.fifo[i] == s.fifo[i])) return ::testing::AssertionFailure() << "fifo[" << i << "]";
  if (p.vec.size() != s.vec.size())
    return ::testing::AssertionFailure() << "vec size " << p.vec.size() << " != " << s.vec.size();
  for (std::size_t i = 0; i < s.vec.size(); ++i)
    if (p.vec[i] != s.vec[i]) return ::testing::AssertionFailure() << "vec[" << i << "]";
  if (p.map.size() != s.map.size())
    return ::testing::AssertionFailure() << "map size " << p.map.size() << " != " << s.map.size();
  auto it = s.map.begin();
  for (const auto& [k, v] : p.map) {
    if (k != it->first || !(v == it->second))
      return ::testing::AssertionFailure() << "map entry " << k;
    ++it;
  }
  return ::testing::AssertionSuccess();
}

// Applies one random write to the primitives through `ctx` and the same change to `s`.
void random_write(std::mt19937_64& rng, EventCtx& ctx, Primitives& p, Shadow& s) {
  const std::uint64_t x = rng();
  const auto key = static_cast<std::uint32_t>(x % 48);
  switch (rng() % 13) {
    case 0:
      ctx.set(p.value, make_flow(x));
      s.value = make_flow(x);
      break;
    case 1: {
      const auto delta = static_cast<std::int64_t>(x % 2001) - 1000;
      ctx.add(p.counter, delta);
      s.counter += delta;
      break;
    }
    case 2:
    case 3:
    case 4:
      ctx.push_back(p.fifo, make_odd(x));
      s.fifo.push_back(make_odd(x));
      break;
    case 5:
      if (s.fifo.empty()) break;
      ASSERT_EQ(ctx.pop_front(p.fifo), s.fifo.front());
      s.fifo.pop_front();
      break;
    case 6:
      if (s.fifo.empty()) break;
      ASSERT_EQ(ctx.pop_back(p.fifo), s.fifo.back());
      s.fifo.pop_back();
      break;
    case 7:
    case 8:
      if (s.vec.empty() || x % 4 == 0) {
        ctx.push_back(p.vec, static_cast<std::uint32_t>(x));
        s.vec.push_back(static_cast<std::uint32_t>(x));
      } else {
        ctx.set(p.vec, x % s.vec.size(), static_cast<std::uint32_t>(x >> 32));
        s.vec[x % s.vec.size()] = static_cast<std::uint32_t>(x >> 32);
      }
      break;
    case 9:
    case 10:
    case 11:
      ctx.put(p.map, key, make_flow(x));
      s.map[key] = make_flow(x);
      break;
    default:
      ASSERT_EQ(ctx.erase(p.map, key), s.map.erase(key) == 1);
      break;
  }
}

// Runs events of random writes, each starting at a mark with a snapshot, and rolls back to
// random earlier marks. With `forget`, also commits (forgets) random prefixes of the log.
void run_random_rollbacks(std::uint64_t seed, bool forget) {
  std::mt19937_64 rng(seed);
  Harness h;
  EventCtx ctx = h.ctx();
  Primitives p;
  Shadow s;
  std::vector<std::uint64_t> marks;
  std::vector<Shadow> snapshots;
  std::size_t oldest = 0;  // first event that may still be rolled back
  for (int round = 0; round < 400; ++round) {
    const std::uint64_t events = 1 + rng() % 24;
    for (std::uint64_t e = 0; e < events; ++e) {
      marks.push_back(h.undo.mark());
      snapshots.push_back(s);
      const std::uint64_t writes = rng() % 10;
      for (std::uint64_t w = 0; w < writes; ++w) {
        ASSERT_NO_FATAL_FAILURE(random_write(rng, ctx, p, s));
      }
    }
    ASSERT_TRUE(matches(p, s)) << "round " << round << " before rollback";
    const std::size_t to = oldest + rng() % (marks.size() - oldest);
    h.undo.undo_to(marks[to]);
    ASSERT_TRUE(matches(p, snapshots[to])) << "round " << round << ", event " << to;
    ASSERT_EQ(h.undo.mark(), marks[to]);
    s = snapshots[to];
    marks.resize(to);
    snapshots.resize(to);
    if (forget && rng() % 3 == 0) {
      const std::size_t upto = oldest + rng() % (marks.size() - oldest + 1);
      h.undo.forget_before(upto == marks.size() ? h.undo.mark() : marks[upto]);
      for (std::size_t i = oldest; i < upto; ++i) snapshots[i] = Shadow{};
      oldest = upto;
    }
  }
  if (oldest < marks.size()) {
    h.undo.undo_to(marks[oldest]);
    EXPECT_TRUE(matches(p, snapshots[oldest]));
  }
}

TEST(UndoLog, RandomRollbacksRestoreEveryPrimitiveToItsSnapshot) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    run_random_rollbacks(seed, false);
  }
}

TEST(UndoLog, RandomRollbacksStillRestoreSnapshotsAfterForgettingCommittedEvents) {
  for (std::uint64_t seed : {11u, 12u, 13u}) {
    SCOPED_TRACE(seed);
    run_random_rollbacks(seed, true);
  }
}

}  // namespace
}  // namespace netwarp::engine
