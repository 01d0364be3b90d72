// Several ranks per host: messages between ranks of one host go through the shared-memory
// transport (never a port), with hand-computed eager (copy in, copy out) and single-copy
// costs; a mixed program gives the same records on every kernel (sequential, optimistic,
// reverse check). Pipelined rendezvous data leaves the NIC in the expected fragments.
#include <gtest/gtest.h>

#include <vector>

#include "mpi_fixtures.hpp"
#include "netwarp/mpiemul/kernels.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::mpiemul {
namespace {

using namespace testing;
using engine::ns;
using engine::ps;

constexpr std::uint64_t kRate = netmodels::gbps(10);
const SimTime kLatency = ns(500);

SharedMemoryConfig shm() {
  SharedMemoryConfig s;
  s.latency = ns(200);
  s.copy_fs_per_byte = 100000;  // 10 GB/s
  s.eager_bytes = 4096;
  s.single_copy_setup = ns(1000);
  s.single_copy_fs_per_byte = 80000;  // 12.5 GB/s
  return s;
}

ProtocolConfig protocol() {
  ProtocolConfig p;
  p.short_bytes = 900;
  p.eager_bytes = 4000;
  return p;
}

MpiConfig config_on(const Program& program, std::vector<netmodels::NodeId> hosts,
                    ProtocolConfig p = protocol()) {
  MpiConfig c = config_for(program, hand_costs(), p);
  c.shm = shm();
  c.rank_hosts = std::move(hosts);
  return c;
}

// Rank 0 sends k to rank 1, which has posted its blocking receive at once.
Program one_message(std::uint64_t k) {
  RankProgramBuilder r0(0, 2), r1(1, 2);
  r0.send(1, 0, k);
  r1.recv(0, 0, k);
  Program p;
  p.ranks = {r0.take(), r1.take()};
  return p;
}

std::uint64_t packets_sent(const MpiRun& run, netmodels::NodeId node) {
  std::uint64_t packets = 0;
  for (const netmodels::PortRecord& port : run.results.network.ports)
    if (node == netmodels::kNoNode || port.node == node) packets += port.packets_sent;
  return packets;
}

const CallRecord& call_of(const MpiRun& run, RankId rank) {
  for (const CallRecord& c : run.results.calls)
    if (c.rank == rank) return c;
  throw std::logic_error("no call");
}

// Eager through shared memory: the sender pays o + k/B copying in, the message shows after
// the shm latency, the receiver pays o + k/B copying out.
TEST(IntraNode, EagerMessageCostsCopyInLatencyCopyOut) {
  const std::uint64_t k = 3000;
  const Program program = one_message(k);
  const MpiRun run =
      run_mpi(star_platform(2, kRate, kLatency), program, config_on(program, {0, 0}));
  ASSERT_TRUE(run.totals.finished);
  expect_breakdowns_add_up(run.results);
  const SimTime copy = ns(700) + ns(300);  // o + 3000 B at 0.1 ns per byte
  const SimTime start = ps(1);
  EXPECT_EQ(call_of(run, 0).end_ps, (start + copy).ps());
  EXPECT_EQ(call_of(run, 1).end_ps, (start + copy + ns(200) + copy).ps());
  EXPECT_EQ(call_of(run, 0).protocol, Protocol::eager);
  EXPECT_EQ(packets_sent(run, netmodels::kNoNode), 0u);  // never on a port
}

// Single copy (k > shm eager limit): the sender's request (o) shows after the latency, the
// receiver pays o + set-up + k/B_single, then its FIN shows after the latency and the sender
// pays o for it.
TEST(IntraNode, LargeMessageIsOneCopyByTheReceiver) {
  const std::uint64_t k = 100000;
  const Program program = one_message(k);
  const MpiRun run =
      run_mpi(star_platform(2, kRate, kLatency), program, config_on(program, {1, 1}));
  ASSERT_TRUE(run.totals.finished);
  expect_breakdowns_add_up(run.results);
  const SimTime o = ns(700);
  const SimTime copy = o + ns(1000) + ns(8000);  // set-up, 100000 B at 0.08 ns per byte
  const SimTime recv_end = ps(1) + o + ns(200) + copy;
  EXPECT_EQ(call_of(run, 1).end_ps, recv_end.ps());
  const CallRecord& send = call_of(run, 0);
  EXPECT_EQ(send.end_ps, (recv_end + ns(200) + o).ps());
  EXPECT_EQ(send.overhead_ps, (o + o).ps());
  EXPECT_EQ(send.sync_ps, (ns(200) + copy + ns(200)).ps());
  EXPECT_EQ(send.protocol, Protocol::rendezvous);
  EXPECT_EQ(packets_sent(run, netmodels::kNoNode), 0u);
}

// The same message between hosts takes the network's eager path (S = 4000), not shm's.
TEST(IntraNode, ThresholdsDifferOnAndOffTheHost) {
  const Program program = one_message(4050);  // above the network's S, within shm's 4096
  const MpiRun local =
      run_mpi(star_platform(2, kRate, kLatency), program, config_on(program, {0, 0}), true);
  const MpiRun remote =
      run_mpi(star_platform(2, kRate, kLatency), program, config_on(program, {0, 1}), true);
  EXPECT_EQ(call_of(local, 0).protocol, Protocol::eager);
  EXPECT_EQ(call_of(remote, 0).protocol, Protocol::rendezvous);
  EXPECT_GT(packets_sent(remote, 0), 0u);
}

// 8 ranks, 4 per host (block placement), all-to-all algorithm A: every kernel agrees, and only
// the inter-host half of the messages reaches the network.
TEST(IntraNode, AlltoallOfFourRanksPerHostAgreesOnEveryKernel) {
  const CollectiveAlgorithms algorithms;
  const Program program =
      alltoall_program(AlltoallKernel{AlltoallAlgorithm::algorithm_a, 6000, 2, {}}, 8, algorithms);
  const MpiRun run = run_mpi(star_platform(2, kRate, kLatency), program,
                             config_on(program, {0, 0, 0, 0, 1, 1, 1, 1}));
  ASSERT_TRUE(run.totals.finished);
  expect_breakdowns_add_up(run.results);
  EXPECT_EQ(run.totals.ranks.size(), 8u);
  for (const RankTotals& r : run.totals.ranks) EXPECT_EQ(r.host, r.rank < 4 ? 0u : 1u);
  // Rank pairs on different hosts: 4 x 4 x 2 directions x 2 iterations messages of 6000 B, as
  // rendezvous (S = 4000): request, clear to send and 6 data packets each, no more.
  const std::uint64_t inter_messages = 4 * 4 * 2 * 2;
  EXPECT_EQ(packets_sent(run, 0) + packets_sent(run, 1), inter_messages * (1 + 1 + 6));
}

// Pipelined rendezvous: 10000 B in fragments of 2400 B are 5 transfers (4 x 2400 + 400), so
// 4 x 3 + 1 data packets on the 1000-byte MTU instead of 10 in one piece; plus the request.
TEST(IntraNode, PipelinedRendezvousSendsFragments) {
  const Program program = one_message(10000);
  ProtocolConfig pipelined = protocol();
  pipelined.fragment_bytes = 2400;
  const MpiRun whole =
      run_mpi(star_platform(2, kRate, kLatency), program, config_on(program, {0, 1}));
  const MpiRun fragmented =
      run_mpi(star_platform(2, kRate, kLatency), program, config_on(program, {0, 1}, pipelined));
  ASSERT_TRUE(fragmented.totals.finished);
  expect_breakdowns_add_up(fragmented.results);
  EXPECT_EQ(packets_sent(whole, 0), 1u + 10u);
  EXPECT_EQ(packets_sent(fragmented, 0), 1u + 13u);
  EXPECT_EQ(packets_sent(fragmented, 1), 1u);  // the clear to send
  EXPECT_EQ(call_of(fragmented, 1).protocol, Protocol::rendezvous);
  EXPECT_EQ(fragmented.totals.messages[static_cast<int>(Protocol::rendezvous)].count, 1u);
}

// Two ranks of one host both send a single-copy-size message first: neither receive is ever
// posted, and the deadlock report names both ranks, their host and their calls.
TEST(IntraNode, DeadlockOfTwoRanksOfOneHostNamesBoth) {
  RankProgramBuilder r0(0, 2), r1(1, 2);
  r0.send(1, 0, 100000);
  r0.recv(1, 0, 100000);
  r1.send(0, 0, 100000);
  r1.recv(0, 0, 100000);
  Program p;
  p.ranks = {r0.take(), r1.take()};
  const MpiRun run = run_mpi(star_platform(2, kRate, kLatency), p, config_on(p, {1, 1}));
  EXPECT_FALSE(run.totals.finished);
  ASSERT_EQ(run.totals.stuck.size(), 2u);
  EXPECT_EQ(run.totals.stuck[0].rank, 0u);
  EXPECT_EQ(run.totals.stuck[1].rank, 1u);
  EXPECT_EQ(run.totals.ranks[0].host, 1u);
  EXPECT_EQ(run.totals.ranks[1].host, 1u);
  const std::string message = deadlock_message(run.totals);
  EXPECT_NE(message.find("rank 0 blocked in send to 1"), std::string::npos) << message;
  EXPECT_NE(message.find("rank 1 blocked in send to 0"), std::string::npos) << message;
}

}  // namespace
}  // namespace netwarp::mpiemul
