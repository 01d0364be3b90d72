// FrontInlineDeque: the same sequence as a std::deque under any mix of operations, its front
// inline whenever it holds anything, and undone exactly as a RevFifo's container.
#include "netwarp/engine/front_inline_deque.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

#include "engine/reversible_harness.hpp"

namespace netwarp::engine {
namespace {

using testing::contents;
using testing::Harness;
using testing::make_odd;
using testing::Odd;

template <std::size_t N>
void expect_same(const FrontInlineDeque<Odd, N>& deque, const std::deque<Odd>& model) {
  ASSERT_EQ(deque.size(), model.size());
  ASSERT_EQ(deque.empty(), model.empty());
  for (std::size_t i = 0; i < model.size(); ++i) ASSERT_EQ(deque[i], model[i]) << "at " << i;
  ASSERT_EQ(std::vector<Odd>(deque.begin(), deque.end()),
            std::vector<Odd>(model.begin(), model.end()));
  if (model.empty()) return;
  ASSERT_EQ(deque.front(), model.front());
  ASSERT_EQ(deque.back(), model.back());
  // The front is in the object itself.
  const auto* first = reinterpret_cast<const char*>(&deque.front());
  const auto* object = reinterpret_cast<const char*>(&deque);
  ASSERT_TRUE(first >= object && first < object + sizeof deque);
}

template <std::size_t N>
void random_operations(std::uint32_t seed) {
  std::mt19937 draw(seed);
  FrontInlineDeque<Odd, N> deque;
  std::deque<Odd> model;
  std::uint64_t next = 1;
  for (int step = 0; step < 4000; ++step) {
    const auto op = draw() % 11;
    if (op < 4) {  // pushes a little more often than pops: queues grow past the inline part
      deque.push_back(make_odd(next));
      model.push_back(make_odd(next++));
    } else if (op < 6) {
      deque.push_front(make_odd(next));
      model.push_front(make_odd(next++));
    } else if (op < 9 && !model.empty()) {
      deque.pop_front();
      model.pop_front();
    } else if (op < 10 && !model.empty()) {
      deque.pop_back();
      model.pop_back();
    } else if (draw() % 50 == 0) {
      deque.clear();
      model.clear();
    }
    expect_same(deque, model);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(FrontInlineDeque, MatchesADequeUnderRandomOperations) {
  for (std::uint32_t seed = 1; seed <= 5; ++seed) {
    random_operations<1>(seed);
    random_operations<2>(seed);
    random_operations<4>(seed);
    random_operations<8>(seed);
  }
}

TEST(FrontInlineDeque, KeepsOrderAcrossTheOverflowAndRefills) {
  FrontInlineDeque<Odd, 4> deque;
  for (std::uint64_t i = 1; i <= 11; ++i) deque.push_back(make_odd(i));
  for (std::uint64_t i = 1; i <= 11; ++i) {
    ASSERT_EQ(deque.front(), make_odd(i));
    deque.pop_front();
  }
  EXPECT_TRUE(deque.empty());
}

TEST(FrontInlineDeque, PushFrontOnAFullInlinePartMovesItsLastBehind) {
  FrontInlineDeque<Odd, 2> deque;
  deque.push_back(make_odd(2));
  deque.push_back(make_odd(3));
  deque.push_back(make_odd(4));  // overflow
  deque.push_front(make_odd(1));
  std::vector<Odd> seen(deque.begin(), deque.end());
  EXPECT_EQ(seen, (std::vector<Odd>{make_odd(1), make_odd(2), make_odd(3), make_odd(4)}));
}

TEST(FrontInlineDeque, AsARevFifoUndoesToTheOriginalOrder) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevFifo<Odd, FrontInlineDeque<Odd, 2>> queue;
  for (std::uint64_t i = 1; i <= 5; ++i) ctx.push_back(queue, make_odd(i));
  const std::uint64_t mark = h.undo.mark();
  EXPECT_EQ(ctx.pop_front(queue), make_odd(1));
  EXPECT_EQ(ctx.pop_front(queue), make_odd(2));  // the inline part refills from the overflow
  EXPECT_EQ(ctx.pop_front(queue), make_odd(3));
  ctx.push_back(queue, make_odd(6));
  EXPECT_EQ(ctx.pop_back(queue), make_odd(6));
  EXPECT_EQ(ctx.pop_back(queue), make_odd(5));
  h.undo.undo_to(mark);
  EXPECT_EQ(contents(queue),
            (std::vector<Odd>{make_odd(1), make_odd(2), make_odd(3), make_odd(4), make_odd(5)}));
  h.undo.undo_to(0);
  EXPECT_TRUE(queue.empty());
}

}  // namespace
}  // namespace netwarp::engine
