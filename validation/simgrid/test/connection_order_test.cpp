// ConnectionOrder: numbering per connection and in-order hand-up of early arrivals.
#include "connection_order.hpp"

#include <gtest/gtest.h>

namespace netwarp::simgrid_check {
namespace {

Transfer between(RankId src, RankId dst, std::uint32_t word) {
  Transfer t;
  t.src = src;
  t.dst = dst;
  t.word = word;
  return t;
}

TEST(ConnectionOrder, NumbersEachConnectionFromZero) {
  ConnectionOrder order;
  Transfer a = between(0, 1, 0), b = between(0, 1, 1), c = between(1, 0, 2), d = between(0, 2, 3);
  order.number(a);
  order.number(b);
  order.number(c);
  order.number(d);
  EXPECT_EQ(a.seq, 0u);
  EXPECT_EQ(b.seq, 1u);
  EXPECT_EQ(c.seq, 0u);  // the reverse direction is its own connection
  EXPECT_EQ(d.seq, 0u);
}

TEST(ConnectionOrder, HoldsAnEarlyArrivalUntilTheEarlierTransferArrives) {
  ConnectionOrder order;
  Transfer first = between(0, 1, 10), second = between(0, 1, 11), third = between(0, 1, 12);
  order.number(first);
  order.number(second);
  order.number(third);
  EXPECT_TRUE(order.arrive(third).empty());
  EXPECT_TRUE(order.arrive(second).empty());
  const std::vector<Transfer> ready = order.arrive(first);
  ASSERT_EQ(ready.size(), 3u);
  EXPECT_EQ(ready[0].word, 10u);
  EXPECT_EQ(ready[1].word, 11u);
  EXPECT_EQ(ready[2].word, 12u);
}

TEST(ConnectionOrder, OtherConnectionsAreNotHeldBack) {
  ConnectionOrder order;
  Transfer slow = between(0, 1, 1), fast = between(2, 1, 2);
  order.number(slow);
  order.number(fast);
  ASSERT_EQ(order.arrive(fast).size(), 1u);
  ASSERT_EQ(order.arrive(slow).size(), 1u);
}

}  // namespace
}  // namespace netwarp::simgrid_check
