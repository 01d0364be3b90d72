// DctcpReading::ns3 (netmodels/src/transport/dctcp_ns3.cpp inside tcp_ns3_recovery.cpp):
// ns-3.37's TcpDctcp in ns-3's sender, on hand-built ACK sequences. Each expected value is
// worked out from ns-3's sources (validation/ns3/SEMANTICS.md section 14) and differs from
// RFC 8257 as netwarp reads it natively (dctcp_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"
#include "transport/dctcp_ns3.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::us;

class DctcpNs3SenderTest : public ::testing::Test {
 protected:
  DctcpNs3SenderTest() {
    config.recovery = TcpRecovery::ns3_classic;
    config.congestion_control = CongestionControl::dctcp;
    config.dctcp_reading = DctcpReading::ns3;
    config.dctcp_initial_alpha = 0.5;
    config.limited_transmit = false;
    config.min_rto = ms(1);
  }
  void open(std::uint64_t bytes) { s = tcp_open(config, bytes, kMss, SimTime::zero(), out); }
  void ack(std::uint32_t a, bool ece, SimTime now) { tcp_on_ack(s, config, a, ece, now, out); }
  double alpha() const { return tcp_cc::dctcp_ns3::load(s).alpha; }

  static constexpr std::uint32_t kMss = 1000;
  TcpConfig config;
  TcpSenderState s;
  TcpSenderActions out;
};

// TcpLinuxReno::SlowStart adds every acknowledged segment (TcpNewReno in ns-3: one per ACK).
TEST_F(DctcpNs3SenderTest, SlowStartAddsEverySegmentAcknowledged) {
  open(100'000);
  ack(2000, false, us(100));
  EXPECT_EQ(s.cwnd, 12'000u);
  EXPECT_EQ(s.snd_max, 14'000u);  // pipe 8000: four new segments
}

// An ECE on new data enters CWR at once: ssthresh = cwnd = (1 - 0.5 / 2) 10 000 = 7500, and
// cwnd stays there (no growth) until an ACK passes snd_max of that instant (10 000). alpha is
// folded in only when an ACK reaches m_nextTxSequence of the first call (10 000), not at the
// first ACK as RFC 8257's WindowEnd = SND.UNA start does: (15/16) 0.5 + (1/16) 0.1 = 0.475.
TEST_F(DctcpNs3SenderTest, EchoEntersCwrWhichHoldsTheWindowUntilItsRecoveryPoint) {
  open(100'000);
  ack(1000, true, us(100));
  EXPECT_EQ(s.ns3.state, Ns3CongState::cwr);
  EXPECT_EQ(s.ssthresh, 7500u);
  EXPECT_EQ(s.cwnd, 7500u);
  EXPECT_TRUE(out.segments.empty());  // pipe 9000 > cwnd
  EXPECT_DOUBLE_EQ(alpha(), 0.5);
  for (std::uint32_t a = 2000; a <= 10'000; a += 1000) ack(a, false, us(100 + a / 1000));
  EXPECT_EQ(s.ns3.state, Ns3CongState::cwr);
  EXPECT_EQ(s.cwnd, 7500u);
  EXPECT_DOUBLE_EQ(alpha(), 0.5 * 15 / 16 + 0.1 / 16);
  ack(11'000, false, us(120));
  EXPECT_EQ(s.ns3.state, Ns3CongState::open);
  EXPECT_EQ(s.cwnd, 7500u);  // cwnd = ssthresh, then congestion avoidance counts one segment
}

// Duplicate ACKs in CWR are only counted: no fast retransmit, so the loss waits for the RTO,
// whose ssthresh is TcpDctcp's (1 - alpha / 2) cwnd = 0.75 * 7500 (TcpNewReno: half the
// bytes in flight).
TEST_F(DctcpNs3SenderTest, DuplicatesInCwrWaitForTheTimeoutWhichCutsByHalfAlpha) {
  open(100'000);
  ack(1000, true, us(100));
  for (int i = 0; i < 4; ++i) ack(1000, false, us(110 + i));
  EXPECT_EQ(s.fast_retransmits, 0u);
  EXPECT_EQ(s.dupacks, 4u);
  EXPECT_TRUE(out.segments.empty());
  tcp_on_timer(s, config, s.timer_generation, SimTime::from_ps(s.rto_deadline_ps), out);
  EXPECT_EQ(s.timeouts, 1u);
  EXPECT_EQ(s.ssthresh, 5625u);
  EXPECT_EQ(s.cwnd, 1000u);
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(out.segments[0].seq, 1000u);
}

// Outside CWR a fast retransmit takes TcpDctcp's ssthresh from cwnd, not from the pipe.
TEST_F(DctcpNs3SenderTest, FastRetransmitTakesSsthreshFromCwnd) {
  open(100'000);
  ack(1000, false, us(100));  // cwnd 11 000
  for (int i = 0; i < 3; ++i) ack(1000, false, us(110 + i));
  EXPECT_EQ(s.fast_retransmits, 1u);
  EXPECT_EQ(s.ssthresh, 8250u);  // 0.75 * 11 000 (TcpNewReno: 5000)
  EXPECT_EQ(s.cwnd, 8250u);
}

}  // namespace
}  // namespace netwarp::netmodels
