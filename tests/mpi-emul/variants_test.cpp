// Protocol variants: rendezvous with a receiver get, sender-side matching of pre-posted
// receives, and the bounded unexpected-message buffer that throttles eager senders; and
// collectives run on the packet network deliver what their programs send.
#include <gtest/gtest.h>

#include <map>

#include "mpi_fixtures.hpp"
#include "netwarp/mpiemul/kernels.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::mpiemul {
namespace {

using namespace testing;

HostCosts costs() {
  HostCosts c;
  c.o = engine::ns(800);
  c.send_eager_fs_per_byte = 200;
  c.recv_eager_fs_per_byte = 200;
  c.send_rndv_fs_per_byte = 100;
  c.recv_rndv_fs_per_byte = 100;
  return c;
}

ProtocolConfig protocol() {
  ProtocolConfig p;
  p.short_bytes = 512;
  p.eager_bytes = 4096;
  return p;
}

netmodels::NetworkSpec platform(std::uint32_t hosts = 2) {
  return star_platform(hosts, netmodels::gbps(10), engine::ns(300));
}

Program one_message(std::uint64_t bytes) {
  RankProgramBuilder r0(0, 2), r1(1, 2);
  r0.send(1, 0, bytes);
  r1.recv(0, 0, bytes);
  Program p;
  p.ranks = {r0.take(), r1.take()};
  return p;
}

// With a get, the sender's NIC serves the data as soon as the read arrives: the receive ends
// exactly 2o + k*Osl earlier than when the sender's CPU must take the CTS and push the data.
TEST(Variants, GetRendezvousSkipsTheSendersPush) {
  const std::uint64_t k = 20000;
  const Program p = one_message(k);
  ProtocolConfig get = protocol();
  get.rendezvous = RendezvousMode::get;
  const MpiRun push = run_mpi(platform(), p, config_for(p, costs(), protocol()));
  const MpiRun read = run_mpi(platform(), p, config_for(p, costs(), get));
  ASSERT_TRUE(read.totals.finished);
  const auto recv_end = [](const MpiRun& r) { return r.results.calls.back().end_ps; };
  const SimTime saved = costs().o + costs().o + per_byte(k, costs().send_rndv_fs_per_byte);
  EXPECT_EQ(recv_end(push) - recv_end(read), saved.ps());
  EXPECT_EQ(read.results.calls[0].protocol, Protocol::rendezvous);
  expect_breakdowns_add_up(read.results);
}

// Rank 1 pre-posts its receive; its receive request reaches rank 0 before rank 0 sends, so
// the rendezvous-size message goes at once as a direct write: no handshake at all.
TEST(Variants, SenderSideMatchingWritesPrePostedReceivesDirectly) {
  const std::uint64_t k = 20000;
  RankProgramBuilder r0(0, 2), r1(1, 2);
  r0.compute(engine::us(10));
  r0.send(1, 0, k);
  const std::uint32_t req = r1.irecv(0, 0, k);
  r1.wait(req);
  Program p;
  p.ranks = {r0.take(), r1.take()};
  ProtocolConfig ssm = protocol();
  ssm.sender_side_matching = true;
  const MpiRun run = run_mpi(platform(), p, config_for(p, costs(), ssm));
  ASSERT_TRUE(run.totals.finished);
  const CallRecord& send = run.results.calls[1];
  EXPECT_EQ(send.protocol, Protocol::direct);
  EXPECT_EQ(send.end_ps - send.start_ps,
            (costs().o + per_byte(k, costs().send_rndv_fs_per_byte)).ps());
  EXPECT_EQ(send.sync_ps, 0);
  EXPECT_EQ(run.totals.counters.direct_hits, 1u);
  EXPECT_EQ(run.totals.counters.direct_misses, 0u);
  // Without the variant the same send waits for the handshake.
  const MpiRun plain = run_mpi(platform(), p, config_for(p, costs(), protocol()));
  EXPECT_GT(plain.results.calls[1].sync_ps, 0);
}

// Ten 1000-byte eager messages into a receiver that is busy: with 4000 B of unexpected
// buffer only four fit; the other six wait for credit, and nothing is lost or reordered.
TEST(Variants, BoundedUnexpectedBufferThrottlesEagerSenders) {
  RankProgramBuilder r0(0, 2), r1(1, 2);
  std::vector<std::uint32_t> sends;
  for (int i = 0; i < 10; ++i) sends.push_back(r0.isend(1, 0, 1000));
  r0.waitall(sends);
  r1.compute(engine::us(100));
  for (int i = 0; i < 10; ++i) r1.recv(0, 0, 1000);
  Program p;
  p.ranks = {r0.take(), r1.take()};
  ProtocolConfig bounded = protocol();
  bounded.unexpected_buffer_bytes = 4000;
  const MpiRun run = run_mpi(platform(), p, config_for(p, costs(), bounded));
  ASSERT_TRUE(run.totals.finished);
  EXPECT_EQ(run.totals.counters.throttled_sends, 6u);
  EXPECT_GT(run.totals.counters.throttle_wait_ps, engine::us(90).ps());
  EXPECT_LE(run.totals.counters.unexpected_peak_bytes, 4000u);
  ASSERT_EQ(run.results.messages.size(), 10u);
  std::map<std::uint32_t, std::uint32_t> recv_of_send;
  for (const MessageRecord& m : run.results.messages) recv_of_send[m.send_op] = m.recv_op;
  for (std::uint32_t i = 0; i < 10; ++i) EXPECT_EQ(recv_of_send.at(i), i + 1);  // op 0: compute
  // The sender's waitall waited for credit: send wait, not sync.
  const CallRecord& waitall = run.results.calls[10];
  EXPECT_EQ(waitall.kind, CallKind::waitall);
  EXPECT_GT(waitall.send_wait_ps, engine::us(90).ps());
  expect_breakdowns_add_up(run.results);
}

// Messages matched on the network, per (src, dst): what the program's send ops say.
void expect_program_delivered(const Program& program, const MpiRun& run) {
  std::map<std::pair<RankId, RankId>, std::uint64_t> sent, matched;
  for (RankId r = 0; r < program.size(); ++r)
    for (const Op& op : program.ranks[r].ops)
      if (op.kind == OpKind::send) sent[{r, static_cast<RankId>(op.peer)}] += op.bytes + 1;
  for (const MessageRecord& m : run.results.messages) matched[{m.src, m.dst}] += m.bytes + 1;
  EXPECT_EQ(matched, sent);
}

TEST(CollectivesOnTheNetwork, EveryAlltoallAlgorithmDeliversEveryPair) {
  for (AlltoallAlgorithm a :
       {AlltoallAlgorithm::algorithm_a, AlltoallAlgorithm::algorithm_b, AlltoallAlgorithm::pairwise,
        AlltoallAlgorithm::simple_spread, AlltoallAlgorithm::spread_2d, AlltoallAlgorithm::bruck}) {
    for (std::uint64_t bytes : {1000u, 10000u}) {  // eager and rendezvous
      const Program p = alltoall_program(AlltoallKernel{a, bytes, 1, {}}, 4, {});
      const MpiRun run = run_mpi(platform(4), p, config_for(p, costs(), protocol()));
      ASSERT_TRUE(run.totals.finished) << algorithm_name(a);
      expect_program_delivered(p, run);
      if (a != AlltoallAlgorithm::bruck) {
        EXPECT_EQ(run.results.messages.size(), 12u);
      }
    }
  }
}

TEST(CollectivesOnTheNetwork, AllreduceBcastAndBarrierFinishAndDeliver) {
  for (CollectiveKind kind : {CollectiveKind::allreduce, CollectiveKind::bcast,
                              CollectiveKind::barrier, CollectiveKind::allgather}) {
    const Program p = collective_program(CollectiveKernel{kind, 6000, 1, 2, {}}, 5, {});
    const MpiRun run = run_mpi(platform(5), p, config_for(p, costs(), protocol()));
    ASSERT_TRUE(run.totals.finished);
    expect_program_delivered(p, run);
    expect_breakdowns_add_up(run.results);
  }
}

// No rank leaves a barrier before the last rank has entered it.
TEST(CollectivesOnTheNetwork, BarrierHoldsEveryRankUntilTheLastArrives) {
  std::vector<RankProgramBuilder> b;
  for (RankId r = 0; r < 6; ++r) b.emplace_back(r, 6);
  for (RankId r = 0; r < 6; ++r) {
    b[r].compute(engine::us(5 * (r + 1)));
    add_barrier(b[r], CollectiveAlgorithms{});
  }
  Program p;
  for (auto& x : b) p.ranks.push_back(x.take());
  const MpiRun run = run_mpi(platform(6), p, config_for(p, costs(), protocol()));
  ASSERT_TRUE(run.totals.finished);
  std::int64_t last_entry = 0, first_exit = INT64_MAX;
  for (const CallRecord& c : run.results.calls) {
    if (c.kind != CallKind::barrier) continue;
    last_entry = std::max(last_entry, c.start_ps);
    first_exit = std::min(first_exit, c.end_ps);
  }
  EXPECT_EQ(last_entry, engine::us(30).ps() + 1);  // programs start at 1 ps
  EXPECT_GT(first_exit, last_entry);
}

}  // namespace
}  // namespace netwarp::mpiemul
