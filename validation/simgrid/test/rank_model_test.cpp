// RankModel driven by a tiny event loop instead of SimGrid: a transfer of b bytes arrives
// kLatency + b ps after it is sent (1 byte per ps), so every time below is worked by hand from
// the protocol rules of the packet simulation's MPI host.
#include "rank_model.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <queue>
#include <tuple>

namespace netwarp::simgrid_check {
namespace {

using mpiemul::RankProgramBuilder;
using mpiemul::SimTime;

constexpr std::int64_t kLatency = 500;

class EventLoop final : public TransferSink {
 public:
  EventLoop(const mpiemul::Program& program, const mpiemul::MpiConfig& config)
      : busy_(program.size(), false), end_(program.size(), -1) {
    for (RankId r = 0; r < program.size(); ++r)
      ranks_.push_back(std::make_unique<RankModel>(r, program, config, *this));
  }

  void send(const Transfer& t) override {
    events_.push({now_ + kLatency + static_cast<std::int64_t>(t.bytes), order_++, t.dst, true, t});
  }

  // Runs to the end; returns when each rank's program ended (-1: never).
  std::vector<std::int64_t> run() {
    for (RankId r = 0; r < ranks_.size(); ++r) step(r);
    while (!events_.empty()) {
      const Event e = events_.top();
      events_.pop();
      now_ = e.time;
      if (e.is_arrival) {
        ranks_[e.rank]->on_transfer(e.transfer);
        if (!busy_[e.rank]) step(e.rank);
      } else {
        busy_[e.rank] = false;
        ranks_[e.rank]->activity_done();
        step(e.rank);
      }
    }
    return end_;
  }

 private:
  struct Event {
    std::int64_t time;
    std::uint64_t order;
    RankId rank;
    bool is_arrival;
    Transfer transfer;
    bool operator>(const Event& other) const {
      return std::tie(time, order) > std::tie(other.time, other.order);
    }
  };

  void step(RankId r) {
    const RankStep s = ranks_[r]->next();
    if (s.kind == RankStep::Kind::busy) {
      busy_[r] = true;
      events_.push({now_ + s.cost.ps(), order_++, r, false, {}});
    } else if (s.kind == RankStep::Kind::finished && end_[r] < 0) {
      end_[r] = now_;
    }
  }

  std::vector<std::unique_ptr<RankModel>> ranks_;
  std::vector<bool> busy_;
  std::vector<std::int64_t> end_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::int64_t now_ = 0;
  std::uint64_t order_ = 0;
};

// o = 1000 ps; eager per-byte 2 ps/B each side, rendezvous 1 ps/B, unexpected copy 0.5 ps/B;
// S = 500 B, envelope 64 B.
mpiemul::MpiConfig config() {
  mpiemul::MpiConfig c;
  c.costs.o = SimTime::from_ps(1000);
  c.costs.send_eager_fs_per_byte = 2000;
  c.costs.recv_eager_fs_per_byte = 2000;
  c.costs.send_rndv_fs_per_byte = 1000;
  c.costs.recv_rndv_fs_per_byte = 1000;
  c.costs.copy_fs_per_byte = 500;
  c.protocol.eager_bytes = 500;
  c.protocol.envelope_bytes = 64;
  c.rank_hosts = {0, 1};
  return c;
}

// Both ranks on host 0: shared-memory copies at 1 ps/B up to 500 B, single copy at 0.5 ps/B
// after a 2000 ps set-up above.
mpiemul::MpiConfig one_host_config() {
  mpiemul::MpiConfig c = config();
  c.rank_hosts = {0, 0};
  c.shm.copy_fs_per_byte = 1000;
  c.shm.eager_bytes = 500;
  c.shm.single_copy_setup = SimTime::from_ps(2000);
  c.shm.single_copy_fs_per_byte = 500;
  return c;
}

// Rank 0 sends `bytes` to rank 1 and receives them back; rank 1 first computes `delay_ps`.
mpiemul::Program ping_pong(std::uint64_t bytes, std::int64_t delay_ps = 0) {
  RankProgramBuilder zero(0, 2), one(1, 2);
  zero.send(1, 0, bytes);
  zero.recv(1, 0, bytes);
  if (delay_ps > 0) one.compute(SimTime::from_ps(delay_ps));
  one.recv(0, 0, bytes);
  one.send(0, 0, bytes);
  mpiemul::Program p;
  p.ranks.push_back(zero.take());
  p.ranks.push_back(one.take());
  return p;
}

TEST(RankModel, EagerPingPongPaysHostCostsOnEachSideAndTheWholeMessageOnTheWire) {
  const auto program = ping_pong(100);
  const auto c = config();
  // send: o + 100 * 2 = 1200; wire 164 B: 664; receive: 1200. One way 3064, back 3064 more;
  // rank 1 ends when its send is out (3064 + 1200).
  const auto end = EventLoop(program, c).run();
  EXPECT_EQ(end[0], 6128);
  EXPECT_EQ(end[1], 4264);
}

TEST(RankModel, RendezvousWaitsForClearToSendAndSendsTheDataAlone) {
  mpiemul::RankProgramBuilder zero(0, 2), one(1, 2);
  zero.send(1, 0, 1000);
  one.recv(0, 0, 1000);
  mpiemul::Program program;
  program.ranks.push_back(zero.take());
  program.ranks.push_back(one.take());
  const auto c = config();
  // REQ after o (1000), arrives 1000 + 564 = 1564; receiver 2o -> CTS at 3564, arrives 4128;
  // sender o + o + 1000 * 1 = 3000 -> data out at 7128 (the send is done), 1000 B arrive at
  // 8628; receiver o + 1000 * 1 = 2000 -> 10628.
  const auto end = EventLoop(program, c).run();
  EXPECT_EQ(end[0], 7128);
  EXPECT_EQ(end[1], 10628);
}

TEST(RankModel, LateReceiveCopiesTheUnexpectedMessage) {
  const auto program = ping_pong(100, 5000);
  const auto c = config();
  // The message waits from 1864 until rank 1 posts its receive at 5000: o + 200 + 100 * 0.5.
  // Then the send back: 6250 + 1200 = 7450, arriving 8114; rank 0 receives in 1200.
  const auto end = EventLoop(program, c).run();
  EXPECT_EQ(end[1], 7450);
  EXPECT_EQ(end[0], 9314);
}

TEST(RankModel, GetModeReadsTheDataAndTellsTheSender) {
  mpiemul::RankProgramBuilder zero(0, 2), one(1, 2);
  zero.send(1, 0, 1000);
  one.recv(0, 0, 1000);
  mpiemul::Program program;
  program.ranks.push_back(zero.take());
  program.ranks.push_back(one.take());
  auto c = config();
  c.protocol.rendezvous = mpiemul::RendezvousMode::get;
  // REQ arrives 1564; 2o -> GET at 3564, arrives 4128; the sender's NIC answers with the data
  // at once: arrives 4128 + 1500 = 5628; receiver o + 1000 -> 7628, FIN arrives 8192; sender o.
  const auto end = EventLoop(program, c).run();
  EXPECT_EQ(end[1], 7628);
  EXPECT_EQ(end[0], 9192);
}

TEST(RankModel, SenderSideMatchingWritesALongMessageStraightIntoThePostedReceive) {
  mpiemul::RankProgramBuilder zero(0, 2), one(1, 2);
  zero.compute(SimTime::from_ps(1000));
  zero.send(1, 0, 1000);
  one.recv(0, 0, 1000);
  mpiemul::Program program;
  program.ranks.push_back(zero.take());
  program.ranks.push_back(one.take());
  auto c = config();
  c.protocol.sender_side_matching = true;
  // Rank 1's receive request (64 B) reaches rank 0 at 564, before its send starts at 1000:
  // a direct write of 1064 B after o + 1000 * 1 (rendezvous per-byte cost), at 3000; it
  // arrives at 4564 and costs the receiver o + 1000 * 1.
  const auto end = EventLoop(program, c).run();
  EXPECT_EQ(end[0], 3000);
  EXPECT_EQ(end[1], 6564);
}

TEST(RankModel, BoundedUnexpectedBufferHoldsASendUntilCreditReturns) {
  mpiemul::RankProgramBuilder zero(0, 2), one(1, 2);
  zero.send(1, 0, 100);
  zero.send(1, 1, 100);
  one.compute(SimTime::from_ps(10000));
  one.recv(0, 0, 100);
  one.recv(0, 1, 100);
  mpiemul::Program program;
  program.ranks.push_back(zero.take());
  program.ranks.push_back(one.take());
  auto c = config();
  c.protocol.unexpected_buffer_bytes = 150;  // one peer: 150 B of credit, room for one message
  // The second send (ready at 2400) waits for credit: rank 1 copies the first message out at
  // 10000 + o + 200 + 50 = 11250, the credit (64 B) is back at 11814 and the second message
  // leaves then, arriving at 12478; rank 1 receives it in o + 200.
  const auto end = EventLoop(program, c).run();
  EXPECT_EQ(end[0], 11814);
  EXPECT_EQ(end[1], 13678);
}

TEST(RankModel, RanksOfOneHostCopyThroughSharedMemoryInsteadOfPayingNetworkCosts) {
  const auto program = ping_pong(100);
  // send: o + 100 * 1 = 1100 (not o + 100 * 2); 164 B arrive at 1764; receive 1100 -> 2864;
  // back: 3964 out, 4628 in, 5728.
  const auto end = EventLoop(program, one_host_config()).run();
  EXPECT_EQ(end[1], 3964);
  EXPECT_EQ(end[0], 5728);
}

TEST(RankModel, RanksOfOneHostMoveALongMessageByOneCopyAndAFin) {
  mpiemul::RankProgramBuilder zero(0, 2), one(1, 2);
  zero.send(1, 0, 1000);
  one.recv(0, 0, 1000);
  mpiemul::Program program;
  program.ranks.push_back(zero.take());
  program.ranks.push_back(one.take());
  // 1000 B > shm eager 500: REQ after o, arrives 1564; the receiver copies at once, o + 2000 +
  // 1000 * 0.5 = 3500 -> 5064 (no clear to send, no data transfer); FIN arrives 5628; o.
  const auto end = EventLoop(program, one_host_config()).run();
  EXPECT_EQ(end[1], 5064);
  EXPECT_EQ(end[0], 6628);
}

TEST(RankModel, ReceiveWithoutASenderNeverFinishes) {
  mpiemul::RankProgramBuilder zero(0, 2), one(1, 2);
  zero.recv(1, 0, 10);
  mpiemul::Program program;
  program.ranks.push_back(zero.take());
  program.ranks.push_back(one.take());
  const auto c = config();
  const auto end = EventLoop(program, c).run();
  EXPECT_EQ(end[0], -1);
  EXPECT_EQ(end[1], 0);
}

}  // namespace
}  // namespace netwarp::simgrid_check
