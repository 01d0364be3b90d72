// The reversible state primitives (Rev, RevCounter, RevFifo, RevVector, RevMap): writes through
// EventCtx undo exactly.
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

TEST(Rev, SetUndoRestoresThePreviousValue) {
  Harness h;
  EventCtx ctx = h.ctx();
  Rev<std::int64_t> field(5);
  const std::uint64_t mark = h.undo.mark();
  ctx.set(field, std::int64_t{9});
  EXPECT_EQ(field.get(), 9);
  h.undo.undo_to(mark);
  EXPECT_EQ(field.get(), 5);
  EXPECT_TRUE(h.undo.empty());
}

TEST(Rev, UndoToAMarkBetweenSetsRestoresTheValueAtThatMark) {
  Harness h;
  EventCtx ctx = h.ctx();
  Rev<Flow> field(make_flow(1));
  ctx.set(field, make_flow(2));
  const std::uint64_t mark = h.undo.mark();
  ctx.set(field, make_flow(3));
  ctx.set(field, make_flow(4));
  h.undo.undo_to(mark);
  EXPECT_EQ(field.get(), make_flow(2));
  h.undo.undo_to(0);
  EXPECT_EQ(field.get(), make_flow(1));
}

TEST(RevCounter, AddUndoSubtractsTheDelta) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevCounter drops(100);
  ctx.add(drops, 7);
  const std::uint64_t mark = h.undo.mark();
  ctx.add(drops, -30);
  ctx.add(drops, 1000);
  EXPECT_EQ(drops.get(), 1077);
  h.undo.undo_to(mark);
  EXPECT_EQ(drops.get(), 107);
  h.undo.undo_to(0);
  EXPECT_EQ(drops.get(), 100);
}

TEST(RevFifo, PopFrontUndoRestoresTheFront) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevFifo<Odd> queue;
  for (std::uint64_t i = 1; i <= 3; ++i) ctx.push_back(queue, make_odd(i));
  const std::uint64_t mark = h.undo.mark();
  EXPECT_EQ(ctx.pop_front(queue), make_odd(1));
  EXPECT_EQ(ctx.pop_front(queue), make_odd(2));
  h.undo.undo_to(mark);
  EXPECT_EQ(contents(queue), (std::vector<Odd>{make_odd(1), make_odd(2), make_odd(3)}));
}

TEST(RevFifo, PopBackUndoRestoresTheBack) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevFifo<Odd> queue;
  for (std::uint64_t i = 1; i <= 3; ++i) ctx.push_back(queue, make_odd(i));
  const std::uint64_t mark = h.undo.mark();
  EXPECT_EQ(ctx.pop_back(queue), make_odd(3));
  EXPECT_EQ(ctx.pop_back(queue), make_odd(2));
  h.undo.undo_to(mark);
  EXPECT_EQ(contents(queue), (std::vector<Odd>{make_odd(1), make_odd(2), make_odd(3)}));
}

TEST(RevFifo, PushBackUndoRemovesOnlyTheItemsPushedAfterTheMark) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevFifo<Odd> queue;
  ctx.push_back(queue, make_odd(1));
  const std::uint64_t mark = h.undo.mark();
  ctx.push_back(queue, make_odd(2));
  ctx.push_back(queue, make_odd(3));
  h.undo.undo_to(mark);
  EXPECT_EQ(contents(queue), std::vector<Odd>{make_odd(1)});
  h.undo.undo_to(0);
  EXPECT_TRUE(queue.empty());
}

TEST(RevFifo, MixedPushAndPopsUndoToTheOriginalOrder) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevFifo<Odd> queue;
  for (std::uint64_t i = 1; i <= 4; ++i) ctx.push_back(queue, make_odd(i));
  const std::vector<Odd> before = contents(queue);
  const std::uint64_t mark = h.undo.mark();
  ctx.pop_front(queue);
  ctx.push_back(queue, make_odd(5));
  ctx.pop_back(queue);
  ctx.pop_back(queue);
  ctx.pop_front(queue);
  ctx.push_back(queue, make_odd(6));
  EXPECT_EQ(contents(queue), (std::vector<Odd>{make_odd(3), make_odd(6)}));
  h.undo.undo_to(mark);
  EXPECT_EQ(contents(queue), before);
}

TEST(RevVector, SetUndoRestoresTheOldElement) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevVector<Flow> ports(4, make_flow(0));
  ctx.set(ports, 2, make_flow(20));
  const std::uint64_t mark = h.undo.mark();
  ctx.set(ports, 2, make_flow(21));
  ctx.set(ports, 0, make_flow(1));
  h.undo.undo_to(mark);
  EXPECT_EQ(ports[0], make_flow(0));
  EXPECT_EQ(ports[2], make_flow(20));
  h.undo.undo_to(0);
  for (std::size_t i = 0; i < ports.size(); ++i) EXPECT_EQ(ports[i], make_flow(0)) << i;
}

TEST(RevVector, PopBackUndoRestoresTheElementsInOrder) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevVector<std::uint32_t> vec(3, 0u);
  ctx.set(vec, 0, 10u);
  ctx.set(vec, 1, 11u);
  ctx.set(vec, 2, 12u);
  const std::uint64_t mark = h.undo.mark();
  EXPECT_EQ(ctx.pop_back(vec), 12u);
  EXPECT_EQ(ctx.pop_back(vec), 11u);
  ctx.push_back(vec, 99u);
  h.undo.undo_to(mark);
  ASSERT_EQ(vec.size(), 3u);
  EXPECT_EQ(vec[0], 10u);
  EXPECT_EQ(vec[1], 11u);
  EXPECT_EQ(vec[2], 12u);
}

TEST(RevVector, PushBackUndoShrinksBackToTheSizeAtTheMark) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevVector<std::uint32_t> vec(2, 7u);
  const std::uint64_t mark = h.undo.mark();
  ctx.push_back(vec, 8u);
  ctx.set(vec, 2, 9u);
  ctx.push_back(vec, 10u);
  ASSERT_EQ(vec.size(), 4u);
  h.undo.undo_to(mark);
  EXPECT_EQ(std::vector<std::uint32_t>(vec.begin(), vec.end()),
            (std::vector<std::uint32_t>{7u, 7u}));
}

TEST(RevMap, PutOfANewKeyUndoErasesIt) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevMap<std::uint32_t, Flow> flows;
  ctx.put(flows, 1u, make_flow(1));
  const std::uint64_t mark = h.undo.mark();
  ctx.put(flows, 2u, make_flow(2));
  ASSERT_TRUE(flows.contains(2u));
  h.undo.undo_to(mark);
  EXPECT_FALSE(flows.contains(2u));
  ASSERT_NE(flows.find(1u), nullptr);
  EXPECT_EQ(*flows.find(1u), make_flow(1));
  EXPECT_EQ(flows.size(), 1u);
}

TEST(RevMap, PutOverAnExistingKeyUndoRestoresTheOldValue) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevMap<std::uint32_t, Flow> flows;
  ctx.put(flows, 1u, make_flow(1));
  const std::uint64_t mark = h.undo.mark();
  ctx.put(flows, 1u, make_flow(2));
  ctx.put(flows, 1u, make_flow(3));
  EXPECT_EQ(*flows.find(1u), make_flow(3));
  h.undo.undo_to(mark);
  ASSERT_NE(flows.find(1u), nullptr);
  EXPECT_EQ(*flows.find(1u), make_flow(1));
}

TEST(RevMap, EraseUndoReinsertsTheEntryWithItsValue) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevMap<std::uint32_t, Flow> flows;
  ctx.put(flows, 1u, make_flow(1));
  ctx.put(flows, 5u, make_flow(5));
  const std::uint64_t mark = h.undo.mark();
  EXPECT_TRUE(ctx.erase(flows, 5u));
  ctx.put(flows, 5u, make_flow(50));
  EXPECT_TRUE(ctx.erase(flows, 5u));
  EXPECT_TRUE(ctx.erase(flows, 1u));
  EXPECT_TRUE(flows.empty());
  h.undo.undo_to(mark);
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(*flows.find(1u), make_flow(1));
  EXPECT_EQ(*flows.find(5u), make_flow(5));
}

TEST(RevMap, EraseOfAMissingKeyReturnsFalseAndLogsNothing) {
  Harness h;
  EventCtx ctx = h.ctx();
  RevMap<std::uint32_t, Flow> flows;
  ctx.put(flows, 1u, make_flow(1));
  const std::uint64_t mark = h.undo.mark();
  EXPECT_FALSE(ctx.erase(flows, 2u));
  EXPECT_EQ(h.undo.mark(), mark);
  EXPECT_EQ(flows.size(), 1u);
}

}  // namespace
}  // namespace netwarp::engine
