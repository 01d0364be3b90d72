// TCP sender (netmodels/src/transport/tcp_sender.cpp), the parts beyond plain NewReno: the
// three-way handshake with its SYN timer (RFC 793 3.4, RFC 6298 2.2, 5 and 5.7, RFC 5681 3.1),
// limited transmit (RFC 3042) and the policy settings of TcpConfig, each on a hand-built loss
// pattern where exactly the value it governs differs.
#include <gtest/gtest.h>

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::seconds;
using engine::us;

constexpr std::uint32_t kMss = 1000;

class TcpOptionsTest : public ::testing::Test {
 protected:
  TcpOptionsTest() {
    config.min_rto = ms(200);
    config.initial_rto = seconds(1);
  }
  void connect(SimTime now = SimTime::zero()) { s = tcp_connect(config, kMss, now, out); }
  void append(std::uint64_t bytes, SimTime now) { tcp_append(s, config, bytes, now, out); }
  void syn_ack(SimTime now) { tcp_on_syn_ack(s, config, now, out); }
  void open(std::uint64_t bytes) { s = tcp_open(config, bytes, kMss, SimTime::zero(), out); }
  void ack(std::uint32_t a, SimTime now) { tcp_on_ack(s, config, a, false, now, out); }
  void timer(SimTime now) { tcp_on_timer(s, config, s.timer_generation, now, out); }
  // Window 10, ACK 1000 (cwnd 11000, snd_nxt 12000), then `count` duplicates of 1000.
  void lose_second_segment(int count) {
    open(100'000);
    ack(1000, us(100));
    for (int i = 0; i < count; ++i) ack(1000, us(110 + i));
  }

  TcpConfig config;
  TcpSenderState s;
  TcpSenderActions out;
};

TEST_F(TcpOptionsTest, ConnectSendsOnlyASynAndDataWaitsForTheSynAck) {
  connect();
  EXPECT_TRUE(out.send_syn);
  EXPECT_FALSE(out.syn_is_retransmission);
  EXPECT_TRUE(out.timer.wanted);
  EXPECT_EQ(out.timer.at, seconds(1));  // the SYN's timer: the initial RTO (RFC 6298 2.1)
  append(5000, us(10));
  EXPECT_TRUE(out.segments.empty());
  ack(0, us(20));  // nothing is outstanding before the connection is up
  EXPECT_TRUE(out.segments.empty());
  syn_ack(us(100));
  EXPECT_TRUE(out.send_handshake_ack);
  EXPECT_EQ(out.segments.size(), 5u);
  EXPECT_EQ(s.connection, TcpConnection::established);
  EXPECT_EQ(s.syns_sent, 1u);
  EXPECT_EQ(s.syn_retransmissions, 0u);
}

TEST_F(TcpOptionsTest, SynAckGivesTheFirstRttSample) {
  config.min_rto = us(1);
  connect();
  syn_ack(us(100));  // RFC 6298 2.2
  EXPECT_EQ(s.has_rtt, 1u);
  EXPECT_EQ(s.srtt_ps, us(100).ps());
  EXPECT_EQ(s.rttvar_ps, us(50).ps());
  EXPECT_EQ(s.rto_ps, us(300).ps());
}

TEST_F(TcpOptionsTest, LostSynIsRetransmittedWithDoubledRto) {
  connect();
  append(20'000, SimTime::zero());
  timer(seconds(1));
  EXPECT_TRUE(out.send_syn);
  EXPECT_TRUE(out.syn_is_retransmission);
  EXPECT_TRUE(out.segments.empty());
  EXPECT_EQ(s.rto_ps, seconds(2).ps());
  EXPECT_EQ(out.timer.at, seconds(3));
  EXPECT_EQ(s.syn_retransmissions, 1u);
  EXPECT_EQ(s.syns_sent, 2u);
  EXPECT_EQ(s.timeouts, 0u);  // data timeouts only
}

// Karn (RFC 6298 section 3): the SYN-ACK of a retransmitted SYN is no sample; RFC 6298 5.7: the
// RTO of 2 s is raised to 3 s; RFC 5681 3.1: the initial window is one segment.
TEST_F(TcpOptionsTest, AfterASynTimeoutDataStartsWithThreeSecondRtoAndOneSegment) {
  connect();
  append(20'000, SimTime::zero());
  timer(seconds(1));
  syn_ack(seconds(1) + us(100));
  EXPECT_EQ(s.has_rtt, 0u);
  EXPECT_EQ(s.rto_ps, seconds(3).ps());
  EXPECT_EQ(s.cwnd, kMss);
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(s.rto_deadline_ps, (seconds(4) + us(100)).ps());
}

TEST_F(TcpOptionsTest, RtoAboveThreeSecondsAfterSynTimeoutsIsKept) {
  connect();
  timer(seconds(1));
  timer(seconds(3));  // RTO 4 s
  syn_ack(seconds(3) + us(100));
  EXPECT_EQ(s.rto_ps, seconds(4).ps());
  EXPECT_EQ(s.syn_retransmissions, 2u);
}

TEST_F(TcpOptionsTest, LateDuplicateSynAckIsIgnored) {
  connect();
  append(3000, SimTime::zero());
  syn_ack(us(100));
  syn_ack(us(150));
  EXPECT_FALSE(out.send_handshake_ack);
  EXPECT_TRUE(out.segments.empty());
}

TEST_F(TcpOptionsTest, LimitedTransmitSendsNewDataOnFirstAndSecondDuplicate) {
  lose_second_segment(1);
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(out.segments[0].seq, 12'000u);
  EXPECT_FALSE(out.segments[0].is_retransmission);
  EXPECT_EQ(s.cwnd, 11'000u);  // unchanged
  ack(1000, us(120));
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(out.segments[0].seq, 13'000u);  // FlightSize 13000 = cwnd + 2 SMSS
  EXPECT_EQ(s.limited_transmits, 2u);
  ack(1000, us(130));  // the third: fast retransmit, nothing new
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(out.segments[0].seq, 1000u);
  EXPECT_TRUE(out.segments[0].is_retransmission);
}

TEST_F(TcpOptionsTest, LimitedTransmitRespectsTheReceiveWindow) {
  config.receive_window_bytes = 12'000;
  lose_second_segment(2);
  EXPECT_EQ(s.limited_transmits, 1u);  // 12000 in flight allowed, 13000 not
  EXPECT_EQ(s.snd_nxt, 13'000u);
}

TEST_F(TcpOptionsTest, LimitedTransmitOffSendsNothingOnDuplicates) {
  config.limited_transmit = false;
  lose_second_segment(2);
  EXPECT_EQ(s.limited_transmits, 0u);
  EXPECT_EQ(s.snd_nxt, 12'000u);
}

TEST_F(TcpOptionsTest, LimitedTransmitStopsAtTheSecondDuplicate) {
  config.dupack_threshold = 5;
  lose_second_segment(4);
  EXPECT_EQ(s.limited_transmits, 2u);
  EXPECT_EQ(s.fast_retransmits, 0u);
}

// Third duplicate: 13000 in flight, 2000 of it sent by limited transmit.
TEST_F(TcpOptionsTest, SsthreshFromFlightSizeLeavesOutLimitedTransmitData) {
  lose_second_segment(3);
  EXPECT_EQ(s.ssthresh, 5500u);  // (13000 - 2000) / 2, RFC 5681 3.2 step 2
  EXPECT_EQ(s.cwnd, 8500u);
}

TEST_F(TcpOptionsTest, SsthreshFromBytesInFlightLeavesOutSegmentsThatLeft) {
  config.ssthresh_base = SsthreshBase::bytes_in_flight;
  lose_second_segment(3);
  EXPECT_EQ(s.ssthresh, 5000u);  // (13000 - 3 duplicates) / 2
  EXPECT_EQ(s.cwnd, 8000u);
}

TEST_F(TcpOptionsTest, BothSsthreshBasesAgreeWithoutDuplicates) {
  open(100'000);
  timer(seconds(1));
  const std::uint64_t flight_size = s.ssthresh;
  config.ssthresh_base = SsthreshBase::bytes_in_flight;
  open(100'000);
  timer(seconds(1));
  EXPECT_EQ(s.ssthresh, flight_size);
  EXPECT_EQ(s.ssthresh, 5000u);
}

TEST_F(TcpOptionsTest, RecoveryExitOption1BoundsCwndByFlightSize) {
  lose_second_segment(3);
  ack(14'000, us(200));  // full ACK: nothing left in flight
  EXPECT_EQ(s.in_fast_recovery, 0u);
  EXPECT_EQ(s.cwnd, 2000u);  // min(5500, max(0, SMSS) + SMSS)
}

TEST_F(TcpOptionsTest, RecoveryExitOption2SetsCwndToSsthresh) {
  config.recovery_exit_cwnd = RecoveryExitCwnd::ssthresh;
  lose_second_segment(3);
  ack(14'000, us(200));
  EXPECT_EQ(s.in_fast_recovery, 0u);
  EXPECT_EQ(s.cwnd, 5500u);
}

// A sample (100 us: RTO 200 ms), a timeout (RTO 400 ms), then the ACK of the retransmission.
TEST_F(TcpOptionsTest, BackedOffRtoIsKeptUntilAnRttSample) {
  open(100'000);
  ack(1000, us(100));
  timer(ms(200) + us(100));
  EXPECT_EQ(s.rto_ps, ms(400).ps());
  ack(2000, ms(201));  // acknowledges a retransmission: no sample (Karn)
  EXPECT_EQ(s.rto_ps, ms(400).ps());
  EXPECT_EQ(s.backoff_count, 1u);
}

TEST_F(TcpOptionsTest, BackedOffRtoEndsOnAnyNewAckWhenSoConfigured) {
  config.rto_backoff_reset = RtoBackoffReset::on_new_ack;
  open(100'000);
  ack(1000, us(100));
  timer(ms(200) + us(100));
  EXPECT_EQ(s.rto_ps, ms(400).ps());
  ack(2000, ms(201));
  EXPECT_EQ(s.rto_ps, ms(200).ps());  // from SRTT and RTTVAR, not from a new sample
  EXPECT_EQ(s.srtt_ps, us(100).ps());
  EXPECT_EQ(s.backoff_count, 0u);
}

}  // namespace
}  // namespace netwarp::netmodels
