// TcpRecovery::ns3_classic (netmodels/src/transport/tcp_ns3_recovery.cpp): ns-3.37's sender
// without SACK, on hand-built loss patterns. Every expected value is worked out by hand from
// ns-3's rules (validation/ns3/SEMANTICS.md sections 5-8), and differs from what netwarp's own
// NewReno recovery does in the same situation.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::us;

constexpr std::uint32_t kMss = 1000;

class TcpNs3RecoveryTest : public ::testing::Test {
 protected:
  TcpNs3RecoveryTest() {
    config.recovery = TcpRecovery::ns3_classic;
    config.limited_transmit = false;
    config.min_rto = ms(200);
  }
  void open(std::uint64_t bytes) { s = tcp_open(config, bytes, kMss, SimTime::zero(), out); }
  void ack(std::uint32_t a, SimTime now) { tcp_on_ack(s, config, a, false, now, out); }
  void timeout(SimTime now) { tcp_on_timer(s, config, s.timer_generation, now, out); }
  std::vector<std::uint32_t> sent_seqs() const {
    std::vector<std::uint32_t> seqs;
    for (const TcpSegment& seg : out.segments) seqs.push_back(seg.seq);
    return seqs;
  }
  // Window 10; ACK 1000 grows cwnd to 11000 and sends 2 more (snd_max 12000); the segment at
  // 1000 is lost, so three duplicates of 1000 follow.
  void lose_second_segment() {
    open(100'000);
    ack(1000, us(100));
    ASSERT_EQ(s.snd_max, 12'000u);
    for (int i = 0; i < 3; ++i) ack(1000, us(110 + i));
  }

  TcpConfig config;
  TcpSenderState s;
  TcpSenderActions out;
};

TEST_F(TcpNs3RecoveryTest, RecoverySetsCwndToSsthreshFromThePipe) {
  lose_second_segment();
  // EnterRecovery: one item Reno-SACKed and the head lost: pipe = 11000 - 1000 - 1000 = 9000;
  // ssthresh = max(2 SMSS, (9000 + SMSS) / 2) = 5000 and cwnd = ssthresh (NewReno: 5500, 8500).
  EXPECT_EQ(s.fast_retransmits, 1u);
  EXPECT_EQ(s.ssthresh, 5000u);
  EXPECT_EQ(s.cwnd, 5000u);
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(out.segments[0].seq, 1000u);
  EXPECT_TRUE(out.segments[0].is_retransmission);
}

TEST_F(TcpNs3RecoveryTest, EachDuplicateInRecoveryShrinksThePipeByOneSegment) {
  lose_second_segment();
  // pipe is 10000 with the retransmission; cwnd 5000 allows new data once six more duplicates
  // have SACKed six more items (pipe 4000). cwnd itself never grows in recovery.
  for (int i = 0; i < 5; ++i) {
    ack(1000, us(120 + i));
    EXPECT_TRUE(out.segments.empty()) << i;
  }
  ack(1000, us(130));
  EXPECT_EQ(sent_seqs(), (std::vector<std::uint32_t>{12'000}));
  EXPECT_EQ(s.cwnd, 5000u);
}

TEST_F(TcpNs3RecoveryTest, PartialAckRetransmitsTheNewHeadWithoutDeflating) {
  lose_second_segment();
  ack(3000, us(200));  // the retransmission arrived, 3000 was lost too
  EXPECT_EQ(sent_seqs(), (std::vector<std::uint32_t>{3000}));
  EXPECT_TRUE(out.segments[0].is_retransmission);
  EXPECT_EQ(s.cwnd, 5000u);
  EXPECT_EQ(s.in_fast_recovery, 1u);
}

TEST_F(TcpNs3RecoveryTest, FullAckSetsCwndToSsthreshThenGrowsOnce) {
  lose_second_segment();
  ack(12'000, us(200));
  // cwnd = ssthresh = 5000, then congestion avoidance for 11 segments once: + 1000^2 / 5000.
  EXPECT_EQ(s.in_fast_recovery, 0u);
  EXPECT_EQ(s.cwnd, 5200u);
  EXPECT_EQ(s.ns3.state, Ns3CongState::open);
}

TEST_F(TcpNs3RecoveryTest, WrongRenoGuessRetransmitsTheHeadOutsideRecovery) {
  config.limited_transmit = true;
  open(100'000);
  ack(1000, us(100));  // cwnd 11000, snd_max 12000
  ack(1000, us(110));  // first duplicate: the item at 2000 is Reno-SACKed, one new segment goes
  EXPECT_EQ(sent_seqs(), (std::vector<std::uint32_t>{12'000}));
  EXPECT_EQ(s.limited_transmits, 1u);
  // The segment at 1000 was only late: ACK 2000 makes the "SACKed" item the head, a wrong
  // guess: it is un-SACKed, the next item SACKed and the head marked lost, so it is sent again
  // (no fast retransmit), then two new segments (cwnd 12000, pipe 10000).
  ack(2000, us(120));
  EXPECT_EQ(sent_seqs(), (std::vector<std::uint32_t>{2000, 13'000, 14'000}));
  EXPECT_TRUE(out.segments[0].is_retransmission);
  EXPECT_EQ(s.fast_retransmits, 0u);
  EXPECT_EQ(s.retransmitted_segments, 1u);
}

TEST_F(TcpNs3RecoveryTest, TimeoutTakesSsthreshFromThePipeEveryTime) {
  lose_second_segment();
  timeout(ms(300));
  // The pipe before the timeout was 10000: ssthresh 5000, cwnd 1 SMSS, the head again.
  EXPECT_EQ(s.timeouts, 1u);
  EXPECT_EQ(s.ssthresh, 5000u);
  EXPECT_EQ(s.cwnd, 1000u);
  EXPECT_EQ(sent_seqs(), (std::vector<std::uint32_t>{1000}));
  EXPECT_EQ(s.rto_ps, ms(400).ps());
  // Again: now only the retransmitted head is in the pipe, so ssthresh = 2 SMSS (netwarp's
  // NewReno keeps ssthresh when the same data times out again).
  timeout(ms(700));
  EXPECT_EQ(s.ssthresh, 2000u);
  EXPECT_EQ(s.rto_ps, ms(800).ps());
}

TEST_F(TcpNs3RecoveryTest, DuplicatesAfterATimeoutAreIgnored) {
  lose_second_segment();
  timeout(ms(300));
  const std::uint64_t fast_retransmits = s.fast_retransmits;
  for (int i = 0; i < 4; ++i) {
    ack(1000, ms(301) + us(i));
    EXPECT_TRUE(out.segments.empty());
  }
  EXPECT_EQ(s.fast_retransmits, fast_retransmits);
  EXPECT_EQ(s.dupacks, 0u);
}

TEST_F(TcpNs3RecoveryTest, AfterATimeoutLostSegmentsGoAgainInOrderAndTheBackoffEnds) {
  lose_second_segment();
  timeout(ms(300));
  ack(2000, ms(301));
  // Slow start from 1 SMSS: cwnd 2000; everything sent before the timeout is lost, so the
  // pipe is empty and the next two lost segments go.
  EXPECT_EQ(s.cwnd, 2000u);
  EXPECT_EQ(sent_seqs(), (std::vector<std::uint32_t>{2000, 3000}));
  EXPECT_TRUE(out.segments[0].is_retransmission && out.segments[1].is_retransmission);
  // Every new ACK recomputes the RTO from SRTT and RTTVAR: the backoff is over.
  EXPECT_EQ(s.rto_ps, ms(200).ps());
  EXPECT_EQ(s.rto_deadline_ps, (ms(301) + ms(200)).ps());
}

TEST_F(TcpNs3RecoveryTest, SlowStartCountsWholeSegmentsOnly) {
  open(100'000);
  ack(500, us(100));  // less than a segment: no growth (netwarp's NewReno adds 500 bytes)
  EXPECT_EQ(s.cwnd, 10'000u);
  ack(2000, us(110));  // 1500 bytes and the 500 carried over: two segments, but +1 SMSS
  EXPECT_EQ(s.cwnd, 11'000u);
}

}  // namespace
}  // namespace netwarp::netmodels
