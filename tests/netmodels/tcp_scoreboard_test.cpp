// The RFC 6675 scoreboard (netmodels/src/transport/tcp_scoreboard.cpp) on worked examples:
// Update(), IsLost(), SetPipe() and NextSeg() rules 1-4, with SMSS 1000 and DupThresh 3.
#include <gtest/gtest.h>

#include "netwarp/netmodels/packet.hpp"
#include "netwarp/netmodels/tcp_sack.hpp"

namespace netwarp::netmodels {
namespace {

constexpr std::uint32_t kMss = 1000;

TcpSackBlocks blocks(std::initializer_list<TcpRange> list) {
  TcpSackBlocks b;
  for (const TcpRange& r : list) b.block[b.count++] = r;
  return b;
}

// Ten segments 0..9 sent ([0, 10000)); segments 2, 4, 5 and 7 SACKed.
class ScoreboardTest : public ::testing::Test {
 protected:
  ScoreboardTest() {
    tcp_scoreboard_update(sb, sacked, blocks({{2000, 3000}, {4000, 6000}, {7000, 8000}}), 0,
                          10'000);
  }
  TcpScoreboardView view() const { return {sacked, snd_una, 10'000, kMss, 3}; }

  TcpScoreboardState sb;
  TcpRangeMap sacked;
  std::uint32_t snd_una = 0;
};

TEST_F(ScoreboardTest, UpdateMergesBlocksAndClipsThemToSentData) {
  EXPECT_EQ(sb.sacked_bytes, 4000u);
  EXPECT_EQ(sb.high_sacked, 8000u);
  // Overlapping the held ranges, touching one, and beyond what was sent.
  const auto added =
      tcp_scoreboard_update(sb, sacked, blocks({{5000, 7000}, {9000, 12'000}}), 0, 10'000);
  EXPECT_EQ(added, 2000u);
  EXPECT_EQ(sacked.size(), 3u);  // [2000, 3000), [4000, 8000) and [9000, 10000)
  EXPECT_EQ(sb.high_sacked, 10'000u);
  EXPECT_EQ(tcp_scoreboard_advance(sb, sacked, 5000), 2000u);  // [2000, 3000) and [4000, 5000)
  EXPECT_EQ(sb.sacked_bytes, 4000u);
}

TEST_F(ScoreboardTest, IsLostNeedsMoreThanTwoSegmentsSackedAbove) {
  // Above 6000 only segment 7 (1000 B); above 3999 segments 4, 5 and 7 (3000 B > 2 SMSS).
  EXPECT_EQ(tcp_lost_below(view()), 4000u);
  EXPECT_TRUE(tcp_is_lost(view(), 0));
  EXPECT_TRUE(tcp_is_lost(view(), 3000));
  EXPECT_FALSE(tcp_is_lost(view(), 6000));
  EXPECT_FALSE(tcp_is_lost(view(), 8000));
}

TEST(Scoreboard, IsLostCountsDupThreshDiscontiguousSmallRanges) {
  TcpScoreboardState sb;
  TcpRangeMap sacked;
  tcp_scoreboard_update(sb, sacked, blocks({{1000, 1100}, {2000, 2100}, {3000, 3100}}), 0, 4000);
  const TcpScoreboardView v{sacked, 0, 4000, kMss, 3};
  EXPECT_TRUE(tcp_is_lost(v, 0));      // three ranges above, 300 B
  EXPECT_FALSE(tcp_is_lost(v, 1100));  // two ranges above
}

TEST_F(ScoreboardTest, PipeCountsUnsackedDataInFlightAndRetransmissions) {
  // Not lost and not SACKed: [6000, 7000) and [8000, 10000).
  EXPECT_EQ(tcp_set_pipe(view(), 0), 3000u);
  // Segment 0 retransmitted (HighRxt = 999): counted once more.
  EXPECT_EQ(tcp_set_pipe(view(), 1000), 4000u);
  // Everything below 4000 retransmitted: segments 0, 1 and 3.
  EXPECT_EQ(tcp_set_pipe(view(), 4000), 6000u);
}

TEST_F(ScoreboardTest, NextSegRule1RetransmitsLostHolesInOrder) {
  sb.high_rxt = 1000;
  auto next = tcp_next_segment(view(), sb, true);
  EXPECT_EQ(next.rule, 1u);
  EXPECT_EQ(next.range, (TcpRange{1000, 2000}));
  sb.high_rxt = 2000;
  next = tcp_next_segment(view(), sb, true);
  EXPECT_EQ(next.rule, 1u);
  EXPECT_EQ(next.range, (TcpRange{3000, 4000}));  // skips SACKed segment 2
}

TEST_F(ScoreboardTest, NextSegRule2SendsNewDataBeforeRule3) {
  sb.high_rxt = 4000;  // every lost hole retransmitted; hole [6000, 7000) is not lost
  auto next = tcp_next_segment(view(), sb, true);
  EXPECT_EQ(next.rule, 2u);
  EXPECT_EQ(next.range.begin, 10'000u);
  next = tcp_next_segment(view(), sb, false);
  EXPECT_EQ(next.rule, 3u);
  EXPECT_EQ(next.range, (TcpRange{6000, 7000}));
}

TEST_F(ScoreboardTest, NextSegRule4RescuesTheHighestUnsackedSegmentOnce) {
  sb.high_rxt = 8000;  // nothing unsacked below the highest SACKed byte is left
  auto next = tcp_next_segment(view(), sb, false);
  EXPECT_EQ(next.rule, 4u);
  EXPECT_EQ(next.range, (TcpRange{9000, 10'000}));
  sb.rescue_rxt = 10'000;  // RescueRxt = RecoveryPoint
  EXPECT_EQ(tcp_next_segment(view(), sb, false).rule, 0u);
}

TEST(SackBlocks, TravelInTheAcksFieldsUnchanged) {
  const TcpSackBlocks sent = blocks({{7000, 8000}, {3000, 6000}, {1000, 2000}});
  Packet p;
  p.kind = PacketKind::ack;
  set_sack_blocks(p, sent);
  const TcpSackBlocks got = sack_blocks_of(p);
  ASSERT_EQ(got.count, 3u);
  for (std::uint32_t i = 0; i < 3; ++i) EXPECT_EQ(got.block[i], sent.block[i]);
  EXPECT_EQ(sack_blocks_of(Packet{}).count, 0u);
}

TEST(SackBlocks, AFourthBlockTravelsInAnAcksUnusedAuxWord) {
  const TcpSackBlocks sent =
      blocks({{9000, 10'000}, {7000, 8000}, {3000, 6000}, {4'294'960'000, 4'294'967'295}});
  Packet p;
  p.kind = PacketKind::ack;
  set_sack_blocks(p, sent);
  const TcpSackBlocks got = sack_blocks_of(p);
  ASSERT_EQ(got.count, 4u);
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(got.block[i], sent.block[i]) << i;
  EXPECT_EQ(sack_option_wire_bytes(4), 36u);  // 2 + 4 x 8, padded
}

}  // namespace
}  // namespace netwarp::netmodels
