// PFC's ingress accounting (PfcIngress): what comes in beyond XOFF is held in the headroom,
// apart from the bytes held below it. With a static XOFF a packet is admitted exactly while
// the bytes held stay within XOFF + headroom; a dynamic XOFF that falls below what a port
// already holds takes nothing from the headroom; the headroom drains first. The default
// headroom is what can still arrive once a packet crosses XOFF.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "netwarp/netmodels/output_port.hpp"
#include "network_fixtures.hpp"
#include "port/pfc_ingress.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;
using testing::unlogged;

constexpr std::uint64_t kFrame = 1538;  // a 1500 B MTU and 38 B of framing

PfcIngress ingress(std::uint64_t xoff, std::uint64_t xon, std::uint64_t headroom) {
  return PfcIngress(PfcConfig{true, xoff, xon, headroom, 65535}, 1, 10'000'000'000,
                    SimTime::from_ps(us(2).ps()), kFrame);
}

PortClassRecord record(const PfcIngress& pfc) {
  PortClassRecord r;
  pfc.fill(0, r);
  return r;
}

TEST(PfcIngress, AStaticXoffAdmitsExactlyWhileTheBytesHeldStayWithinXoffPlusHeadroom) {
  constexpr std::uint64_t xoff = 20'000, headroom = 6'000;
  PfcIngress pfc = ingress(xoff, 10'000, headroom);
  engine::EventCtx ctx = unlogged();
  std::mt19937_64 draw(7);
  std::vector<std::uint32_t> held;  // packets held, oldest first
  std::uint64_t bytes = 0, refused = 0;
  for (int step = 0; step < 20'000; ++step) {
    if (!held.empty() && draw() % 3 == 0) {  // one leaves on the wire
      const std::size_t i = draw() % held.size();
      pfc.release(0, held[i], xoff, ctx);
      bytes -= held[i];
      held.erase(held.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    const auto size = static_cast<std::uint32_t>(64 + draw() % (kFrame - 63));
    const bool fits = bytes + size <= xoff + headroom;
    ASSERT_EQ(pfc.admits(0, size, xoff, ctx), fits) << "step " << step << ", " << bytes << " held";
    if (!fits) {
      ++refused;
      continue;
    }
    pfc.take(0, size, xoff, ctx);
    held.push_back(size);
    bytes += size;
  }
  EXPECT_GT(refused, 100u);
  const PortClassRecord r = record(pfc);
  EXPECT_EQ(r.ingress_overflows, refused);
  EXPECT_GT(r.max_headroom_bytes, headroom);  // an overflow's wanted bytes count
  EXPECT_EQ(r.headroom_bytes, headroom);
}

TEST(PfcIngress, ADynamicXoffFallingBelowWhatIsHeldTakesNothingFromTheHeadroom) {
  PfcIngress pfc = ingress(0, 0, 3'000);
  engine::EventCtx ctx = unlogged();
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(pfc.admits(0, 1000, 30'000, ctx));
    EXPECT_EQ(pfc.take(0, 1000, 30'000, ctx), PfcIngress::Action::none);
  }
  // The pool filled elsewhere: XOFF falls from 30 000 to 5 000 B below the 20 000 held. What
  // comes in now goes to the headroom, 3 000 B of it, and the first packet pauses upstream.
  EXPECT_EQ(pfc.take(0, 1000, 5'000, ctx), PfcIngress::Action::pause);
  pfc.note_pause_sent(0, SimTime::from_ps(us(100).ps()), ctx);
  EXPECT_TRUE(pfc.admits(0, 1000, 5'000, ctx));
  pfc.take(0, 1000, 5'000, ctx);
  EXPECT_TRUE(pfc.admits(0, 1000, 5'000, ctx));
  pfc.take(0, 1000, 5'000, ctx);
  EXPECT_FALSE(pfc.admits(0, 1000, 5'000, ctx));  // 3 000 B in the headroom: full
  // A packet leaving takes its bytes from the headroom first: room for one more.
  pfc.release(0, 1000, 5'000, ctx);
  EXPECT_TRUE(pfc.admits(0, 1000, 5'000, ctx));
  const PortClassRecord r = record(pfc);
  EXPECT_EQ(r.max_ingress_bytes, 24'000u);  // with the refused packet, as it wanted
  EXPECT_EQ(r.max_headroom_bytes, 4'000u);
  EXPECT_EQ(r.ingress_overflows, 1u);
}

TEST(PfcIngress, APacketCrossingXoffPutsOnlyItsPartBeyondInTheHeadroom) {
  PfcIngress pfc = ingress(10'000, 5'000, 1'000);
  engine::EventCtx ctx = unlogged();
  for (int i = 0; i < 9; ++i) pfc.take(0, 1000, 10'000, ctx);
  pfc.take(0, 500, 10'000, ctx);                  // 9 500 B held, all below XOFF
  EXPECT_TRUE(pfc.admits(0, 1500, 10'000, ctx));  // 500 B below, 1 000 B beyond
  EXPECT_EQ(pfc.take(0, 1500, 10'000, ctx), PfcIngress::Action::pause);
  EXPECT_EQ(record(pfc).max_headroom_bytes, 1'000u);
  EXPECT_FALSE(pfc.admits(0, 1, 10'000, ctx));
}

TEST(PfcIngress, TheDefaultHeadroomHoldsWhatArrivesOnceAPacketCrossesXoff) {
  // 10 Gbit/s, 2 us: the round trip holds 5 000 B; three max frames (the packet crossing XOFF,
  // the frame on the reverse wire the PAUSE waits for, the frame upstream is sending when it
  // arrives) and the PAUSE frame.
  EXPECT_EQ(ingress(20'000, 10'000, 0).headroom_bytes(), 5'000 + 3 * kFrame + kPauseFrameWireBytes);
  EXPECT_EQ(ingress(20'000, 10'000, 7'777).headroom_bytes(), 7'777u);
  // A round trip of a fractional byte count is rounded up: 1 Gbit/s over 1 ns each way.
  const PfcIngress slow(PfcConfig{true, 20'000, 10'000, 0, 65535}, 1, 1'000'000'000,
                        SimTime::from_ps(1'000), kFrame);
  EXPECT_EQ(slow.headroom_bytes(), 1 + 3 * kFrame + kPauseFrameWireBytes);
}

}  // namespace
}  // namespace netwarp::netmodels
