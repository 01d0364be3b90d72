// DelayedAckReading::ns3 (netmodels/src/transport/tcp_receiver.cpp): the receiver's ACKs as
// ns-3.37's TcpSocketBase::ReceivedData and TcpDctcp send them (validation/ns3/SEMANTICS.md
// section 9). Each test fails with the RFC reading.
#include <gtest/gtest.h>

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels {
namespace {

using engine::ms;
using engine::us;

constexpr std::uint32_t kMss = 1000;

class Ns3DelayedAckTest : public ::testing::Test {
 protected:
  Ns3DelayedAckTest() {
    config.delayed_ack = true;
    config.delayed_ack_reading = DelayedAckReading::ns3;
  }
  void dctcp() {
    config.congestion_control = CongestionControl::dctcp;
    config.dctcp_reading = DctcpReading::ns3;
  }
  void segment(std::uint32_t seq, bool ce = false, SimTime now = us(1)) {
    tcp_on_segment(r, config, ooo, seq, kMss, ce, now, out);
  }

  TcpConfig config;
  TcpReceiverState r = tcp_accept(100'000);
  TcpRangeMap ooo;
  TcpReceiverActions out;
};

// ProcessSynRcvd sets m_delAckCount = m_delAckMaxCount: the first data segment is ACKed at
// once, then every second one.
TEST_F(Ns3DelayedAckTest, FirstDataSegmentIsAcknowledgedAtOnce) {
  segment(0);
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 1000u);
  segment(1000);
  EXPECT_FALSE(out.send_ack);
  EXPECT_TRUE(out.timer.wanted);
  segment(2000);
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 3000u);
  config.delayed_ack_reading = DelayedAckReading::rfc;  // RFC 5681: the first one waits
  r = tcp_accept(100'000);
  segment(0);
  EXPECT_FALSE(out.send_ack);
}

// CeState0to1 acknowledges m_priorRcvNxt, rcv_nxt when the previous segment arrived: the
// delayed segment stays unacknowledged and the ACK repeats the last one, without ECE.
TEST_F(Ns3DelayedAckTest, DctcpPriorAckLagsOneSegment) {
  dctcp();
  segment(0);     // ACK 1000 at once
  segment(1000);  // delayed: m_delayedAckReserved
  segment(2000, true);
  ASSERT_TRUE(out.send_prior_ack);
  EXPECT_EQ(out.prior_ack, 1000u);
  EXPECT_FALSE(out.prior_ece);
  EXPECT_FALSE(out.send_ack);  // the prior ACK reset m_delAckCount: this segment waits
  EXPECT_EQ(r.ack_deadline_ps, (us(1) + ms(40)).ps());
  segment(3000, true);
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 4000u);
  EXPECT_TRUE(out.ece);
  EXPECT_FALSE(out.send_prior_ack);
}

// A segment that needs its own ACK at once still gets it after the prior ACK: two ACKs.
TEST_F(Ns3DelayedAckTest, DctcpPriorAckAndTheSegmentsOwnAckBothLeave) {
  dctcp();
  segment(0);
  segment(1000);
  segment(3000, true);  // out of order, flips to CE
  ASSERT_TRUE(out.send_prior_ack);
  EXPECT_EQ(out.prior_ack, 1000u);
  EXPECT_FALSE(out.prior_ece);
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 2000u);
  EXPECT_TRUE(out.ece);
}

// m_delayedAckReserved stays set after DelAckTimeout (CA_EVENT_DELAYED_ACK) and after the
// immediate ACK of a duplicate (no event), so a later flip sends a duplicate ACK. A duplicate
// wholly below rcv_nxt is answered by IsValidTcpSegment before DCTCP sees it, so
// m_priorRcvNxt stays where segment 1000 left it.
TEST_F(Ns3DelayedAckTest, DctcpReservedOutlivesTheTimerAndDuplicates) {
  dctcp();
  segment(0);
  segment(1000);
  tcp_on_delayed_ack_timer(r, config, out.timer.generation, us(1) + ms(40), out);
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 2000u);
  segment(0, false, ms(50));  // duplicate: ACK 2000 at once
  ASSERT_TRUE(out.send_ack);
  segment(2000, true, ms(51));
  ASSERT_TRUE(out.send_prior_ack);
  EXPECT_EQ(out.prior_ack, 1000u);  // rcv_nxt when segment 1000 arrived
  EXPECT_FALSE(out.send_ack);
}

// An out-of-order or gap-filling ACK clears m_delayedAckReserved (CA_EVENT_NON_DELAYED_ACK):
// the next flip sends no prior ACK.
TEST_F(Ns3DelayedAckTest, DctcpImmediateAckClearsReserved) {
  dctcp();
  segment(0);
  segment(1000);
  segment(3000);  // out of order: ACK 2000
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 2000u);
  segment(2000, true);  // fills the gap, flips to CE
  EXPECT_FALSE(out.send_prior_ack);
  ASSERT_TRUE(out.send_ack);
  EXPECT_EQ(out.ack, 4000u);
  EXPECT_TRUE(out.ece);
}

}  // namespace
}  // namespace netwarp::netmodels
