// TCP sender and receiver state machines (netmodels/src/transport/tcp_*.cpp) joined by a tiny
// event loop over a pipe with a fixed one-way delay and chosen or seeded random losses, as a
// host LP would drive them: segments and ACKs become arrivals, timer requests become timer
// events carrying their generation. Checks that flows complete with every byte delivered once.
#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <random>
#include <set>
#include <vector>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;

enum class Kind : std::uint8_t { data, ack, rto, delayed_ack };

struct Event {
  std::int64_t at_ps;
  std::uint64_t order;
  Kind kind;
  std::uint32_t a;     // seq, ack or generation
  std::uint32_t b;     // length or ece
  TcpSackBlocks sack;  // ack
  bool operator>(const Event& o) const {
    return at_ps != o.at_ps ? at_ps > o.at_ps : order > o.order;
  }
};

class Pipe {
 public:
  Pipe(const TcpConfig& config, std::uint64_t bytes) : config_(config), r_(tcp_accept(bytes)) {
    s_ = tcp_open(config_, bytes, 1000, SimTime::zero(), sent_);
    after_sender(SimTime::zero());
  }
  std::set<std::uint32_t> drop_first_send;  // seqs whose first transmission is lost
  double loss = 0;                          // random loss of any packet
  // Runs until the sender completes; returns the number of events handled.
  std::uint64_t run(std::uint64_t max_events) {
    std::uint64_t n = 0;
    while (!events_.empty() && s_.completed == 0 && n < max_events) {
      const Event ev = events_.top();
      events_.pop();
      ++n;
      handle(ev, SimTime::from_ps(ev.at_ps));
    }
    return n;
  }
  const TcpSenderState& sender() const { return s_; }
  const TcpReceiverState& receiver() const { return r_; }
  std::uint64_t delivered = 0;

 private:
  void push(SimTime at, Kind kind, std::uint32_t a, std::uint32_t b, TcpSackBlocks sack = {}) {
    events_.push(Event{at.ps(), order_++, kind, a, b, sack});
  }
  bool lost() { return loss > 0 && std::uniform_real_distribution<>(0, 1)(rng_) < loss; }
  void after_sender(SimTime now) {
    for (const TcpSegment& seg : sent_.segments) {
      const bool dropped = (!seg.is_retransmission && drop_first_send.count(seg.seq) > 0);
      if (!dropped && !lost()) push(now + us(50), Kind::data, seg.seq, seg.length);
    }
    if (sent_.timer.wanted) push(sent_.timer.at, Kind::rto, sent_.timer.generation, 0);
  }
  void after_receiver(SimTime now) {
    delivered += got_.delivered;
    if (got_.send_ack && !lost())
      push(now + us(50), Kind::ack, got_.ack, got_.ece ? 1 : 0, got_.sack);
    if (got_.timer.wanted) push(got_.timer.at, Kind::delayed_ack, got_.timer.generation, 0);
  }
  void handle(const Event& ev, SimTime now) {
    switch (ev.kind) {
      case Kind::data:
        tcp_on_segment(r_, config_, ooo_, ev.a, ev.b, false, now, got_);
        break;
      case Kind::delayed_ack:
        tcp_on_delayed_ack_timer(r_, config_, ev.a, now, got_);
        break;
      case Kind::ack:
        tcp_on_ack(s_, config_, ev.a, ev.b != 0, ev.sack, &scoreboard_, now, sent_);
        break;
      case Kind::rto:
        tcp_on_timer(s_, config_, ev.a, &scoreboard_, now, sent_);
        break;
    }
    if (ev.kind == Kind::data || ev.kind == Kind::delayed_ack) {
      after_receiver(now);
    } else {
      after_sender(now);
    }
  }

  TcpConfig config_;
  TcpSenderState s_;
  TcpReceiverState r_;
  TcpRangeMap ooo_;
  TcpRangeMap scoreboard_;
  TcpSenderActions sent_;
  TcpReceiverActions got_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t order_ = 0;
  std::mt19937_64 rng_{12345};
};

TEST(TcpFlow, LosslessFlowCompletesWithoutRetransmissions) {
  Pipe pipe(TcpConfig{}, 1'000'000);
  pipe.run(100'000);
  EXPECT_EQ(pipe.sender().completed, 1u);
  EXPECT_EQ(pipe.delivered, 1'000'000u);
  EXPECT_EQ(pipe.sender().retransmitted_segments, 0u);
  EXPECT_EQ(pipe.sender().segments_sent, 1000u);
}

TEST(TcpFlow, OneLossIsRepairedByOneFastRetransmit) {
  Pipe pipe(TcpConfig{}, 1'000'000);
  pipe.drop_first_send = {50'000};
  pipe.run(100'000);
  EXPECT_EQ(pipe.sender().completed, 1u);
  EXPECT_EQ(pipe.delivered, 1'000'000u);
  EXPECT_EQ(pipe.sender().fast_retransmits, 1u);
  EXPECT_EQ(pipe.sender().retransmitted_segments, 1u);
  EXPECT_EQ(pipe.sender().timeouts, 0u);
}

TEST(TcpFlow, LossOfTheLastSegmentIsRepairedByTimeout) {
  Pipe pipe(TcpConfig{}, 20'000);
  pipe.drop_first_send = {19'000};
  pipe.run(100'000);
  EXPECT_EQ(pipe.sender().completed, 1u);
  EXPECT_EQ(pipe.delivered, 20'000u);
  EXPECT_EQ(pipe.sender().timeouts, 1u);
}

TEST(TcpFlow, RandomLossWithDelayedAcksStillDeliversEveryByteOnce) {
  TcpConfig config;
  config.delayed_ack = true;
  Pipe pipe(config, 2'000'000);
  pipe.loss = 0.05;
  EXPECT_LT(pipe.run(1'000'000), 1'000'000u);
  EXPECT_EQ(pipe.sender().completed, 1u);
  EXPECT_EQ(pipe.delivered, 2'000'000u);
  EXPECT_EQ(pipe.receiver().rcv_nxt, 2'000'000u);
  EXPECT_GT(pipe.sender().fast_retransmits, 0u);
}

TcpConfig sack_config(TcpRecovery recovery) {
  TcpConfig config;
  config.sack = true;
  config.recovery = recovery;
  return config;
}

class TcpFlowRecovery : public ::testing::TestWithParam<TcpRecovery> {};

TEST_P(TcpFlowRecovery, ThreeLossesInOneWindowAreRepairedWithoutTimeout) {
  Pipe pipe(sack_config(GetParam()), 1'000'000);
  pipe.drop_first_send = {50'000, 53'000, 58'000};
  pipe.run(100'000);
  EXPECT_EQ(pipe.sender().completed, 1u);
  EXPECT_EQ(pipe.delivered, 1'000'000u);
  EXPECT_EQ(pipe.sender().timeouts, 0u);
  EXPECT_EQ(pipe.sender().fast_retransmits, 1u);  // one recovery repairs all three
  EXPECT_EQ(pipe.sender().retransmitted_segments, 3u);
}

TEST_P(TcpFlowRecovery, RandomLossStillDeliversEveryByteOnce) {
  TcpConfig config = sack_config(GetParam());
  config.delayed_ack = true;
  Pipe pipe(config, 2'000'000);
  pipe.loss = 0.05;
  EXPECT_LT(pipe.run(1'000'000), 1'000'000u);
  EXPECT_EQ(pipe.sender().completed, 1u);
  EXPECT_EQ(pipe.delivered, 2'000'000u);
  EXPECT_EQ(pipe.receiver().rcv_nxt, 2'000'000u);
  EXPECT_GT(pipe.sender().scoreboard.sack_recoveries, 0u);
}

INSTANTIATE_TEST_SUITE_P(SackBased, TcpFlowRecovery,
                         ::testing::Values(TcpRecovery::sack_6675, TcpRecovery::prr));

TEST(TcpFlow, NewRenoNeedsOneRecoveryPerLossOrATimeoutForThreeLosses) {
  Pipe pipe(TcpConfig{}, 1'000'000);
  pipe.drop_first_send = {50'000, 53'000, 58'000};
  pipe.run(100'000);
  EXPECT_EQ(pipe.sender().completed, 1u);
  EXPECT_EQ(pipe.delivered, 1'000'000u);
  EXPECT_EQ(pipe.sender().retransmitted_segments, 3u);
  EXPECT_EQ(pipe.sender().scoreboard.sack_recoveries, 0u);
}

}  // namespace
}  // namespace netwarp::netmodels
