// TCP receiver (netmodels/src/transport/tcp_receiver.cpp) driven by hand: cumulative ACKs,
// out-of-order ranges (unlimited, or capped with counted discards), SACK blocks in RFC 2018
// section 4 order, duplicates, delayed ACKs (every second segment and by the lazy timer,
// RFC 5681 4.2) and the ECN echo.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

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
    tcp_on_segment(r, config, ooo, seq, length, ce, now, out);
  }
  void timer(std::uint32_t generation, SimTime now) {
    tcp_on_delayed_ack_timer(r, config, generation, now, out);
  }

  // The out-of-order ranges as (begin, end) pairs, in order.
  std::vector<TcpRange> ranges() const {
    std::vector<TcpRange> v;
    for (const auto& [begin, end] : ooo.ranges()) v.push_back(TcpRange{begin, end});
    return v;
  }
  std::vector<TcpRange> sack() const { return {out.sack.block, out.sack.block + out.sack.count}; }

  TcpConfig config;
  TcpReceiverState r = tcp_accept(100'000);
  TcpRangeMap ooo;
  TcpReceiverActions out;
};

using Ranges = std::vector<TcpRange>;

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
  EXPECT_EQ(r.range_count, 1u);
  EXPECT_EQ(ranges(), (Ranges{{1000, 3000}}));
  segment(0);
  EXPECT_EQ(out.ack, 3000u);
  EXPECT_EQ(out.delivered, 3000u);
  EXPECT_EQ(r.range_count, 0u);
  EXPECT_TRUE(ranges().empty());
}

TEST_F(TcpReceiverTest, RangesMergeWhenAGapBetweenThemFills) {
  segment(2000);
  segment(4000);
  EXPECT_EQ(r.range_count, 2u);
  segment(3000);
  ASSERT_EQ(r.range_count, 1u);
  EXPECT_EQ(ranges(), (Ranges{{2000, 5000}}));
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

TEST_F(TcpReceiverTest, OutOfOrderRangesAreUnlimitedByDefault) {
  for (std::uint32_t i = 0; i < 100; ++i) segment(2000 * (i + 1));
  EXPECT_EQ(r.range_count, 100u);
  EXPECT_EQ(ooo.size(), 100u);
  EXPECT_EQ(r.discarded_segments, 0u);
  for (std::uint32_t i = 0; i < 100; ++i) segment(2000 * i + 1000);
  segment(0);
  EXPECT_EQ(out.ack, 201'000u);
  EXPECT_EQ(r.range_count, 0u);
}

TEST_F(TcpReceiverTest, CappedReceiverDiscardsAndCountsSegmentsNeedingANewRange) {
  config.max_ooo_ranges = 3;
  for (std::uint32_t i = 0; i < 3; ++i) segment(2000 * (i + 1));
  segment(8000);
  EXPECT_EQ(r.range_count, 3u);
  EXPECT_EQ(r.discarded_segments, 1u);
  EXPECT_TRUE(out.send_ack);  // still a duplicate ACK for the sender
  EXPECT_EQ(ranges(), (Ranges{{2000, 3000}, {4000, 5000}, {6000, 7000}}));
  segment(7000);  // touches the last range: merged, so accepted
  EXPECT_EQ(r.discarded_segments, 1u);
  EXPECT_EQ(ranges(), (Ranges{{2000, 3000}, {4000, 5000}, {6000, 8000}}));
  segment(10'000);
  EXPECT_EQ(r.discarded_segments, 2u);
  segment(3000);  // joins the first two ranges, so there is room again
  EXPECT_EQ(r.range_count, 2u);
  segment(10'000);
  EXPECT_EQ(r.discarded_segments, 2u);
  EXPECT_EQ(r.range_count, 3u);
}

// RFC 2018 section 4: the first block holds the segment that triggered the ACK, then the most
// recently reported blocks; arrivals 0 (lost), 1, 3, 5, 7, 4 in units of 1000 bytes.
TEST_F(TcpReceiverTest, SackBlocksFollowRfc2018Order) {
  config.sack = true;
  segment(1000);
  EXPECT_EQ(sack(), (Ranges{{1000, 2000}}));
  segment(3000);
  EXPECT_EQ(sack(), (Ranges{{3000, 4000}, {1000, 2000}}));
  segment(5000);
  EXPECT_EQ(sack(), (Ranges{{5000, 6000}, {3000, 4000}, {1000, 2000}}));
  segment(7000);  // three blocks fit: the oldest report drops out
  EXPECT_EQ(sack(), (Ranges{{7000, 8000}, {5000, 6000}, {3000, 4000}}));
  segment(4000);  // joins [3000, 4000) and [5000, 6000): the merged block leads
  EXPECT_EQ(sack(), (Ranges{{3000, 6000}, {7000, 8000}, {1000, 2000}}));
  segment(1000);  // a duplicate of held data: its block leads again
  EXPECT_EQ(sack(), (Ranges{{1000, 2000}, {3000, 6000}, {7000, 8000}}));
  segment(0);  // fills the first hole: [1000, 2000) is delivered and leaves the blocks
  EXPECT_EQ(out.ack, 2000u);
  EXPECT_EQ(sack(), (Ranges{{3000, 6000}, {7000, 8000}}));
  segment(2000);
  segment(6000);
  EXPECT_EQ(out.ack, 8000u);
  EXPECT_EQ(out.sack.count, 0u);
}

// sack_reading NS3: ns-3.37's TcpRxBuffer::UpdateSackList and ClearSackList. Arrivals 0 (lost),
// 1, 3, 5, 7, 9, 4, 1, 0 in units of 1000 bytes; each differs from the RFC 2018 reading above.
TEST_F(TcpReceiverTest, Ns3SackListKeepsFourBlocksAndForgetsTheFifth) {
  config.sack = true;
  config.sack_reading = SackReading::ns3;
  segment(1000);
  segment(3000);
  segment(5000);
  segment(7000);  // four blocks fit (RFC reading: three)
  EXPECT_EQ(sack(), (Ranges{{7000, 8000}, {5000, 6000}, {3000, 4000}, {1000, 2000}}));
  segment(9000);  // a fifth: [1000, 2000) is forgotten for good
  EXPECT_EQ(sack(), (Ranges{{9000, 10'000}, {7000, 8000}, {5000, 6000}, {3000, 4000}}));
  segment(4000);  // merges with both neighbours, one after the other; the list keeps its order
  EXPECT_EQ(sack(), (Ranges{{3000, 6000}, {9000, 10'000}, {7000, 8000}}));
  segment(1000);  // held already: nothing new, and the forgotten block does not come back
  EXPECT_EQ(sack(), (Ranges{{3000, 6000}, {9000, 10'000}, {7000, 8000}}));
  segment(2000);  // adjacent to the forgotten [1000, 2000): only the new bytes are reported
  EXPECT_EQ(sack(), (Ranges{{2000, 6000}, {9000, 10'000}, {7000, 8000}}));
  segment(0);  // fills the hole: the cumulative ACK clears the blocks below it
  EXPECT_EQ(out.ack, 6000u);
  EXPECT_EQ(sack(), (Ranges{{9000, 10'000}, {7000, 8000}}));
}

TEST_F(TcpReceiverTest, NoSackBlocksUnlessNegotiated) {
  segment(1000);
  EXPECT_EQ(out.sack.count, 0u);
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

TEST_F(TcpReceiverTest, Ns3DctcpAnswersAWhollyOldMarkedSegmentWithAPlainAck) {
  // ns-3.37's IsValidTcpSegment: a segment wholly below rcv_nxt gets a plain ACK before its CE
  // mark is looked at, so the echo stays off and the mark does not count (m_ecnCESeq stays).
  // A segment that ends at rcv_nxt is taken in: its mark counts and the ACK echoes it.
  config.congestion_control = CongestionControl::dctcp;
  config.dctcp_reading = DctcpReading::ns3;
  for (std::uint32_t seq = 0; seq < 3000; seq += kMss) segment(seq);
  segment(0, SimTime::zero(), true);
  EXPECT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 3000u);
  EXPECT_FALSE(out.ece);
  EXPECT_EQ(r.ce_seq, 0u);
  segment(2000, SimTime::zero(), true);
  EXPECT_EQ(out.ack, 3000u);
  EXPECT_TRUE(out.ece);
  EXPECT_EQ(r.ce_seq, 2001u);
}

}  // namespace
}  // namespace netwarp::netmodels
