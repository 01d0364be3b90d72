// Partitions as threads in every process of an MPI job (mpirun -np M, 2 threads each; this
// binary's MPI allows threads: NETWARP_MPI_TEST_THREADS).
#include <gtest/gtest.h>

#include "engine/phold_spread.hpp"
#include "engine/promise_checks.hpp"
#include "engine/test_models.hpp"

namespace netwarp::engine {
namespace {

// The sequential digest in every sync mode, events crossing both threads and processes, and the
// collectives' results in global rank order.
TEST(PholdHybrid, ThreadsInEveryProcessGiveTheSequentialDigest) {
  auto world = make_mpi_exchange();
  constexpr int kThreads = 2;
  const int partitions = world->size() * kThreads;
  const phold::PholdConfig c = testing::phold_spread(partitions, 128, 80);
  const phold::PholdModel model(c);
  KernelConfig config;
  config.end_time = SimTime::from_us(c.end);
  const RunResult reference = run_sequential(model, config);  // on every process
  config.kind = KernelKind::optimistic;
  for (const SyncMode mode : {SyncMode::optimistic, SyncMode::conservative, SyncMode::hybrid}) {
    config.sync = mode;
    for (const testing::ThreadTuning& t :
         {testing::kThreadTunings[0], testing::kThreadTunings[2], testing::kThreadTunings[3]}) {
      testing::apply_tuning(t, config);
      const auto exchanges = make_hybrid_exchanges(kThreads);
      run_as_threads(exchanges, [&](RankExchange& ex) {
        EXPECT_EQ(ex.size(), partitions);
        const RunResult run = run_optimistic(model, config, ex);
        EXPECT_EQ(run.stats.digest, reference.stats.digest) << t.name << " rank " << ex.rank();
        EXPECT_EQ(run.stats.events_committed, reference.stats.events_committed) << t.name;
        EXPECT_EQ(run.stats.ranks, partitions);
        EXPECT_GT(run.stats.remote_events_sent, 0u);
        if (mode == SyncMode::conservative) {
          EXPECT_EQ(run.stats.events_rolled_back, 0u);
        }
        const std::int64_t r = ex.rank();
        const auto all = ex.gather({static_cast<std::byte>(r)});
        if (r == 0) {
          ASSERT_EQ(all.size(), static_cast<std::size_t>(partitions));
          for (std::size_t i = 0; i < all.size(); ++i)
            EXPECT_EQ(all[i], std::vector<std::byte>{static_cast<std::byte>(i)});
        }
        EXPECT_EQ(ex.sum(r), std::int64_t{partitions} * (partitions - 1) / 2);
        EXPECT_EQ(ex.max(r), partitions - 1);
      });
    }
  }
}

// The partitions of other processes on the machine share promises in memory too: one becomes
// readable only once the reader has taken every message that partition sent it before (counted
// by sending thread, which rides in the tag), and a new run forgets them.
TEST(PholdHybrid, APromiseOfAnotherProcessesThreadWaitsForItsMessages) {
  auto world = make_mpi_exchange();
  if (world->size() < 2) GTEST_SKIP() << "needs 2 processes";
  constexpr int kThreads = 2;
  const auto exchanges = make_hybrid_exchanges(kThreads);
  // Process 0's second thread publishes to process 1's first.
  run_as_threads(exchanges, [](RankExchange& ex) {
    testing::expect_a_promise_waits_for_its_message(ex, 1, 2);
  });
}

}  // namespace
}  // namespace netwarp::engine
