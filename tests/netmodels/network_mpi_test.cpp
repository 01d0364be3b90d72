// Determinism of packet-network runs across kernels and rank counts: an incast with TCP losses,
// the same incast with SACK recovery (RFC 6675, PRR) or a capped out-of-order receiver, or with
// lost SYN and SYN-ACK and the ns-3 policy readings, or with DCTCP (ECN marking) or CUBIC, a
// lossless torus all-to-all with unlimited buffers, a fat-tree all-to-all under credit
// flow control, a leaf-spine permutation under each multipath mode and the DCTCP incast through a
// shared-buffer switch marking by RED at dequeue and a tree incast under PFC give the sequential
// kernel's
// digest and records with the optimistic kernel on every rank of the job (their time series too),
// gathered in memory and merged from every rank's part files, also when each rank spills its
// records to disk in small sorted runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <type_traits>

#include "netwarp/engine/kernel.hpp"
#include "netwarp/netmodels/multipath.hpp"
#include "netwarp/netmodels/network_model.hpp"
#include "netwarp/netmodels/network_results.hpp"
#include "netwarp/netmodels/results_source.hpp"
#include "netwarp/netmodels/spilling_results.hpp"
#include "netwarp/netmodels/topology_builders.hpp"

namespace netwarp::netmodels {
namespace {

using engine::us;

NetworkSpec incast() {
  NetworkSpec spec;
  spec.topology = build_star(StarSpec{9}, LinkLevels{LinkSpec{gbps(1), us(5)}, {}}, "topology");
  spec.switches.buffer_bytes = 24 * 1024;
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.min_rto = engine::ms(1);
  spec.workload = make_incast(IncastSpec{8, 8, 128 * 1024, {}}, 9, "workload");
  spec.outputs.drops_by_class = true;  // DropRecords, merged across ranks like every table
  return spec;
}

NetworkSpec incast_under(CongestionControl algorithm) {
  NetworkSpec spec = incast();
  spec.transport.tcp.congestion_control = algorithm;
  if (algorithm == CongestionControl::dctcp) spec.switches.ecn_threshold_bytes = 12 * 1024;
  return spec;
}

// The incast with SACK-based recovery, or with a receiver capped to one out-of-order range.
NetworkSpec incast_with(TcpRecovery recovery, std::uint32_t max_ooo_ranges = 0) {
  NetworkSpec spec = incast();
  spec.transport.tcp.sack = recovery != TcpRecovery::newreno;
  spec.transport.tcp.recovery = recovery;
  spec.transport.tcp.max_ooo_ranges = max_ooo_ranges;
  return spec;
}

// The incast with a lost SYN (flow 0) and a lost SYN-ACK (flow 1), and ns-3's policy readings.
NetworkSpec incast_with_handshake_loss() {
  NetworkSpec spec = incast();
  spec.drops = {PacketDrop{0, 0, PacketKind::syn}, PacketDrop{1, 0, PacketKind::syn_ack}};
  spec.transport.tcp.ssthresh_base = SsthreshBase::bytes_in_flight;
  spec.transport.tcp.recovery_exit_cwnd = RecoveryExitCwnd::ssthresh;
  spec.transport.tcp.rto_backoff_reset = RtoBackoffReset::on_new_ack;
  return spec;
}

// The incast as `emulate: NS3` runs it: ns-3's recovery without SACK (its tie order is set by
// the test).
NetworkSpec incast_as_ns3() {
  NetworkSpec spec = incast();
  spec.format.frame_overhead_bytes = 2;
  spec.format.syn_option_bytes = 4;
  spec.switches.count_frame_in_service = false;
  spec.switches.arrival_first = true;
  spec.transport.tcp.recovery = TcpRecovery::ns3_classic;
  spec.transport.tcp.rto_backoff_reset = RtoBackoffReset::on_new_ack;
  return spec;
}

NetworkSpec torus_all_to_all() {
  NetworkSpec spec;
  spec.topology = build_torus(TorusSpec{{4, 4}, true, 1},
                              LinkLevels{LinkSpec{gbps(8), engine::ns(100)}, {}}, "topology");
  spec.workload =
      make_all_to_all(AllToAllSpec{AllToAllOrder::simple_spread, 20000, 0, 1}, 16, "workload");
  return spec;
}

NetworkSpec fat_tree_all_to_all() {
  NetworkSpec spec;
  spec.topology =
      build_fat_tree(FatTreeSpec{4}, LinkLevels{LinkSpec{gbps(10), us(1)}, {}}, "topology");
  spec.switches.flow_control = FlowControl::credit;
  spec.switches.buffer_bytes = 8 * 1024;
  spec.workload =
      make_all_to_all(AllToAllSpec{AllToAllOrder::pairwise, 30000, 0, 1}, 16, "workload");
  return spec;
}

// A leaf-spine permutation under TCP with multipath `mode`: round robin and flowlets keep
// per-switch state, spraying reorders, so rollbacks and remote events meet all of it.
NetworkSpec leaf_spine_permutation(MultipathMode mode) {
  NetworkSpec spec;
  spec.topology = build_leaf_spine(LeafSpineSpec{4, 3, 4, 1},
                                   LinkLevels{LinkSpec{gbps(10), us(1)}, {}}, "topology");
  spec.topology.router = with_multipath(spec.topology.router, MultipathSpec{mode, 3, us(2)});
  spec.switches.buffer_bytes = 16 * 1024;
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.min_rto = engine::ms(1);
  spec.workload = make_permutation(PermutationSpec{60000, 5}, 16, "workload");
  return spec;
}

// The incast under DCTCP through a shared-buffer switch marking by RED on an averaged queue at
// dequeue: the pool, the averages and the random marks meet rollbacks and remote events.
NetworkSpec incast_with_red_and_shared_buffer() {
  NetworkSpec spec = incast_under(CongestionControl::dctcp);
  spec.switches.buffer_bytes = 0;
  spec.switches.ecn_threshold_bytes = 0;
  spec.switches.shared_buffer = SharedBufferConfig{9 * 16 * 1024, 1, 1024};
  spec.switches.red = RedConfig{4 * 1024, 24 * 1024, 0.3, 0.2};
  spec.switches.mark_at = MarkAt::dequeue;
  return spec;
}

// A TCP incast across a two-leaf tree in one lossless class under PFC, with a victim flow:
// PAUSE frames, refreshes and resumes cross ranks and roll back.
NetworkSpec tree_incast_under_pfc() {
  NetworkSpec spec;
  spec.topology =
      build_tree(TreeSpec{2, 4, 1},
                 LinkLevels{LinkSpec{gbps(1), us(1)}, {{1, LinkSpec{gbps(4), us(1)}}}}, "topology");
  spec.transport.kind = TransportKind::tcp;
  spec.transport.tcp.min_rto = engine::ms(1);
  spec.workload = make_incast(IncastSpec{7, 4, 60'000, {}}, 8, "workload");
  PortClassConfig lossless;
  lossless.lossless = true;
  spec.switches.classes = {lossless};
  spec.switches.pfc = PfcConfig{true, 12'000, 6'000, 0, 65535};
  return spec;
}

// Every rank writes its own sorted records as part files (as `netwarp run` does) into rank 0's
// folder; returns that folder.
std::string write_parts_of_every_rank(NetworkResults local, engine::RankExchange& exchange) {
  const std::string dir = ::testing::TempDir() + "/network_mpi_parts";
  if (exchange.rank() == 0) std::filesystem::create_directories(dir);
  exchange.max(0);  // the folder exists
  local.sort();
  write_result_parts(local, dir, exchange.rank());
  exchange.max(0);  // every part is written
  return dir;
}

// What the merged part files stream, table by table (every table of for_each_table, so a new
// one cannot be left out), flows joined with their receivers.
NetworkResults streamed(const ResultsSource& source) {
  NetworkResults out;
  out.for_each_table([&]<class R>(const std::vector<R>& table) {
    auto& into = const_cast<std::vector<R>&>(table);  // out's own: for_each_table is const
    if constexpr (std::is_same_v<R, FlowRecord>) {
      FlowRows rows(source);
      for (FlowRows::Row row; rows.next(row);) into.push_back(row.flow);
    } else {
      for (auto records = source.open<R>(); const R* r = records.peek(); records.pop())
        into.push_back(*r);
    }
  });
  return out;
}

struct RunsAcrossRanks {
  bool is_root = false;  // the rest is filled on rank 0 only
  engine::RunResult sequential;
  engine::RunResult optimistic;
  NetworkResults reference;  // the sequential run's records, sorted
};

// The sequential kernel on rank 0, then the optimistic kernel on every rank; on rank 0 the
// digests and the gathered records are expected equal to the sequential run's.
RunsAcrossRanks run_across_ranks(const NetworkModel& model, const engine::KernelConfig& sequential,
                                 engine::KernelConfig optimistic) {
  auto exchange = engine::make_mpi_exchange();
  RunsAcrossRanks runs;
  runs.is_root = exchange->rank() == 0;
  if (runs.is_root) runs.sequential = engine::run_sequential(model, sequential, &runs.reference);
  optimistic.kind = engine::KernelKind::optimistic;
  NetworkResults local;
  runs.optimistic = engine::run_optimistic(model, optimistic, *exchange, &local);
  const auto parts = exchange->gather(local.to_bytes());
  const std::string parts_dir = write_parts_of_every_rank(local, *exchange);
  if (!runs.is_root) return runs;
  NetworkResults merged;
  for (const auto& part : parts) merged.append_bytes(part);
  merged.sort();
  runs.reference.sort();
  EXPECT_EQ(runs.optimistic.stats.digest, runs.sequential.stats.digest);
  EXPECT_EQ(merged.to_bytes(), runs.reference.to_bytes());
  EXPECT_EQ(streamed(ResultsSource(parts_dir, exchange->size())).to_bytes(),
            runs.reference.to_bytes());
  std::filesystem::remove_all(parts_dir);
  return runs;
}

class NetworkAcrossRanks : public ::testing::TestWithParam<int> {};

TEST_P(NetworkAcrossRanks, OptimisticMatchesSequential) {
  const NetworkSpec specs[] = {incast(),
                               torus_all_to_all(),
                               fat_tree_all_to_all(),
                               incast_with(TcpRecovery::sack_6675),
                               incast_with(TcpRecovery::prr),
                               incast_with(TcpRecovery::newreno, 1),
                               incast_with_handshake_loss(),
                               incast_under(CongestionControl::dctcp),
                               incast_under(CongestionControl::cubic),
                               incast_as_ns3(),
                               leaf_spine_permutation(MultipathMode::ecmp),
                               leaf_spine_permutation(MultipathMode::spray_random),
                               leaf_spine_permutation(MultipathMode::spray_round_robin),
                               leaf_spine_permutation(MultipathMode::flowlet),
                               incast_with_red_and_shared_buffer(),
                               tree_incast_under_pfc()};
  const NetworkModel model(specs[GetParam()]);
  engine::KernelConfig config;
  if (GetParam() == 9) config.tie_order = engine::TieOrder::fifo_creator;
  engine::KernelConfig optimistic = config;
  optimistic.gvt_interval = 8;
  const RunsAcrossRanks runs = run_across_ranks(model, config, optimistic);
  if (!runs.is_root) return;
  const engine::RunResult& run = runs.optimistic;
  const NetworkResults& reference = runs.reference;
  EXPECT_EQ(run.stats.events_committed, runs.sequential.stats.events_committed);
  const NetworkTotals totals = reference.totals(model.spec().workload);
  EXPECT_EQ(totals.messages_delivered, totals.messages);
  if (GetParam() == 0 ||
      (GetParam() >= 3 && GetParam() != 6 && GetParam() != 7 && GetParam() < 10)) {
    EXPECT_GT(totals.packets_dropped, 0u);  // the incast really exercises loss recovery
  }
  if (GetParam() == 5) {
    EXPECT_GT(totals.ooo_discarded_segments, 0u);  // the cap really discards
  }
  if (GetParam() == 6) {
    std::uint64_t syn_retransmissions = 0;
    for (const FlowRecord& f : reference.flows) syn_retransmissions += f.syn_retransmissions;
    EXPECT_EQ(syn_retransmissions, 2u);
  }
  if (GetParam() == 15) {  // PFC really paused, and lost nothing
    std::uint64_t pauses = 0;
    for (const PortClassRecord& r : reference.port_classes) pauses += r.pause_frames_sent;
    EXPECT_GT(pauses, 0u);
    EXPECT_EQ(totals.packets_dropped, 0u);
  }
  if (GetParam() == 7 || GetParam() == 14) {
    EXPECT_GT(totals.ecn_marked, 0u);  // DCTCP really reacts to marks
  }
  EXPECT_GT(run.stats.remote_events_sent, 0u);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, NetworkAcrossRanks,
                         ::testing::Values(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));

// Tiny optimism caps (4 uncommitted events, 32 KiB of engine memory per rank) and no window: the
// ranks keep stopping, cancelling work back and compacting their logs, and still commit the
// sequential kernel's results. (Optimistic sync: hybrid runs ahead only after a long wait for a
// promise, which a run this short may never have.)
class NetworkUnderTightCaps : public ::testing::TestWithParam<int> {};

TEST_P(NetworkUnderTightCaps, OptimisticMatchesSequential) {
  const NetworkSpec specs[] = {incast(), torus_all_to_all()};
  const NetworkModel model(specs[GetParam()]);
  engine::KernelConfig optimistic;
  optimistic.max_uncommitted = 4;
  optimistic.max_uncommitted_bytes = 32 * 1024;
  optimistic.sync = engine::SyncMode::optimistic;
  const RunsAcrossRanks runs = run_across_ranks(model, engine::KernelConfig{}, optimistic);
  if (!runs.is_root) return;
  const engine::RunResult& run = runs.optimistic;
  EXPECT_LT(run.stats.peak_uncommitted, 16u);       // 4, and a few events at GVT's instant
  EXPECT_GT(run.stats.rolled_back_for_memory, 0u);  // the cap made ranks cancel work back
}

INSTANTIATE_TEST_SUITE_P(Scenarios, NetworkUnderTightCaps, ::testing::Values(0, 1));

// An adaptive window starting at one link latency (the incast's 5 us, the torus's 100 ns), with
// short GVT intervals so it changes often, on spread and together placements: the width is
// timing only, and the sequential kernel's digest and records come out on every rank count.
class NetworkUnderAdaptiveWindow : public ::testing::TestWithParam<int> {};

TEST_P(NetworkUnderAdaptiveWindow, OptimisticMatchesSequential) {
  NetworkSpec specs[] = {incast(), torus_all_to_all(), incast()};
  specs[2].few_groups = FewGroupsPlacement::together;
  const engine::SimTime latencies[] = {engine::us(5), engine::ns(100), engine::us(5)};
  const NetworkModel model(specs[GetParam()]);
  engine::KernelConfig optimistic;
  optimistic.window = latencies[GetParam()];
  optimistic.adaptive_window = true;
  optimistic.gvt_interval = 4;
  const RunsAcrossRanks runs = run_across_ranks(model, engine::KernelConfig{}, optimistic);
  if (!runs.is_root) return;
  if (GetParam() == 2 && runs.optimistic.stats.ranks > 1) {
    // One switch: one rank holds every LP and runs them in key order, with no window.
    EXPECT_EQ(runs.optimistic.stats.sole_rank, 0);
    EXPECT_EQ(runs.optimistic.stats.remote_events_sent, 0u);
    EXPECT_EQ(runs.optimistic.stats.events_rolled_back, 0u);
    return;
  }
  const std::int64_t start = latencies[GetParam()].ps();
  EXPECT_LE(runs.optimistic.stats.window_narrowest.ps(), start);
  EXPECT_GE(runs.optimistic.stats.window_narrowest.ps(), start / 8);
  EXPECT_LE(runs.optimistic.stats.window_widest.ps(), start * 4096);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, NetworkUnderAdaptiveWindow, ::testing::Values(0, 1, 2));

// The time series (1 us intervals, so many per packet burst) of an incast with losses and of a
// credit-controlled fat tree: the same rows on every rank count as in the sequential run.
class TimeSeriesAcrossRanks : public ::testing::TestWithParam<int> {};

TEST_P(TimeSeriesAcrossRanks, SamplesMatchSequential) {
  NetworkSpec spec = GetParam() == 0 ? incast() : fat_tree_all_to_all();
  spec.outputs.sample_interval_ps = us(1).ps();
  const NetworkModel model(spec);
  engine::KernelConfig optimistic;
  optimistic.gvt_interval = 8;
  const RunsAcrossRanks runs = run_across_ranks(model, engine::KernelConfig{}, optimistic);
  if (!runs.is_root) return;
  EXPECT_GT(runs.reference.port_samples.size(), 100u);
  if (GetParam() == 0) {
    EXPECT_GT(runs.reference.flow_samples.size(), 100u);
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, TimeSeriesAcrossRanks, ::testing::Values(0, 1));

// Every rank keeps at most 2 KiB of records (as `netwarp run` keeps a few MiB), spills the rest
// as sorted runs and merges them into its part files: rank 0 streams the sequential run's records
// (queue trace, time series, cwnd samples, pcap) from them.
TEST(RecordsSpilledAcrossRanks, StreamTheSequentialRunsRecords) {
  NetworkSpec spec = incast();
  spec.outputs.sample_interval_ps = us(1).ps();
  spec.outputs.queue_ports = {PortRef{9, 8}};  // the switch port to the receiver
  spec.outputs.pcap_nodes = {1};
  spec.outputs.cwnd_trace = true;
  const NetworkModel model(spec);
  auto exchange = engine::make_mpi_exchange();
  const std::string dir = ::testing::TempDir() + "/network_mpi_spills";
  if (exchange->rank() == 0) std::filesystem::create_directories(dir);
  exchange->max(0);  // the folder exists
  engine::KernelConfig optimistic;
  optimistic.kind = engine::KernelKind::optimistic;
  optimistic.gvt_interval = 8;
  SpillingResults local(dir, exchange->rank(), 2048);  // 4 KiB spilled 94 times on 4 ranks once
                                                       // time series sampled only changes
  const engine::RunResult run = engine::run_optimistic(model, optimistic, *exchange, &local);
  const auto spills = static_cast<std::int64_t>(local.runs_spilled());
  local.finish();
  const std::int64_t most_spills = exchange->max(spills);  // and every part is written
  if (exchange->rank() != 0) return;
  NetworkResults reference;
  const engine::RunResult sequential =
      engine::run_sequential(model, engine::KernelConfig{}, &reference);
  reference.sort();
  EXPECT_EQ(run.stats.digest, sequential.stats.digest);
  EXPECT_GT(most_spills, 100);
  EXPECT_GT(reference.queue_samples.size(), 1000u);
  EXPECT_EQ(streamed(ResultsSource(dir, exchange->size())).to_bytes(), reference.to_bytes());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace netwarp::netmodels
