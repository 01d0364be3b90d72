// TCP NewReno sender (netmodels/src/transport/tcp_sender.cpp) driven by hand with explicit
// times: window growth (RFC 5681), fast retransmit and NewReno recovery (RFC 6582), the RTO
// estimator, backoff and Karn's rule (RFC 6298), the lazy timer requests, completion and ECN.
// Flows open without the handshake here (tcp_open).
#include <gtest/gtest.h>

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::us;

constexpr std::uint32_t kMss = 1000;

class TcpSenderTest : public ::testing::Test {
 protected:
  TcpSenderTest() {
    config.min_rto = ms(200);
    config.initial_rto = ms(200);
    config.max_rto = ms(60'000);
  }
  void open(std::uint64_t bytes, SimTime now = SimTime::zero()) {
    s = tcp_open(config, bytes, kMss, now, out);
  }
  void ack(std::uint32_t a, SimTime now, bool ece = false) {
    tcp_on_ack(s, config, a, ece, now, out);
  }
  void timer(std::uint32_t generation, SimTime now) {
    tcp_on_timer(s, config, generation, now, out);
  }
  // Acknowledges every outstanding segment one by one at `now`; returns the segments sent.
  std::uint64_t ack_round(SimTime now) {
    std::uint64_t sent = 0;
    for (std::uint32_t a = s.snd_una + kMss, end = s.snd_nxt; a <= end; a += kMss) {
      ack(a, now);
      sent += out.segments.size();
    }
    return sent;
  }

  TcpConfig config;
  TcpSenderState s;
  TcpSenderActions out;
};

TEST_F(TcpSenderTest, InitialWindowSendsTenFullSegments) {
  open(1'000'000);
  ASSERT_EQ(out.segments.size(), 10u);
  for (std::uint32_t i = 0; i < 10; ++i) {
    EXPECT_EQ(out.segments[i].seq, i * kMss);
    EXPECT_EQ(out.segments[i].length, kMss);
    EXPECT_FALSE(out.segments[i].is_retransmission);
  }
  EXPECT_EQ(s.segments_sent, 10u);
  EXPECT_EQ(s.cwnd, 10u * kMss);
  EXPECT_TRUE(out.timer.wanted);
  EXPECT_EQ(out.timer.at, ms(200));
}

TEST_F(TcpSenderTest, LastSegmentOfAFlowIsShort) {
  open(2500);
  ASSERT_EQ(out.segments.size(), 3u);
  EXPECT_EQ(out.segments[2].seq, 2000u);
  EXPECT_EQ(out.segments[2].length, 500u);
}

TEST_F(TcpSenderTest, SlowStartDoublesCwndPerRoundOfAcks) {
  open(10'000'000);
  EXPECT_EQ(ack_round(us(100)), 20u);
  EXPECT_EQ(s.cwnd, 20u * kMss);
  EXPECT_EQ(ack_round(us(200)), 40u);
  EXPECT_EQ(s.cwnd, 40u * kMss);
}

TEST_F(TcpSenderTest, CongestionAvoidanceGrowsAboutOneMssPerRtt) {
  open(10'000'000);
  s.ssthresh = s.cwnd;  // start congestion avoidance at 10 segments
  ack_round(us(100));
  EXPECT_GT(s.cwnd, 10'900u);
  EXPECT_LE(s.cwnd, 11'000u);
  const std::uint64_t before = s.cwnd;
  ack_round(us(200));
  EXPECT_GT(s.cwnd - before, 800u);  // 10 ACKs of about mss^2 / 11400 each
  EXPECT_LE(s.cwnd - before, 1000u);
}

// Window 10 segments, the second one (seq 1000) lost: ACK 1000 then duplicates of it. Plain
// NewReno: limited transmit off (tcp_sender_options_test.cpp covers it).
class TcpRecoveryTest : public TcpSenderTest {
 protected:
  TcpRecoveryTest() { config.limited_transmit = false; }
  void lose_second_segment() {
    open(100'000);
    ack(1000, us(100));  // slow start: cwnd 11000, sends 10000 and 11000
    ASSERT_EQ(s.snd_nxt, 12'000u);
    for (int i = 0; i < 3; ++i) ack(1000, us(110 + i));
  }
};

TEST_F(TcpRecoveryTest, ThreeDuplicateAcksFastRetransmitOnce) {
  open(100'000);
  ack(1000, us(100));
  ack(1000, us(110));
  EXPECT_TRUE(out.segments.empty());
  ack(1000, us(111));
  EXPECT_TRUE(out.segments.empty());
  ack(1000, us(112));
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(out.segments[0].seq, 1000u);
  EXPECT_TRUE(out.segments[0].is_retransmission);
  EXPECT_EQ(s.ssthresh, 5500u);  // flight 11000 / 2
  EXPECT_EQ(s.cwnd, 5500u + 3 * kMss);
  EXPECT_EQ(s.recover, 12'000u);
  EXPECT_TRUE(out.cwnd_changed);
  ack(1000, us(113));  // the fourth inflates by one MSS and retransmits nothing
  EXPECT_TRUE(out.segments.empty());
  EXPECT_EQ(s.cwnd, 9500u);
  EXPECT_EQ(s.fast_retransmits, 1u);
  EXPECT_EQ(s.duplicate_acks, 4u);
  EXPECT_EQ(s.timeouts, 0u);
  EXPECT_EQ(s.retransmitted_segments, 1u);
}

TEST_F(TcpRecoveryTest, InflatedWindowSendsNewData) {
  lose_second_segment();
  for (int i = 0; i < 4; ++i) ack(1000, us(120 + i));  // cwnd 8500 + 4000 > flight 11000
  EXPECT_EQ(s.cwnd, 12'500u);
  EXPECT_EQ(s.snd_nxt, 13'000u);
  EXPECT_EQ(s.segments_sent, 14u);  // 10 + 2 on the ACK + the retransmission + 1
}

TEST_F(TcpRecoveryTest, PartialAckRetransmitsNextHoleAndStaysInRecovery) {
  lose_second_segment();
  ack(3000, us(200));  // 1000 and 2000 acknowledged, 3000 lost as well
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(out.segments[0].seq, 3000u);
  EXPECT_TRUE(out.segments[0].is_retransmission);
  EXPECT_EQ(s.cwnd, 8500u - 2000u + kMss);
  EXPECT_EQ(s.in_fast_recovery, 1u);
  EXPECT_EQ(s.rto_deadline_ps, (us(200) + ms(200)).ps());  // first partial ACK re-arms
  ack(4000, us(300));
  EXPECT_EQ(s.rto_deadline_ps, (us(200) + ms(200)).ps());  // later ones do not
}

TEST_F(TcpRecoveryTest, FullAckEndsRecovery) {
  lose_second_segment();
  ack(12'000, us(200));
  EXPECT_EQ(s.in_fast_recovery, 0u);
  EXPECT_EQ(s.cwnd, 2u * kMss);  // min(ssthresh 5500, max(flight 0, mss) + mss)
  EXPECT_EQ(out.segments.size(), 2u);
  ack(14'000, us(300));  // slow start again up to ssthresh 5500
  EXPECT_EQ(s.cwnd, 3u * kMss);
}

TEST_F(TcpSenderTest, FirstRttSampleSetsSrttRttvarAndRtoExactly) {
  config.min_rto = us(1);
  open(100'000);
  ack(1000, us(100));  // R = 100 us
  EXPECT_EQ(s.srtt_ps, 100'000'000);
  EXPECT_EQ(s.rttvar_ps, 50'000'000);
  EXPECT_EQ(s.rto_ps, 300'000'000);    // SRTT + 4 RTTVAR
  EXPECT_EQ(s.rtt_seq, 11'000u);       // timing the first new segment sent on this ACK
  ack(11'000, us(300));                // R = 200 us
  EXPECT_EQ(s.rttvar_ps, 62'500'000);  // (3 * 50 + |100 - 200|) / 4 us
  EXPECT_EQ(s.srtt_ps, 112'500'000);   // (7 * 100 + 200) / 8 us
  EXPECT_EQ(s.rto_ps, 362'500'000);
}

TEST_F(TcpSenderTest, MinRtoClampsRto) {
  config.initial_rto = ms(1);
  open(100'000);
  EXPECT_EQ(s.rto_ps, ms(200).ps());  // the initial RTO too
  ack(1000, us(100));
  EXPECT_EQ(s.srtt_ps, 100'000'000);
  EXPECT_EQ(s.rto_ps, ms(200).ps());
}

TEST_F(TcpSenderTest, TimerEventIsRequestedOnceWhileAcksMoveTheDeadline) {
  open(100'000);
  EXPECT_TRUE(out.timer.wanted);
  const std::uint32_t first = out.timer.generation;
  ack(1000, ms(50));
  EXPECT_FALSE(out.timer.wanted);
  ack(2000, ms(100));
  EXPECT_FALSE(out.timer.wanted);
  EXPECT_EQ(s.rto_deadline_ps, (ms(100) + ms(200)).ps());
  timer(first, ms(200));  // early: re-arms at the deadline, no timeout
  EXPECT_TRUE(out.timer.wanted);
  EXPECT_EQ(out.timer.at, ms(300));
  EXPECT_NE(out.timer.generation, first);
  EXPECT_TRUE(out.segments.empty());
  EXPECT_EQ(s.timeouts, 0u);
  const TcpSenderState before = s;
  timer(first, ms(250));  // stale: ignored, the live event stays pending
  EXPECT_FALSE(out.timer.wanted);
  EXPECT_EQ(s.timer_pending_ps, ms(300).ps());
  EXPECT_EQ(s.timer_generation, before.timer_generation);
}

TEST_F(TcpSenderTest, EarlierDeadlineRequestsNewEventAndStalesTheOld) {
  config.initial_rto = ms(1000);
  open(2000);
  const std::uint32_t old = out.timer.generation;
  ack(1000, us(100));  // sample 100 us: RTO falls to 200 ms, deadline before the pending 1 s
  EXPECT_TRUE(out.timer.wanted);
  EXPECT_EQ(out.timer.at, us(100) + ms(200));
  timer(old, ms(1000));
  EXPECT_EQ(s.timer_pending_ps, (us(100) + ms(200)).ps());
  EXPECT_EQ(s.timeouts, 0u);
}

TEST_F(TcpSenderTest, TimeoutGoesBackToSndUnaWithOneSegmentWindow) {
  open(100'000);
  timer(out.timer.generation, ms(200));
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(out.segments[0].seq, 0u);
  EXPECT_TRUE(out.segments[0].is_retransmission);
  EXPECT_EQ(s.cwnd, kMss);
  EXPECT_EQ(s.ssthresh, 5000u);
  EXPECT_EQ(s.snd_nxt, 1000u);
  EXPECT_EQ(s.timeouts, 1u);
  ack(1000, ms(201));  // slow start from 1 MSS; go-back-N resends the rest of the window
  ASSERT_EQ(out.segments.size(), 2u);
  EXPECT_EQ(out.segments[0].seq, 1000u);
  EXPECT_TRUE(out.segments[1].is_retransmission);
}

TEST_F(TcpSenderTest, ConsecutiveTimeoutsDoubleRtoUpToMaxRto) {
  config.max_rto = ms(1000);
  open(100'000);
  timer(out.timer.generation, ms(200));
  EXPECT_EQ(s.rto_ps, ms(400).ps());
  EXPECT_EQ(out.timer.at, ms(600));
  timer(out.timer.generation, ms(600));
  EXPECT_EQ(s.rto_ps, ms(800).ps());
  EXPECT_EQ(out.timer.at, ms(1400));
  EXPECT_EQ(s.ssthresh, 5000u);  // held on a repeated timeout of the same segment
  timer(out.timer.generation, ms(1400));
  EXPECT_EQ(s.rto_ps, ms(1000).ps());
  EXPECT_EQ(s.timeouts, 3u);
  EXPECT_EQ(s.retransmitted_segments, 3u);
}

TEST_F(TcpSenderTest, AckOfRetransmittedSegmentGivesNoRttSample) {
  open(20'000);
  timer(out.timer.generation, ms(200));
  ack(1000, ms(201));
  EXPECT_EQ(s.has_rtt, 0u);
  EXPECT_EQ(s.rto_ps, ms(400).ps());  // still backed off
  EXPECT_EQ(s.rtt_timing, 0u);        // go-back-N segments are not timed either
  ack(10'000, ms(202));               // all old data: new segments are timed again
  EXPECT_EQ(s.rtt_timing, 1u);
  ack(s.rtt_seq, ms(203));  // R = 1 ms: the backoff ends, RTO from the sample
  EXPECT_EQ(s.has_rtt, 1u);
  EXPECT_EQ(s.backoff_count, 0u);
  EXPECT_EQ(s.rto_ps, ms(200).ps());
}

TEST_F(TcpSenderTest, DuplicatesOfGoBackNDataCauseNoFastRetransmit) {
  open(100'000);
  timer(out.timer.generation, ms(200));
  for (int i = 0; i < 3; ++i) ack(0, ms(201));  // recover = 10000 > ack
  EXPECT_EQ(s.fast_retransmits, 0u);
  EXPECT_EQ(s.in_fast_recovery, 0u);
}

TEST_F(TcpSenderTest, CompletionStopsTheTimer) {
  open(2500);
  ack(1000, us(100));
  EXPECT_FALSE(out.completed);
  ack(2500, us(200));
  EXPECT_TRUE(out.completed);
  EXPECT_EQ(s.completed, 1u);
  EXPECT_EQ(s.rto_deadline_ps, -1);
  timer(s.timer_generation, ms(200));  // the live event finds the timer off
  EXPECT_TRUE(out.segments.empty());
  EXPECT_FALSE(out.timer.wanted);
  EXPECT_EQ(s.timer_pending_ps, -1);
  ack(2500, us(300));
  EXPECT_FALSE(out.completed);  // only once
}

TEST_F(TcpSenderTest, ReceiveWindowLimitsFlight) {
  config.receive_window_bytes = 4000;
  open(100'000);
  EXPECT_EQ(out.segments.size(), 4u);
}

TEST_F(TcpSenderTest, EcnEchoHalvesCwndOncePerWindow) {
  config.ecn = true;
  open(1'000'000);
  ack(1000, us(100), true);
  EXPECT_EQ(s.ssthresh, 4500u);  // flight 9000 / 2
  EXPECT_EQ(s.cwnd, 4500u);
  EXPECT_EQ(s.ecn_recover, 10'000u);
  EXPECT_TRUE(out.cwnd_changed);
  ack(2000, us(110), true);  // same window: no second reduction, normal growth
  EXPECT_EQ(s.cwnd, 4500u + 1'000'000u / 4500u);
  ack(10'000, us(120));
  const std::uint64_t before = s.cwnd;
  ack(11'000, us(200), true);  // past ecn_recover: reduce again
  EXPECT_LT(s.cwnd, before);
  EXPECT_EQ(s.ecn_recover, s.snd_max);
}

TEST_F(TcpSenderTest, EcnEchoIgnoredWithoutEcn) {
  open(1'000'000);
  ack(1000, us(100), true);
  EXPECT_EQ(s.cwnd, 11u * kMss);
}

}  // namespace
}  // namespace netwarp::netmodels
