// Determinism of MPI runs across kernels and rank counts: seed 002's all-to-all algorithms A
// and B (rendezvous, over TCP on a star) and a replayed TIT trace give the sequential
// kernel's digest and records with the optimistic kernel on every rank of the job.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <numeric>

#include "netwarp/engine/kernel.hpp"
#include "netwarp/mpiemul/kernels.hpp"
#include "netwarp/mpiemul/mpi_model.hpp"
#include "netwarp/mpiemul/mpi_results.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "netwarp/netmodels/topology_builders.hpp"

namespace netwarp::mpiemul {
namespace {

netmodels::NetworkSpec platform(bool tcp) {
  netmodels::NetworkSpec spec;
  spec.topology = netmodels::build_star(
      netmodels::StarSpec{8},
      netmodels::LinkLevels{netmodels::LinkSpec{netmodels::gbps(1), engine::us(2)}, {}},
      "topology");
  if (tcp) {
    spec.transport.kind = netmodels::TransportKind::tcp;
    spec.switches.buffer_bytes = 64 * 1024;  // small: the all-to-all loses packets
    spec.transport.tcp.min_rto = engine::ms(1);
  }
  return spec;
}

// Programs 3 and 4: program 0 over TCP with SACK, PRR recovery, or RFC 6675 recovery and
// receivers capped to one out-of-order range.
netmodels::NetworkSpec platform_for(int which) {
  netmodels::NetworkSpec spec = platform(which != 2);
  netmodels::TcpConfig& tcp = spec.transport.tcp;
  if (which == 3 || which == 4) {
    tcp.sack = true;
    // Switch ports 10x slower than the hosts and a small buffer: packets are lost.
    spec.switches.buffer_bytes = 12 * 1024;
    for (netmodels::Port& port : spec.topology.nodes[8].ports) port.rate_bps = netmodels::mbps(100);
  }
  if (which == 3) tcp.recovery = netmodels::TcpRecovery::prr;
  if (which == 4) {
    tcp.recovery = netmodels::TcpRecovery::sack_6675;
    tcp.max_ooo_ranges = 1;
  }
  return spec;
}

MpiConfig config(RankId ranks) {
  MpiConfig c;
  c.costs.o = engine::us(2);
  c.costs.send_eager_fs_per_byte = 500;
  c.costs.recv_eager_fs_per_byte = 500;
  c.protocol.eager_bytes = 8192;
  c.rank_hosts.resize(ranks);
  std::iota(c.rank_hosts.begin(), c.rank_hosts.end(), 0u);
  return c;
}

Program program(int which) {
  const CollectiveAlgorithms algorithms;
  switch (which) {
    case 0:
      return alltoall_program(AlltoallKernel{AlltoallAlgorithm::algorithm_a, 40000, 2, {}}, 8,
                              algorithms);
    case 1:
      return alltoall_program(AlltoallKernel{AlltoallAlgorithm::algorithm_b, 40000, 2, {}}, 8,
                              algorithms);
    case 2:
      return program_from_trace(
          read_trace((std::filesystem::path(__FILE__).parent_path() / "data" / "collectives.tit")),
          TraceProgramOptions{});
    default:
      return program(0);
  }
}

class MpiAcrossRanks : public ::testing::TestWithParam<int> {};

TEST_P(MpiAcrossRanks, OptimisticMatchesSequential) {
  const auto shared = std::make_shared<const Program>(program(GetParam()));
  const auto model = make_mpi_model(platform_for(GetParam()), shared, config(shared->size()));
  auto exchange = engine::make_mpi_exchange();
  engine::KernelConfig kc;
  MpiResults reference;
  engine::RunResult sequential;
  if (exchange->rank() == 0) sequential = engine::run_sequential(*model, kc, &reference);

  kc.kind = engine::KernelKind::optimistic;
  kc.gvt_interval = 8;
  MpiResults local;
  const engine::RunResult run = engine::run_optimistic(*model, kc, *exchange, &local);
  const auto parts = exchange->gather(local.to_bytes());
  if (exchange->rank() != 0) return;
  MpiResults merged;
  for (const auto& part : parts) merged.append_bytes(part);
  merged.sort();
  reference.sort();
  EXPECT_EQ(run.stats.digest, sequential.stats.digest);
  EXPECT_EQ(merged.to_bytes(), reference.to_bytes());
  const MpiTotals totals = reference.totals(*shared);
  EXPECT_TRUE(totals.finished);
  EXPECT_GT(totals.run_time_ps, 0);
  EXPECT_GT(run.stats.remote_events_sent, 0u);
  if (GetParam() >= 3) {
    std::uint64_t dropped = 0;
    for (const auto& port : reference.network.ports) dropped += port.packets_dropped;
    EXPECT_GT(dropped, 0u);  // loss recovery really runs
  }
  if (GetParam() == 4) {
    EXPECT_FALSE(reference.network.receivers.empty());  // the cap discards and says so
  }
}

INSTANTIATE_TEST_SUITE_P(Programs, MpiAcrossRanks, ::testing::Values(0, 1, 2, 3, 4));

// 64 ranks on 16 hosts x 4 (block placement) over TCP: the run's digest and records on 2 or 4
// kernel ranks are the sequential kernel's; `local_only` pairs every rank with one on its own
// host, so no packet may leave a host.
MpiResults run_sixty_four(const Program& program, bool& ok) {
  netmodels::NetworkSpec spec;
  spec.topology = netmodels::build_star(
      netmodels::StarSpec{16},
      netmodels::LinkLevels{netmodels::LinkSpec{netmodels::gbps(1), engine::us(2)}, {}},
      "topology");
  spec.transport.kind = netmodels::TransportKind::tcp;
  const auto shared = std::make_shared<const Program>(program);
  MpiConfig c = config(0);
  c.protocol.fragment_bytes = 16384;
  c.rank_hosts.resize(64);
  for (RankId r = 0; r < 64; ++r) c.rank_hosts[r] = r / 4;
  const auto model = make_mpi_model(spec, shared, c);
  auto exchange = engine::make_mpi_exchange();
  engine::KernelConfig kc;
  MpiResults reference;
  engine::RunResult sequential;
  if (exchange->rank() == 0) sequential = engine::run_sequential(*model, kc, &reference);
  kc.kind = engine::KernelKind::optimistic;
  kc.gvt_interval = 8;
  MpiResults local;
  const engine::RunResult run = engine::run_optimistic(*model, kc, *exchange, &local);
  const auto parts = exchange->gather(local.to_bytes());
  ok = exchange->rank() == 0;
  if (!ok) return reference;
  MpiResults merged;
  for (const auto& part : parts) merged.append_bytes(part);
  merged.sort();
  reference.sort();
  EXPECT_EQ(run.stats.digest, sequential.stats.digest);
  EXPECT_EQ(merged.to_bytes(), reference.to_bytes());
  EXPECT_TRUE(reference.totals(program).finished);
  return reference;
}

TEST(SixtyFourRanksOnSixteenHosts, AlltoallGivesTheSequentialDigest) {
  const Program program = alltoall_program(
      AlltoallKernel{AlltoallAlgorithm::algorithm_a, 20000, 1, {}}, 64, CollectiveAlgorithms{});
  bool ok = false;
  const MpiResults results = run_sixty_four(program, ok);
  if (!ok) return;
  std::uint64_t packets = 0;
  for (const auto& port : results.network.ports) packets += port.packets_sent;
  EXPECT_GT(packets, 0u);
}

TEST(SixtyFourRanksOnSixteenHosts, IntraNodeMessagesNeverTouchTheNetwork) {
  Program program;
  for (RankId r = 0; r < 64; ++r) {
    RankProgramBuilder b(r, 64);
    const RankId partner = r ^ 1;  // same host of 4 (block placement)
    const std::uint32_t request = b.irecv(static_cast<std::int32_t>(partner), 0, 50000);
    b.send(partner, 0, 50000);
    b.send(partner, 1, 100);
    b.recv(static_cast<std::int32_t>(partner), 1, 100);
    b.wait(request);
    program.ranks.push_back(b.take());
  }
  bool ok = false;
  const MpiResults results = run_sixty_four(program, ok);
  if (!ok) return;
  for (const auto& port : results.network.ports) {
    EXPECT_EQ(port.packets_sent, 0u) << "node " << port.node << " port " << port.port;
    EXPECT_EQ(port.bytes_sent, 0u);
  }
  EXPECT_EQ(results.messages.size(), 128u);
}

}  // namespace
}  // namespace netwarp::mpiemul
