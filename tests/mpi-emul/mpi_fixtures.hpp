// MPI runs for the tests: a program on a small hand-built platform, run sequentially, then
// optimistically and in reverse check mode, with equal digests and records.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <numeric>

#include "netmodels/network_fixtures.hpp"
#include "netwarp/engine/kernel.hpp"
#include "netwarp/mpiemul/mpi_model.hpp"
#include "netwarp/mpiemul/mpi_results.hpp"

namespace netwarp::mpiemul::testing {

using netmodels::testing::plain_format;
using netmodels::testing::star_topology;

struct MpiRun {
  engine::RunStats stats;
  MpiResults results;
  MpiTotals totals;
};

// `hosts` hosts on one switch, every link `rate_bps` and `latency`, lossless, 1000-byte MTU
// without headers, so hand computation stays simple.
inline netmodels::NetworkSpec star_platform(std::uint32_t hosts, std::uint64_t rate_bps,
                                            SimTime latency) {
  netmodels::NetworkSpec spec;
  spec.topology = star_topology(hosts, netmodels::LinkSpec{rate_bps, latency});
  spec.format = plain_format();
  return spec;
}

// Host costs with round numbers for hand-computed protocol times: o = 700 ns, eager 0.25 / 0.125
// ps per byte, rendezvous 0.1 / 0.05, copies 0.08 (protocol and intra-node tests).
inline HostCosts hand_costs() {
  HostCosts c;
  c.o = engine::ns(700);
  c.send_eager_fs_per_byte = 250;
  c.recv_eager_fs_per_byte = 125;
  c.send_rndv_fs_per_byte = 100;
  c.recv_rndv_fs_per_byte = 50;
  c.copy_fs_per_byte = 80;
  return c;
}

// Matching tests: o = 300 ns, 0.1 ps per eager byte; eager up to 2 KiB (short to 512 B); a
// 10 Gbit/s star with 200 ns links.
inline HostCosts matching_costs() {
  HostCosts c;
  c.o = engine::ns(300);
  c.send_eager_fs_per_byte = 100;
  c.recv_eager_fs_per_byte = 100;
  return c;
}
inline ProtocolConfig small_eager() {
  ProtocolConfig p;
  p.short_bytes = 512;
  p.eager_bytes = 2048;
  return p;
}
inline netmodels::NetworkSpec matching_platform(std::uint32_t hosts) {
  return star_platform(hosts, netmodels::gbps(10), engine::ns(200));
}

inline MpiConfig config_for(const Program& program, HostCosts costs = {},
                            ProtocolConfig protocol = {}) {
  MpiConfig c;
  c.costs = costs;
  c.protocol = protocol;
  c.rank_hosts.resize(program.size());
  std::iota(c.rank_hosts.begin(), c.rank_hosts.end(), 0u);
  return c;
}

inline MpiRun run_mpi(const netmodels::NetworkSpec& spec, const Program& program,
                      const MpiConfig& config, bool only_sequential = false) {
  const auto shared = std::make_shared<const Program>(program);
  const auto model = make_mpi_model(spec, shared, config);
  engine::KernelConfig kc;
  MpiRun run;
  run.stats = engine::run_sequential(*model, kc, &run.results).stats;
  run.results.sort();
  run.totals = run.results.totals(program);
  if (only_sequential) return run;
  auto exchange = engine::make_local_exchange();
  kc.kind = engine::KernelKind::optimistic;
  kc.gvt_interval = 4;
  kc.batch_size = 8;
  for (bool check : {false, true}) {
    kc.check_reverse = check;
    MpiResults optimistic;
    const auto stats = engine::run_optimistic(*model, kc, *exchange, &optimistic).stats;
    EXPECT_EQ(stats.digest, run.stats.digest) << (check ? "check-reverse" : "optimistic");
    optimistic.sort();
    EXPECT_EQ(optimistic.to_bytes(), run.results.to_bytes());
  }
  return run;
}

// Every call's time is exactly the sum of its parts.
inline void expect_breakdowns_add_up(const MpiResults& results) {
  for (const CallRecord& c : results.calls)
    EXPECT_EQ(c.end_ps - c.start_ps,
              c.overhead_ps + c.send_wait_ps + c.recv_wait_ps + c.sync_ps + c.compute_ps)
        << "rank " << c.rank << " call " << c.call;
}

}  // namespace netwarp::mpiemul::testing
