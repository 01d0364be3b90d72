// PHOLD with the sequential kernel and the optimistic kernel in each engine.sync mode, on the
// ranks of the job (bench/SCALE.md, "Sync modes"): a lean driver without the netwarp program, so
// a Release build of the engine alone measures the kernels' paths. Prints one line per run:
// kernel, sync, ranks, committed events, safe events, rolled back, engine wall seconds, digest.
//   sync_bench LPS_PER_RANK END_US [REMOTE]          (one rank: make_local_exchange)
//   mpirun -np 2 sync_bench LPS_PER_RANK END_US      (the sequential run: rank 0, all LPs)
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "netwarp/engine/kernel.hpp"
#include "netwarp/engine/rank_exchange.hpp"
#include "netwarp/phold/phold.hpp"

namespace {

using namespace netwarp;

void print(const engine::RunStats& s, const char* sync) {
  std::printf("%s %s ranks=%d committed=%llu safe=%llu rolled_back=%llu wall=%.4f digest=%s\n",
              s.kernel.c_str(), sync, s.ranks, static_cast<unsigned long long>(s.events_committed),
              static_cast<unsigned long long>(s.events_safe),
              static_cast<unsigned long long>(s.events_rolled_back), s.wall_seconds,
              s.digest.c_str());
}

int run(engine::RankExchange& exchange, std::uint32_t lps_per_rank, double end, double remote) {
  phold::PholdConfig c;
  c.lps_per_rank = lps_per_rank;
  c.ranks = exchange.size();
  c.remote = remote;
  c.end = end;
  engine::KernelConfig config;
  config.end_time = engine::SimTime::from_us(end);
  const phold::PholdModel model(c);
  if (exchange.rank() == 0) print(engine::run_sequential(model, config).stats, "-");
  config.kind = engine::KernelKind::optimistic;
  for (const engine::SyncMode mode :
       {engine::SyncMode::optimistic, engine::SyncMode::conservative, engine::SyncMode::hybrid}) {
    config.sync = mode;
    const engine::RunResult r = engine::run_optimistic(model, config, exchange);
    if (exchange.rank() == 0) print(r.stats, std::string(engine::sync_name(mode)).c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: sync_bench LPS_PER_RANK END_US [REMOTE]\n");
    return 2;
  }
  const auto lps = static_cast<std::uint32_t>(std::atoi(argv[1]));
  const double end = std::atof(argv[2]);
  const double remote = argc > 3 ? std::atof(argv[3]) : 0.1;
  if (!netwarp::engine::MpiSession::launched_by_mpirun()) {
    auto exchange = netwarp::engine::make_local_exchange();
    return run(*exchange, lps, end, remote);
  }
  netwarp::engine::MpiSession session(argc, argv);
  auto exchange = netwarp::engine::make_mpi_exchange();
  return run(*exchange, lps, end, remote);
}
