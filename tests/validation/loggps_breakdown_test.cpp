// LogGPS call splits (overhead, send wait, receive wait, synchronisation) worked by hand with
// the Myrinet parameters of Table 5 (see loggps_test.cpp). Times in ns.
#include <gtest/gtest.h>

#include "netwarp/validation/loggps_breakdown.hpp"

namespace netwarp::validation {
namespace {

constexpr double kTol = 1e-6;
const LogGpsParams kMyrinet = loggps_preset("myrinet");

void expect_split(const CallSplit& got, double overhead, double send_wait, double recv_wait,
                  double sync) {
  EXPECT_NEAR(got.overhead, overhead, kTol);
  EXPECT_NEAR(got.send_wait, send_wait, kTol);
  EXPECT_NEAR(got.recv_wait, recv_wait, kTol);
  EXPECT_NEAR(got.sync, sync, kTol);
}

TEST(LogGpsBreakdown, RendezvousWithALateReceiver) {
  // k = 20000, ts = 0, tr = 50000. Send: o' 6730 out, L 850, wait 50000 - 7580 = 42420,
  // 2o' + L = 14310, o' 6730, T1' 102730: overhead 116190, sync 15160, total 173770 (eq 5).
  // Receive: no wait, 2o' = 13460 and T3' = 83930 of overhead, sync L + o' + T1' + T2' =
  // 850 + 6730 + 102730 + 125579.83 = 235889.83: total 333279.83 (eq 9), ending at ts +
  // comm_time = 383279.83.
  const PairTimes t = loggps_blocking_pair(kMyrinet, 20000, 0, 50000);
  expect_split(t.send, 116190, 42420, 0, 15160);
  expect_split(t.recv, 97390, 0, 0, 235889.83);
  EXPECT_NEAR(t.send_end, 173770, kTol);
  EXPECT_NEAR(t.recv_end, 383279.83, kTol);
  EXPECT_NEAR(t.send.total(), loggps::send(kMyrinet, 20000, 50000), kTol);
  EXPECT_NEAR(t.recv.total(), loggps::recv(kMyrinet, 20000, 50000), kTol);
}

TEST(LogGpsBreakdown, RendezvousWithAnEarlyReceiver) {
  // ts = 10000, tr = 0 (d = -10000): the sender never waits (131350 = 116190 + 15160); the
  // receiver waits 7580 + 10000 = 17580 for the REQ, then as above: ends at 10000 + 340859.83.
  const PairTimes t = loggps_blocking_pair(kMyrinet, 20000, 10000, 0);
  expect_split(t.send, 116190, 0, 0, 15160);
  expect_split(t.recv, 97390, 0, 17580, 235889.83);
  EXPECT_NEAR(t.send_end, 141350, kTol);
  EXPECT_NEAR(t.recv_end, 350859.83, kTol);
}

TEST(LogGpsBreakdown, ShortMessageReceiverWaitsForTheData) {
  // k = 1000, ts = 0, tr = 20000: send T1 = 11750 overhead; receive waits 11750 + 16020
  // - 20000 = 7770, then T3 = 11450.
  const PairTimes t = loggps_blocking_pair(kMyrinet, 1000, 0, 20000);
  expect_split(t.send, 11750, 0, 0, 0);
  expect_split(t.recv, 11450, 0, 7770, 0);
  EXPECT_NEAR(t.recv_end, 39220, kTol);
}

TEST(LogGpsBreakdown, IsendAndWaitTakeTheTailOfTheBlockingSend) {
  // Isend at 0 (o' = 6730), receive at 50000, Wait at 20000: of the blocking send's segments
  // (cumulative 6730, 7580, 50000, 64310, 71040, 173770) the Wait gets 30000 of send wait,
  // 14310 of sync and 6730 + 102730 of overhead: 153770 = 173770 - 20000.
  const NonblockingTimes t = loggps_nonblocking_send(kMyrinet, 20000, 0, 20000, 50000);
  expect_split(t.start, 6730, 0, 0, 0);
  EXPECT_NEAR(t.start_end, 6730, kTol);
  expect_split(t.wait, 109460, 30000, 0, 14310);
  EXPECT_NEAR(t.wait_end, 173770, kTol);
  // A Wait long after completion costs o' (11), all overhead.
  const NonblockingTimes late = loggps_nonblocking_send(kMyrinet, 20000, 0, 200000, 50000);
  expect_split(late.wait, 6730, 0, 0, 0);
  EXPECT_NEAR(late.wait_end, 206730, kTol);
  EXPECT_THROW(loggps_nonblocking_send(kMyrinet, 20000, 100, 50, 0), std::invalid_argument);
}

TEST(LogGpsBreakdown, IrecvAndWaitTakeTheTailOfTheBlockingReceive) {
  // k = 1000, send at 0, Irecv at 0, Wait at 10000: blocking receive = 27770 wait + 11450;
  // the Wait keeps 17770 of it and the 11450.
  const NonblockingTimes t = loggps_nonblocking_recv(kMyrinet, 1000, 0, 10000, 0);
  expect_split(t.start, 6730, 0, 0, 0);
  expect_split(t.wait, 11450, 0, 17770, 0);
  EXPECT_NEAR(t.wait_end, 39220, kTol);
}

TEST(LogGpsBreakdown, PicosecondSplitAddsUpToTheRoundedTotal) {
  // 1000.4 + 2000.4 + 3000.4 ps round to 6000, the total 6001.2 to 6001: the 1 ps goes to
  // the largest part.
  const CallSplitPs ps = to_ps(CallSplit{1.0004, 2.0004, 3.0004, 0});
  EXPECT_EQ(ps.overhead_ps, 1000);
  EXPECT_EQ(ps.send_wait_ps, 2000);
  EXPECT_EQ(ps.recv_wait_ps, 3001);
  EXPECT_EQ(ps.sync_ps, 0);
  EXPECT_EQ(ps.total_ps(), 6001);
}

}  // namespace
}  // namespace netwarp::validation
