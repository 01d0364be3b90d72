// The benchmark programs of packet_bench.hpp and their measurements from call records.
#include "netwarp/validation/packet_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <stdexcept>

#include "netwarp/engine/kernel.hpp"
#include "netwarp/mpiemul/mpi_model.hpp"
#include "netwarp/netmodels/network_model.hpp"

namespace netwarp::validation {
namespace {

using mpiemul::CallRecord;
using mpiemul::Program;
using mpiemul::RankId;
using mpiemul::RankProgramBuilder;

constexpr double kPsPerNs = 1000.0;
// Over TCP with the handshake, every benchmark first exchanges an empty message between the
// ranks it measures, as MPI benchmarks warm up: a connection opens at a rank's first send to a
// peer (three-way handshake), which is set-up cost, not a message time.
constexpr std::int32_t kWarmUpTag = 99;

bool needs_warm_up(const scenarios::MpiRunSpec& platform) {
  const netmodels::TransportConfig& t = platform.network.transport;
  return t.kind == netmodels::TransportKind::tcp && t.tcp.handshake;
}

// Calls of one rank, in call order, without its first `warm_up` calls.
std::vector<const CallRecord*> calls_of(const mpiemul::MpiResults& r, RankId rank,
                                        std::size_t warm_up) {
  std::vector<const CallRecord*> calls;
  std::size_t seen = 0;
  for (const auto& c : r.calls)
    if (c.rank == rank && seen++ >= warm_up) calls.push_back(&c);
  return calls;
}

double span_ns(const CallRecord& first, const CallRecord& last) {
  return static_cast<double>(last.end_ps - first.start_ps) / kPsPerNs;
}

double duration_ns(const CallRecord& c) {
  return static_cast<double>(c.end_ps - c.start_ps) / kPsPerNs;
}

// With `warm_up` each rank makes 2 calls before `build`'s.
std::shared_ptr<const Program> two_rank_program(
    bool warm_up, const std::function<void(RankProgramBuilder&, RankProgramBuilder&)>& build) {
  RankProgramBuilder r0(0, 2), r1(1, 2);
  if (warm_up) {
    r0.send(1, kWarmUpTag, 0);
    r0.recv(1, kWarmUpTag, 0);
    r1.recv(0, kWarmUpTag, 0);
    r1.send(0, kWarmUpTag, 0);
  }
  build(r0, r1);
  auto program = std::make_shared<Program>();
  program->ranks.push_back(r0.take());
  program->ranks.push_back(r1.take());
  return program;
}

// An empty message each way between the ranks of every pair, then a waitall; returns the
// number of calls each rank made.
std::vector<std::size_t> warm_up_pattern(std::vector<RankProgramBuilder>& builders,
                                         const std::vector<std::pair<RankId, RankId>>& pattern) {
  std::vector<std::vector<std::uint32_t>> requests(builders.size());
  for (const auto& [a, b] : pattern) {
    requests[b].push_back(builders[b].irecv(static_cast<std::int32_t>(a), kWarmUpTag, 0));
    requests[a].push_back(builders[a].irecv(static_cast<std::int32_t>(b), kWarmUpTag, 0));
  }
  for (const auto& [a, b] : pattern) {
    requests[a].push_back(builders[a].isend(b, kWarmUpTag, 0));
    requests[b].push_back(builders[b].isend(a, kWarmUpTag, 0));
  }
  std::vector<std::size_t> calls(builders.size(), 0);
  for (std::size_t r = 0; r < builders.size(); ++r) {
    if (requests[r].empty()) continue;
    builders[r].waitall(requests[r]);
    calls[r] = requests[r].size() + 1;
  }
  return calls;
}

}  // namespace

PacketRun run_on_platform(const scenarios::MpiRunSpec& platform,
                          std::shared_ptr<const Program> program, std::uint64_t seed) {
  mpiemul::MpiConfig config = platform.config;
  if (config.rank_hosts.size() < program->size())
    throw std::invalid_argument("the platform places fewer ranks than the benchmark needs");
  // A benchmark measures the network: one rank per host where the platform's hosts suffice, on
  // them in the order its ranks use them (with several ranks per host, ranks 0 and 1 would
  // share one); else the ranks share hosts as the job's do.
  std::vector<netmodels::NodeId> hosts;
  for (netmodels::NodeId h : platform.config.rank_hosts)
    if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  if (hosts.size() >= program->size()) config.rank_hosts = std::move(hosts);
  config.rank_hosts.resize(program->size());
  netmodels::NetworkSpec network = platform.network;
  const auto model = mpiemul::make_mpi_model(std::move(network), program, config);
  engine::KernelConfig kernel;
  kernel.seed = seed;
  PacketRun run;
  const auto start = std::chrono::steady_clock::now();
  const engine::RunResult result = engine::run_sequential(*model, kernel, &run.results);
  run.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.events = result.stats.events_committed;
  run.results.sort();
  run.totals = run.results.totals(*program);
  if (!run.totals.finished)
    throw std::runtime_error("benchmark program deadlocked: " +
                             mpiemul::deadlock_message(run.totals));
  return run;
}

// One sample per message: the sender's record joined with the receiver's delivery.
std::vector<FlowSample> flow_samples(const netmodels::NetworkSpec& spec,
                                     const netmodels::NetworkResults& results) {
  const auto& nodes = spec.topology.nodes;
  std::vector<FlowSample> flows;
  for (const auto& m : spec.workload.messages)
    flows.push_back({m.id, nodes[m.src].name, nodes[m.dst].name, m.bytes});
  for (const auto& f : results.flows) {
    FlowSample& s = flows[f.flow];
    s.start_ps = f.start_ps;
    s.completed_ps = f.completed_ps;
    s.retransmitted_segments = f.retransmitted_segments;
    s.retransmission_timeouts = f.timeouts;
  }
  for (const auto& d : results.deliveries) flows[d.message].delivered_ps = d.delivered_ps;
  return flows;
}

WorkloadRun run_workload(netmodels::NetworkSpec spec, std::uint64_t seed) {
  const netmodels::NetworkModel model(std::move(spec));
  engine::KernelConfig kernel;
  kernel.seed = seed;
  netmodels::NetworkResults results;
  WorkloadRun run;
  const auto start = std::chrono::steady_clock::now();
  const engine::RunResult result = engine::run_sequential(model, kernel, &results);
  run.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.events = result.stats.events_committed;
  results.sort();
  run.totals = results.totals(model.spec().workload);
  run.flows = flow_samples(model.spec(), results);
  if (run.totals.messages_delivered != run.totals.messages)
    throw std::runtime_error(fmt::format("the workload did not finish: {} of {} messages delivered",
                                         run.totals.messages_delivered, run.totals.messages));
  return run;
}

PingPongCurve measure_pingpong(const scenarios::MpiRunSpec& platform,
                               const std::vector<std::uint64_t>& sizes, double w_ns,
                               std::uint32_t rounds) {
  const bool warm_up = needs_warm_up(platform);
  const auto program =
      two_rank_program(warm_up, [&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
        for (std::uint64_t k : sizes)
          for (std::uint32_t i = 0; i < rounds; ++i) {
            r0.send(1, 0, k);
            if (w_ns > 0) r0.compute(engine::SimTime::from_us(w_ns / 1000));
            r0.recv(1, 0, k);
            r1.recv(0, 0, k);
            r1.send(0, 0, k);
          }
      });
  const PacketRun run = run_on_platform(platform, program);
  const auto calls = calls_of(run.results, 0, warm_up ? 2 : 0);
  const std::size_t per_round = w_ns > 0 ? 3 : 2;
  PingPongCurve curve;
  curve.w_ns = w_ns;
  std::size_t c = 0;
  for (std::uint64_t k : sizes) {
    double rtt = std::numeric_limits<double>::infinity();
    double send = rtt;
    for (std::uint32_t i = 0; i < rounds; ++i, c += per_round) {
      rtt = std::min(rtt, span_ns(*calls[c], *calls[c + per_round - 1]));
      send = std::min(send, duration_ns(*calls[c]));
    }
    curve.rtt.emplace_back(k, rtt);
    curve.send_call.emplace_back(k, send);
  }
  return curve;
}

KielmannData measure_kielmann(const scenarios::MpiRunSpec& platform,
                              const std::vector<std::uint64_t>& sizes, std::uint32_t burst_count) {
  KielmannData data;
  data.burst_count = burst_count;
  const bool warm_up = needs_warm_up(platform);
  // Long enough for any message to be there before rank 1 calls MPI_Recv.
  const double settle_ns = 1e6;
  const auto program =
      two_rank_program(warm_up, [&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
        r0.send(1, 0, 0);  // RTT(0)
        r0.recv(1, 0, 0);
        r1.recv(0, 0, 0);
        r1.send(0, 0, 0);
        for (std::uint32_t i = 0; i < burst_count; ++i) r0.send(1, 1, 0);  // burst
        r0.recv(1, 1, 0);
        for (std::uint32_t i = 0; i < burst_count; ++i) r1.recv(0, 1, 0);
        r1.send(0, 1, 0);
        for (std::uint64_t m : sizes) {
          r0.send(1, 2, m);  // RTT(m, 0)
          r0.recv(1, 2, 0);
          r1.recv(0, 2, m);
          r1.send(0, 2, 0);
          r0.send(1, 3, m);  // o_r(m): rank 1 receives after the message is there
          r0.recv(1, 3, 0);
          r1.compute(engine::SimTime::from_us(settle_ns / 1000));
          r1.recv(0, 3, m);
          r1.send(0, 3, 0);
        }
      });
  const PacketRun run = run_on_platform(platform, program);
  const auto c0 = calls_of(run.results, 0, warm_up ? 2 : 0);
  const auto c1 = calls_of(run.results, 1, warm_up ? 2 : 0);
  data.rtt0_ns = span_ns(*c0[0], *c0[1]);
  data.burst_ns = span_ns(*c0[2], *c0[2 + burst_count]) - data.rtt0_ns;
  std::size_t i0 = 3 + burst_count, i1 = 3 + burst_count;
  for (std::uint64_t m : sizes) {
    data.rtt_m0.emplace_back(m, span_ns(*c0[i0], *c0[i0 + 1]));
    data.send_call.emplace_back(m, duration_ns(*c0[i0]));
    data.recv_call.emplace_back(m, duration_ns(*c1[i1 + 3]));  // after recv, send, compute
    i0 += 4;
    i1 += 5;
  }
  return data;
}

std::vector<Sample> measure_receive_times(const scenarios::MpiRunSpec& platform,
                                          const std::vector<std::uint64_t>& sizes) {
  std::vector<Sample> times;
  const bool warm_up = needs_warm_up(platform);
  for (std::uint64_t k : sizes) {
    const auto program =
        two_rank_program(warm_up, [&](RankProgramBuilder& r0, RankProgramBuilder& r1) {
          r0.send(1, 0, k);
          r1.recv(0, 0, k);
        });
    const PacketRun run = run_on_platform(platform, program);
    // From the send's start: after a warm-up rank 1 posts its receive before rank 0 sends.
    const std::size_t skip = warm_up ? 2 : 0;
    const CallRecord& send = *calls_of(run.results, 0, skip).front();
    const CallRecord& recv = *calls_of(run.results, 1, skip).front();
    times.emplace_back(k, static_cast<double>(recv.end_ps - send.start_ps) / kPsPerNs);
  }
  return times;
}

// Every rank posts all its receives first and sends without blocking, so rendezvous pairs that
// share ranks (i -> i + 1 and i - 1 -> i) cannot deadlock; a responder echoes once its receive
// is complete. A rank's time is from its first call to the end of its final waitall, after a
// warm-up that opens the pattern's connections both ways.
double measure_concurrent_pingpong(const scenarios::MpiRunSpec& platform, RankId ranks,
                                   const std::vector<std::pair<RankId, RankId>>& pattern,
                                   std::uint64_t bytes) {
  std::vector<RankProgramBuilder> builders;
  for (RankId r = 0; r < ranks; ++r) builders.emplace_back(r, ranks);
  const std::vector<std::size_t> warm_up = needs_warm_up(platform)
                                               ? warm_up_pattern(builders, pattern)
                                               : std::vector<std::size_t>(ranks, 0);
  std::vector<std::vector<std::uint32_t>> all(ranks);
  std::vector<std::vector<std::pair<RankId, std::uint32_t>>> to_echo(ranks);
  for (const auto& [a, b] : pattern) {
    all[b].push_back(builders[b].irecv(static_cast<std::int32_t>(a), 7, bytes));
    to_echo[b].emplace_back(a, all[b].back());
    all[a].push_back(builders[a].irecv(static_cast<std::int32_t>(b), 8, bytes));
  }
  for (const auto& [a, b] : pattern) all[a].push_back(builders[a].isend(b, 7, bytes));
  for (RankId r = 0; r < ranks; ++r) {
    for (const auto& [peer, request] : to_echo[r]) {
      builders[r].wait(request);
      all[r].push_back(builders[r].isend(peer, 8, bytes));
    }
    if (!all[r].empty()) builders[r].waitall(all[r]);
  }
  auto program = std::make_shared<Program>();
  for (auto& b : builders) program->ranks.push_back(b.take());
  const PacketRun run = run_on_platform(platform, program);
  double worst = 0;
  for (RankId r = 0; r < ranks; ++r) {
    const auto calls = calls_of(run.results, r, warm_up[r]);
    if (!calls.empty()) worst = std::max(worst, span_ns(*calls.front(), *calls.back()));
  }
  return worst;
}

}  // namespace netwarp::validation
