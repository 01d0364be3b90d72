// PHOLD with the sequential kernel and the optimistic kernel in each engine.sync mode, on the
// ranks of the job (bench/SCALE.md, "Sync modes"): a lean driver without the netwarp program, so
// a Release build of the engine alone measures the kernels' paths. Prints one line per run:
// kernel, sync, ranks, committed events, safe events, rolled back, engine wall seconds, digest.
//   sync_bench LPS_PER_RANK END_US [REMOTE]          (one rank: make_local_exchange)
//   mpirun -np 2 sync_bench LPS_PER_RANK END_US      (the sequential run: rank 0, all LPs)
//   sync_bench LPS_PER_RANK END_US REMOTE THREADS [MODES [TIES]]  (THREADS partitions as
//       threads; MODES: letters s, o, c, h to run; TIES: fifo (default), creator, fifo_creator)
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
  std::printf(
      "%s %s ranks=%d committed=%llu safe=%llu rolled_back=%llu wall=%.4f handling=%.3f "
      "communication=%.3f gvt=%.3f rounds=%llu digest=%s\n",
      s.kernel.c_str(), sync, s.ranks, static_cast<unsigned long long>(s.events_committed),
      static_cast<unsigned long long>(s.events_safe),
      static_cast<unsigned long long>(s.events_rolled_back), s.wall_seconds, s.handling_seconds,
      s.communication_seconds, s.gvt_seconds, static_cast<unsigned long long>(s.gvt_rounds),
      s.digest.c_str());
}

int run(engine::RankExchange& exchange, std::uint32_t lps_per_rank, double end, double remote,
        const std::string& modes = "soch", engine::TieOrder ties = engine::TieOrder::fifo) {
  phold::PholdConfig c;
  c.lps_per_rank = lps_per_rank;
  c.ranks = exchange.size();
  c.remote = remote;
  c.end = end;
  engine::KernelConfig config;
  config.end_time = engine::SimTime::from_us(end);
  config.tie_order = ties;
  const phold::PholdModel model(c);
  if (exchange.rank() == 0 && modes.find('s') != std::string::npos)
    print(engine::run_sequential(model, config).stats, "-");
  config.kind = engine::KernelKind::optimistic;
  for (const engine::SyncMode mode :
       {engine::SyncMode::optimistic, engine::SyncMode::conservative, engine::SyncMode::hybrid}) {
    if (modes.find(engine::sync_name(mode)[0]) == std::string::npos) continue;
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
  if (argc > 4) {
    const int threads = std::atoi(argv[4]);
    const std::string modes = argc > 5 ? argv[5] : "soch";
    const std::string ties = argc > 6 ? argv[6] : "fifo";
    if (ties != "fifo" && ties != "creator" && ties != "fifo_creator") {
      std::fprintf(stderr, "sync_bench: TIES must be fifo, creator or fifo_creator, got %s\n",
                   ties.c_str());
      return 2;
    }
    const auto order = ties == "creator"        ? netwarp::engine::TieOrder::creator
                       : ties == "fifo_creator" ? netwarp::engine::TieOrder::fifo_creator
                                                : netwarp::engine::TieOrder::fifo;
    int rc = 0;
    netwarp::engine::run_as_threads(threads, [&](netwarp::engine::RankExchange& exchange) {
      const int r = run(exchange, lps, end, remote, modes, order);
      if (exchange.rank() == 0) rc = r;
    });
    return rc;
  }
  if (!netwarp::engine::MpiSession::launched_by_mpirun()) {
    auto exchange = netwarp::engine::make_local_exchange();
    return run(*exchange, lps, end, remote);
  }
  netwarp::engine::MpiSession session(argc, argv);
  auto exchange = netwarp::engine::make_mpi_exchange();
  return run(*exchange, lps, end, remote);
}
