// RingDeque against std::deque under random pushes and pops at both ends, through growth and
// wrap-around; copies are deep.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "netwarp/engine/ring_deque.hpp"

namespace netwarp::engine {
namespace {

void expect_same(const RingDeque<int>& ring, const std::deque<int>& shadow) {
  ASSERT_EQ(ring.size(), shadow.size());
  ASSERT_EQ(ring.empty(), shadow.empty());
  std::size_t i = 0;
  for (int value : ring) EXPECT_EQ(value, shadow[i++]);
  if (!shadow.empty()) {
    EXPECT_EQ(ring.front(), shadow.front());
    EXPECT_EQ(ring.back(), shadow.back());
  }
}

TEST(RingDeque, MatchesStdDequeUnderRandomOperations) {
  std::mt19937 rng(7);
  RingDeque<int> ring;
  std::deque<int> shadow;
  for (int step = 0; step < 20000; ++step) {
    const unsigned op = rng() % 5;  // pushes slightly more often than pops: it grows
    if (op <= 1 || shadow.empty()) {
      (op == 0 ? ring.push_back(step) : ring.push_front(step));
      (op == 0 ? shadow.push_back(step) : shadow.push_front(step));
    } else if (op == 2) {
      ring.pop_back();
      shadow.pop_back();
    } else if (op == 3) {
      ring.pop_front();
      shadow.pop_front();
    } else {
      ring.push_back(-step);
      shadow.push_back(-step);
    }
    if (step % 997 == 0) expect_same(ring, shadow);
  }
  expect_same(ring, shadow);
}

TEST(RingDeque, IndexesFromTheFrontAcrossTheWrap) {
  RingDeque<int> ring;
  for (int i = 0; i < 4; ++i) ring.push_back(i);  // capacity 4, full
  ring.pop_front();
  ring.pop_front();
  ring.push_back(4);
  ring.push_back(5);  // wraps to the start of the buffer
  ring.push_back(6);  // grows while wrapped
  for (std::size_t i = 0; i < ring.size(); ++i) EXPECT_EQ(ring[i], static_cast<int>(i) + 2);
}

TEST(RingDeque, CopiesAreIndependent) {
  RingDeque<int> a;
  for (int i = 0; i < 10; ++i) a.push_front(i);
  RingDeque<int> b = a;
  b.pop_front();
  b.push_back(99);
  EXPECT_EQ(a.size(), 10u);
  EXPECT_EQ(a.front(), 9);
  EXPECT_EQ(b.front(), 8);
  EXPECT_EQ(b.back(), 99);
}

TEST(RingDeque, AMovedFromDequeIsEmptyAndUsable) {
  RingDeque<int> a;
  for (int i = 0; i < 5; ++i) a.push_back(i);
  RingDeque<int> b = std::move(a);
  EXPECT_EQ(b.size(), 5u);
  EXPECT_EQ(b.back(), 4);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  a.push_back(7);
  EXPECT_EQ(a.front(), 7);
}

}  // namespace
}  // namespace netwarp::engine
