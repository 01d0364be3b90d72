// The TCP sender's SACK-based recovery (netmodels/src/transport/tcp_sack_recovery.cpp) driven
// by hand: entering RFC 6675 recovery, pipe-limited sending, and RFC 6937 PRR on the worked
// example of its section 6 (20 segments in flight, the first lost, one SACK per later segment):
// segments sent per ACK.
#include <gtest/gtest.h>

#include <vector>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels {
namespace {

constexpr std::uint32_t kMss = 1000;

class SackSenderTest : public ::testing::Test {
 protected:
  void open(TcpRecovery recovery) {
    config.sack = true;
    config.recovery = recovery;
    config.initial_window_segments = 20;
    s = tcp_open(config, 1'000'000, kMss, SimTime::zero(), out);
  }
  // An ACK of `ack` SACKing [sack_begin, sack_end); returns the segments it released.
  std::size_t ack(std::uint32_t a, std::uint32_t sack_begin, std::uint32_t sack_end) {
    if (sack_end > sack_begin) return ack_blocks(a, {TcpRange{sack_begin, sack_end}});
    return ack_blocks(a, {});
  }
  // An ACK of `a` with these SACK blocks (newest first); returns the segments it released.
  std::size_t ack_blocks(std::uint32_t a, const std::vector<TcpRange>& blocks) {
    TcpSackBlocks b;
    for (const TcpRange& r : blocks) b.block[b.count++] = r;
    tcp_on_ack(s, config, a, false, b, &scoreboard, SimTime::from_ps(1000), out);
    return out.segments.size();
  }
  // ns-3's recovery: SACK, PRR, ssthresh from BytesInFlight (the reading is the test's).
  void use_prr_from_bytes_in_flight(std::uint32_t initial_window) {
    config.ssthresh_base = SsthreshBase::bytes_in_flight;
    config.sack = true;
    config.recovery = TcpRecovery::prr;
    config.initial_window_segments = initial_window;
  }
  // Segments 1..n SACKed one per ACK with segment 0 lost; segments sent per ACK.
  std::vector<std::size_t> sends_per_ack(std::uint32_t n) {
    std::vector<std::size_t> sent;
    for (std::uint32_t k = 1; k <= n; ++k) sent.push_back(ack(0, kMss, (k + 1) * kMss));
    return sent;
  }

  TcpConfig config;
  TcpSenderState s;
  TcpRangeMap scoreboard;
  TcpSenderActions out;
};

TEST_F(SackSenderTest, Rfc6675WaitsUntilPipeFallsBelowCwnd) {
  open(TcpRecovery::sack_6675);
  const auto sent = sends_per_ack(19);
  // Limited transmit (section 5 step 3) sends a new segment on each of the first two
  // duplicate ACKs (pipe 19 < cwnd 20). Recovery on the third: ssthresh = cwnd = FlightSize / 2
  // = 11 segments, the retransmission goes at once, then nothing until pipe < cwnd (ACK 12),
  // then one per ACK.
  const std::vector<std::size_t> expected{1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(sent, expected);
  EXPECT_EQ(s.in_fast_recovery, 1u);
  EXPECT_EQ(s.ssthresh, 11u * kMss);
  EXPECT_EQ(s.limited_transmits, 2u);
  EXPECT_EQ(s.scoreboard.sack_recoveries, 1u);
  EXPECT_EQ(s.retransmitted_segments, 1u);
}

TEST_F(SackSenderTest, WithoutLimitedTransmitTheFirstDuplicateAcksSendNothing) {
  config.limited_transmit = false;
  open(TcpRecovery::sack_6675);
  const auto sent = sends_per_ack(3);
  EXPECT_EQ(sent, (std::vector<std::size_t>{0, 0, 1}));
  EXPECT_EQ(s.ssthresh, 10u * kMss);
}

TEST_F(SackSenderTest, SsthreshFromBytesInFlightHalvesThePipe) {
  // ssthresh_on_loss BYTES_IN_FLIGHT (ns-3.37's EnterRecovery with SACK): half the pipe before
  // the fast retransmit, 20 sent less 3 SACKed less the lost head = 16 segments.
  config.limited_transmit = false;
  config.ssthresh_base = SsthreshBase::bytes_in_flight;
  open(TcpRecovery::prr);
  sends_per_ack(3);
  EXPECT_EQ(s.in_fast_recovery, 1u);
  EXPECT_EQ(s.ssthresh, 8u * kMss);
}

TEST_F(SackSenderTest, PrrSpreadsTheReductionOverTheRecovery) {
  open(TcpRecovery::prr);
  const auto sent = sends_per_ack(19);
  // RFC 6937 section 6's setting: limited transmit on ACKs 1 and 2, so RecoverFS = FlightSize =
  // 22 and ssthresh = 11 segments. While pipe > ssthresh, sndcnt = ceil(prr_delivered *
  // ssthresh / RecoverFS) - prr_out, counted in bytes as ns-3's TcpPrrRecovery does (netwarp's
  // default): 500 B after ACK 5 is no whole segment, so after the forced fast retransmit on
  // ACK 3 a segment goes on ACKs 6, 8, ..., 14 (the RFC's table, counting whole segments, has
  // 5, 7, ..., 15: PrrAsWrittenTest). On ACK 16 pipe = ssthresh; from ACK 17 the slow-start
  // reduction bound sends one per ACK.
  const std::vector<std::size_t> expected{1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1};
  EXPECT_EQ(sent, expected);
  EXPECT_EQ(s.scoreboard.prr_delivered, 17u * kMss);
  EXPECT_EQ(s.scoreboard.prr_out, 9u * kMss);
  EXPECT_EQ(s.cwnd, s.ssthresh);  // pipe + sndcnt on the last ACK
}

// RFC 6937 section 6's PRR example as the RFC writes it: sends on ACKs 1 and 2 (limited
// transmit), the retransmission on 3, then one segment on ACKs 5, 7, .., 15 and on 18 and 19.
// Its assumptions, as set here: every segment one SMSS (1000 B), 20 in flight and the first
// lost, each later one SACKed by its own ACK, no new data lost; RFC 6675 with limited transmit
// (so RecoverFS = FlightSize = 22 and ssthresh = 11 segments at the third duplicate ACK); the
// share ceil(prr_delivered * ssthresh / RecoverFS) counted in whole segments, as the RFC's
// table does (prr_whole_segments). From ACK 17 pipe <= ssthresh and the reduction bound rules:
// both bounds allow the one segment the table shows on ACKs 18 and 19.
class PrrAsWrittenTest : public SackSenderTest, public ::testing::WithParamInterface<bool> {};

TEST_P(PrrAsWrittenTest, SendsOnTheAcksOfTheRfcsTable) {
  config.prr_whole_segments = true;
  config.prr_conservative = GetParam();
  open(TcpRecovery::prr);
  const auto sent = sends_per_ack(19);
  const std::vector<std::size_t> expected{1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
  EXPECT_EQ(sent, expected);
  EXPECT_EQ(s.ssthresh, 11u * kMss);
  EXPECT_EQ(s.scoreboard.prr_out, 9u * kMss);
}

INSTANTIATE_TEST_SUITE_P(Bounds, PrrAsWrittenTest, ::testing::Values(false, true),
                         [](const auto& test) { return test.param ? "Crb" : "Ssrb"; });

TEST_F(SackSenderTest, PrrShareOfGigabyteWindowsDoesNotOverflow) {
  // 1 GiB segments: ssthresh = 11 GiB, so prr_delivered * ssthresh = k x 11 x 2^60 passes 2^63
  // on the first ACK in recovery. The schedule must be the 1000 B one above, scaled.
  constexpr std::uint64_t kGiB = 1ULL << 30;
  config.sack = true;
  config.recovery = TcpRecovery::prr;
  config.initial_window_segments = 20;
  s = tcp_open(config, 100 * kGiB, static_cast<std::uint32_t>(kGiB), SimTime::zero(), out);
  std::vector<std::size_t> sent;
  for (std::uint64_t k = 1; k <= 19; ++k) {
    TcpSackBlocks b;
    b.block[b.count++] = TcpRange{kGiB, (k + 1) * kGiB};
    tcp_on_ack(s, config, 0, false, b, &scoreboard, SimTime::from_ps(1000), out);
    sent.push_back(out.segments.size());
  }
  const std::vector<std::size_t> expected{1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1};
  EXPECT_EQ(sent, expected);
  EXPECT_EQ(s.ssthresh, 11 * kGiB);
}

TEST_F(SackSenderTest, RecoveryEndsAtRecoveryPointWithCwndAtSsthresh) {
  open(TcpRecovery::prr);
  sends_per_ack(19);
  ack(22 * kMss, 0, 0);  // the retransmission arrived: everything up to RecoveryPoint
  EXPECT_EQ(s.in_fast_recovery, 0u);
  EXPECT_EQ(s.cwnd, 11u * kMss);
  EXPECT_EQ(s.scoreboard.sacked_bytes, 0u);
}

// Twelve of twenty segments lost: pipe falls below ssthresh, where the reduction bound rules.
class PrrBoundTest : public SackSenderTest {
 protected:
  std::vector<std::size_t> sends(bool conservative) {
    config.prr_conservative = conservative;
    config.limited_transmit = false;  // the bounds alone
    open(TcpRecovery::prr);
    std::vector<std::size_t> sent;
    for (std::uint32_t k = 1; k <= 6; ++k) sent.push_back(ack(0, 12 * kMss, (12 + k) * kMss));
    return sent;
  }
};

TEST_F(PrrBoundTest, SlowStartBoundSendsOneSegmentMoreThanDelivered) {
  EXPECT_EQ(sends(false), (std::vector<std::size_t>{0, 0, 2, 2, 2, 2}));
}

TEST_F(PrrBoundTest, ConservativeBoundSendsNoMoreThanDelivered) {
  EXPECT_EQ(sends(true), (std::vector<std::size_t>{0, 0, 1, 1, 1, 1}));
}

TEST_F(PrrBoundTest, Ns3SlowStartBoundWaitsForRetransmittedDataToBeAcknowledged) {
  // ns-3.37's TcpPrrRecovery (sack_reading ns3): without an ACK of retransmitted data SSRB's
  // limit is DeliveredData, so no segment beyond what was delivered. Before recovery ns-3 sends
  // while cwnd exceeds BytesInFlight, which with SACK is limited transmit whatever
  // limited_transmit says: one new segment on each of the first two duplicate ACKs.
  config.sack_reading = SackReading::ns3;
  EXPECT_EQ(sends(false), (std::vector<std::size_t>{1, 1, 1, 1, 1, 1}));
}

TEST_F(SackSenderTest, Ns3ReadingKeepsTheScoreboardOverATimeout) {
  config.sack_reading = SackReading::ns3;
  open(TcpRecovery::sack_6675);
  sends_per_ack(5);
  const std::uint64_t sacked = s.scoreboard.sacked_bytes;
  EXPECT_EQ(sacked, 5u * kMss);
  tcp_on_timer(s, config, s.timer_generation, &scoreboard, engine::seconds(5), out);
  EXPECT_EQ(s.timeouts, 1u);
  EXPECT_EQ(s.scoreboard.sacked_bytes, sacked);
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(out.segments[0].seq, 0u);
}

// ns-3.37's TcpSocketBase with SACK (sack_reading ns3, validation/ns3/SEMANTICS.md section 11).
TEST_F(SackSenderTest, Ns3ReadingGrowsTheWindowOnTheAckThatEndsRecovery) {
  // ProcessAck sets cwnd = ssthresh and then runs TcpNewReno's congestion avoidance for the
  // same ACK: 11 segments + SMSS^2 / cwnd. The RFC reading stops at ssthresh.
  config.sack_reading = SackReading::ns3;
  open(TcpRecovery::prr);
  sends_per_ack(19);
  ack(22 * kMss, 0, 0);
  EXPECT_EQ(s.in_fast_recovery, 0u);
  EXPECT_EQ(s.cwnd, 11u * kMss + kMss * kMss / (11 * kMss));
}

TEST_F(SackSenderTest, Ns3ReadingDoesNotGrowOnACumulativeAckThatAlsoSacks) {
  // In CA_DISORDER an ACK that moves snd_una and SACKs new data is a duplicate: no growth, and
  // the timer is not restarted. Slow start outside it: +1 SMSS.
  config.sack_reading = SackReading::ns3;
  open(TcpRecovery::prr);
  ack(kMss, 2 * kMss, 3 * kMss);
  EXPECT_EQ(s.cwnd, 20u * kMss);
  const std::int64_t deadline = s.rto_deadline_ps;
  tcp_on_ack(s, config, 2 * kMss, false, TcpSackBlocks{1, {TcpRange{4 * kMss, 5 * kMss}}},
             &scoreboard, SimTime::from_ps(2000), out);
  EXPECT_EQ(s.cwnd, 20u * kMss);
  EXPECT_EQ(s.rto_deadline_ps, deadline);
  tcp_on_ack(s, config, 5 * kMss, false, TcpSackBlocks{}, &scoreboard, SimTime::from_ps(3000), out);
  EXPECT_EQ(s.cwnd, 21u * kMss);
  EXPECT_NE(s.rto_deadline_ps, deadline);
}

TEST_F(SackSenderTest, Ns3ReadingTakesSsthreshFromBytesInFlightAtEveryTimeout) {
  // ReTxTimeout: ssthresh = max(2 SMSS, BytesInFlight / 2), also on a repeated timeout (the RFC
  // reading keeps ssthresh then). Segments 1-5 SACKed, 0 lost: 20 sent, 15 in flight.
  config.sack_reading = SackReading::ns3;
  config.limited_transmit = false;
  open(TcpRecovery::prr);
  ack(0, kMss, 2 * kMss);
  ack(0, kMss, 3 * kMss);
  const std::uint64_t in_flight = s.snd_max - 2 * kMss;
  tcp_on_timer(s, config, s.timer_generation, &scoreboard, engine::seconds(5), out);
  EXPECT_EQ(s.ssthresh, in_flight / 2);
  tcp_on_timer(s, config, s.timer_generation, &scoreboard, engine::seconds(20), out);
  EXPECT_EQ(s.timeouts, 2u);
  EXPECT_EQ(s.ssthresh, 2u * kMss);  // only the resent head was in flight
}

TEST_F(SackSenderTest, Ns3ReadingResendsLostSegmentsByBytesInFlightAfterATimeout) {
  // After the timeout every unSACKed segment is lost and out of flight; the ACK of the head
  // (slow start: cwnd 2 SMSS) releases two lost segments, 1 and 4, skipping the SACKed 2-3.
  config.sack_reading = SackReading::ns3;
  open(TcpRecovery::prr);
  ack(0, 2 * kMss, 3 * kMss);
  ack(0, 2 * kMss, 4 * kMss);
  tcp_on_timer(s, config, s.timer_generation, &scoreboard, engine::seconds(5), out);
  ASSERT_EQ(out.segments.size(), 1u);
  ack(kMss, 2 * kMss, 4 * kMss);
  EXPECT_EQ(s.cwnd, 2u * kMss);
  ASSERT_EQ(out.segments.size(), 2u);
  EXPECT_EQ(out.segments[0].seq, kMss);
  EXPECT_EQ(out.segments[1].seq, 4u * kMss);
}

TEST_F(SackSenderTest, Ns3ReadingCountsRetransmittedSegmentsInFlightOnceSacked) {
  // 20 segments, all sent, segment 0 lost, one more SACKed per ACK. Recovery on ACK 3 (pipe 16,
  // ssthresh 8, RecoverFS 20), PRR lets NextSeg's rule 3 resend segment 8 on ACK 7; ACK 8 SACKs
  // its first copy. ns-3 keeps the retransmitted flag, so BytesInFlight = 20 - 8 SACKed - 1 lost
  // + 2 retransmitted = 13 segments and PRR sets cwnd = 13000 + ceil(6000 * 8 / 20) - 2000.
  config.sack_reading = SackReading::ns3;
  use_prr_from_bytes_in_flight(20);
  s = tcp_open(config, 20 * kMss, kMss, SimTime::zero(), out);
  const auto sent = sends_per_ack(8);
  EXPECT_EQ(sent, (std::vector<std::size_t>{0, 0, 1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(s.ssthresh, 8u * kMss);
  EXPECT_EQ(s.cwnd, 13u * kMss + 400);
}

TEST_F(SackSenderTest, Ns3ReadingWrapsPrrsShareProductAt32Bits) {
  // 200 segments in flight, segment 0 lost, one more SACKed per ACK; limited transmit sends two
  // more, so at the third duplicate ACK RecoverFS is 202 segments and ssthresh 99 (pipe 198).
  // TcpPrrRecovery multiplies prr_delivered by ssthresh in 32 bits: PRR lets one segment go per
  // two ACKs until ACK 45; from ACK 46 (44 segments delivered, 44000 x 99000 > 2^32) the product
  // wraps, the share falls far below what was sent, and nothing goes while pipe > ssthresh. The
  // RFC reading keeps sending.
  use_prr_from_bytes_in_flight(200);
  const auto sends_between = [](const std::vector<std::size_t>& sent, std::size_t from,
                                std::size_t to) {
    std::size_t n = 0;
    for (std::size_t k = from; k <= to; ++k) n += sent[k - 1];
    return n;
  };
  for (const SackReading reading : {SackReading::ns3, SackReading::rfc}) {
    config.sack_reading = reading;
    scoreboard = TcpRangeMap{};
    s = tcp_open(config, 1000 * kMss, kMss, SimTime::zero(), out);
    const auto sent = sends_per_ack(60);
    EXPECT_EQ(s.ssthresh, 99u * kMss);
    EXPECT_EQ(sends_between(sent, 4, 45), 20u);
    if (reading == SackReading::ns3) {
      EXPECT_EQ(sends_between(sent, 46, 60), 0u);
    } else {
      EXPECT_EQ(sends_between(sent, 46, 60), 7u);
    }
  }
}

TEST_F(SackSenderTest, Ns3ReadingWrapsTheSlowStartBoundWhenMoreWasSentThanDelivered) {
  // A sender of the two-level tree incast (32 x 256 KiB, Q = 32 KiB) against ns-3.37: ten
  // segments out, segment 0 and 2-9 lost. Recovery on the third duplicate ACK (ssthresh 4 from
  // BytesInFlight 8), new data and retransmissions by PRR; by the ACK of segment 5 (a
  // retransmission) seven segments went out against six delivered. TcpPrrRecovery's SSRB bound
  // max(prr_delivered - prr_out, DeliveredData) + MSS is uint32_t there: the difference wraps and
  // the bound comes to 0, so ns-3 sends nothing on that ACK (pipe 2, ssthresh 4), where signed
  // arithmetic (ns-3.38 on) sends two segments.
  config.sack_reading = SackReading::ns3;
  use_prr_from_bytes_in_flight(10);
  s = tcp_open(config, 1000 * kMss, kMss, SimTime::zero(), out);
  const auto sack_ack = [this](std::uint32_t a, std::vector<TcpRange> blocks) {  // in segments
    for (TcpRange& r : blocks) r = TcpRange{r.begin * kMss, r.end * kMss};
    return ack_blocks(a * kMss, blocks);
  };
  std::vector<std::size_t> sent;
  sent.push_back(sack_ack(0, {{1, 2}}));
  sent.push_back(sack_ack(0, {{10, 11}, {1, 2}}));
  sent.push_back(sack_ack(0, {{10, 12}, {1, 2}}));  // recovery: segment 0 again
  sent.push_back(sack_ack(2, {{10, 12}}));
  sent.push_back(sack_ack(2, {{10, 13}}));
  sent.push_back(sack_ack(3, {{10, 13}}));
  sent.push_back(sack_ack(4, {{10, 13}}));
  sent.push_back(sack_ack(5, {{10, 13}}));
  EXPECT_EQ(s.ssthresh, 4u * kMss);
  EXPECT_EQ(sent, (std::vector<std::size_t>{1, 1, 1, 1, 1, 2, 2, 0}));
  sent.push_back(sack_ack(6, {{10, 13}}));  // ns-3 then sends segments 7 and 8
  EXPECT_EQ(sent.back(), 2u);
}

TEST_F(SackSenderTest, TimeoutClearsTheScoreboard) {
  open(TcpRecovery::sack_6675);
  sends_per_ack(5);
  EXPECT_GT(s.scoreboard.sacked_bytes, 0u);
  tcp_on_timer(s, config, s.timer_generation, &scoreboard, engine::seconds(5), out);
  EXPECT_EQ(s.timeouts, 1u);
  EXPECT_EQ(s.in_fast_recovery, 0u);
  EXPECT_EQ(s.scoreboard.sacked_bytes, 0u);
  EXPECT_EQ(scoreboard.size(), 0u);
  ASSERT_EQ(out.segments.size(), 1u);
  EXPECT_EQ(out.segments[0].seq, 0u);
}

}  // namespace
}  // namespace netwarp::netmodels
