// TCP receiver (netmodels/src/transport/tcp_receiver.cpp) driven by hand: cumulative ACKs,
// out-of-order ranges and their limit, duplicates, delayed ACKs (every second segment and by
// the lazy timer, RFC 5681 4.2) and the ECN echo.
#include <gtest/gtest.h>

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::us;

constexpr std::uint32_t kMss = 1000;

class TcpReceiverTest : public ::testing::Test {
 protected:
  void segment(std::uint32_t seq, SimTime now = SimTime::zero(), bool ce = false,
               std::uint32_t length = kMss) {
    tcp_on_segment(r, config, seq, length, ce, now, out);
  }
  void timer(std::uint32_t generation, SimTime now) {
    tcp_on_delayed_ack_timer(r, config, generation, now, out);
  }

  TcpConfig config;
  TcpReceiverState r = tcp_accept(100'000);
  TcpReceiverActions out;
};

TEST_F(TcpReceiverTest, InOrderSegmentsAreAcknowledgedAndDelivered) {
  segment(0);
  EXPECT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 1000u);
  EXPECT_EQ(out.delivered, 1000u);
  segment(1000);
  EXPECT_EQ(out.ack, 2000u);
  EXPECT_EQ(out.delivered, 1000u);
  EXPECT_FALSE(out.timer.wanted);
}

TEST_F(TcpReceiverTest, OutOfOrderDataWaitsForTheHoleThenIsDelivered) {
  segment(1000);
  EXPECT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 0u);  // duplicate ACK
  EXPECT_EQ(out.delivered, 0u);
  segment(2000);
  EXPECT_EQ(r.range_count, 1u);  // [1000, 3000)
  EXPECT_EQ(r.range_end[0], 3000u);
  segment(0);
  EXPECT_EQ(out.ack, 3000u);
  EXPECT_EQ(out.delivered, 3000u);
  EXPECT_EQ(r.range_count, 0u);
  EXPECT_EQ(r.range_end[0], 0u);
}

TEST_F(TcpReceiverTest, RangesMergeWhenAGapBetweenThemFills) {
  segment(2000);
  segment(4000);
  EXPECT_EQ(r.range_count, 2u);
  segment(3000);
  ASSERT_EQ(r.range_count, 1u);
  EXPECT_EQ(r.range_begin[0], 2000u);
  EXPECT_EQ(r.range_end[0], 5000u);
  segment(0, SimTime::zero(), false, 1500);  // overlaps nothing stored: rcv_nxt 1500
  EXPECT_EQ(out.ack, 1500u);
  segment(1000, SimTime::zero(), false, 1000);  // partial overlap with delivered data
  EXPECT_EQ(out.ack, 5000u);
  EXPECT_EQ(out.delivered, 3500u);
}

TEST_F(TcpReceiverTest, DuplicateIsAcknowledgedAtOnce) {
  config.delayed_ack = true;
  segment(0);
  segment(1000);
  EXPECT_EQ(out.ack, 2000u);
  segment(0);
  EXPECT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 2000u);
  EXPECT_EQ(out.delivered, 0u);
}

TEST_F(TcpReceiverTest, SegmentNeedingTooManyRangesIsDropped) {
  for (std::uint32_t i = 0; i < TcpReceiverState::kMaxRanges; ++i) segment(2000 * (i + 1));
  EXPECT_EQ(r.range_count, 16u);
  segment(2000 * 17);
  EXPECT_EQ(r.range_count, 16u);
  EXPECT_EQ(r.range_begin[15], 2000u * 16);
  EXPECT_TRUE(out.send_ack);  // still a duplicate ACK for the sender
  segment(2000 * 16 + 1000);  // touches the last range: merged, so accepted
  EXPECT_EQ(r.range_end[15], 2000u * 17);
  segment(3000);  // joins the first two ranges
  EXPECT_EQ(r.range_count, 15u);
  EXPECT_EQ(r.range_end[0], 5000u);
  EXPECT_EQ(r.range_end[15], 0u);
}

TEST_F(TcpReceiverTest, DelayedAckAcknowledgesEverySecondSegment) {
  config.delayed_ack = true;
  segment(0, us(10));
  EXPECT_FALSE(out.send_ack);
  EXPECT_EQ(out.delivered, 1000u);
  EXPECT_TRUE(out.timer.wanted);
  EXPECT_EQ(out.timer.at, us(10) + ms(40));
  segment(1000, us(20));
  EXPECT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 2000u);
  EXPECT_FALSE(out.timer.wanted);
}

TEST_F(TcpReceiverTest, DelayedAckTimerSendsThePendingAck) {
  config.delayed_ack = true;
  segment(0, us(10));
  timer(out.timer.generation, us(10) + ms(40));
  EXPECT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 1000u);
  EXPECT_EQ(r.timer_pending_ps, -1);
}

TEST_F(TcpReceiverTest, LiveTimerEventBeforeTheDeadlineReArms) {
  config.delayed_ack = true;
  segment(0, us(10));
  const std::uint32_t first = out.timer.generation;
  segment(1000, us(20));  // acknowledged: the event at 40.01 ms is now early for what follows
  segment(2000, ms(30));
  EXPECT_FALSE(out.timer.wanted);  // an event is already pending before the new deadline
  timer(first, us(10) + ms(40));
  EXPECT_FALSE(out.send_ack);
  EXPECT_TRUE(out.timer.wanted);
  EXPECT_EQ(out.timer.at, ms(70));
  const std::uint32_t live = out.timer.generation;
  timer(first, ms(50));  // stale generation: ignored, the live event stays pending
  EXPECT_FALSE(out.send_ack);
  EXPECT_EQ(r.timer_pending_ps, ms(70).ps());
  timer(live, ms(70));
  EXPECT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 3000u);
}

TEST_F(TcpReceiverTest, OutOfOrderAndGapFillingSegmentsAreAcknowledgedAtOnce) {
  config.delayed_ack = true;
  segment(1000);
  EXPECT_TRUE(out.send_ack);
  segment(0);
  EXPECT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 2000u);
}

TEST_F(TcpReceiverTest, CongestionMarkIsEchoedOnTheNextAck) {
  segment(0, SimTime::zero(), true);
  EXPECT_TRUE(out.ece);
  segment(1000);
  EXPECT_FALSE(out.ece);
}

}  // namespace
}  // namespace netwarp::netmodels
