// Determinism across kernels and rank counts under MPI: the optimistic kernel on every rank of
// the job gives the digest, event count and records of the sequential kernel on rank 0 for the
// same model. Settings that stress rollback (high remote fraction, short lookahead, one event
// per batch, tight memory cap) are included; the kernel's always-on checks (no event or
// rollback below GVT, GVT monotone) abort the job if GVT ever passed work in transit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "engine/promise_checks.hpp"
#include "engine/test_models.hpp"
#include "netwarp/phold/phold.hpp"

namespace netwarp::engine {
namespace {

struct Tuning {
  const char* name;
  std::uint32_t batch;
  std::uint32_t gvt_interval;
  SimTime window;
  std::uint64_t max_uncommitted;
  std::uint64_t max_uncommitted_bytes;
  bool adaptive_window;
};

const Tuning kTunings[] = {
    {"defaults", 16, 64, SimTime::max(), 0, 0, false},
    {"every_event", 1, 1, SimTime::max(), 0, 0, false},
    {"window", 8, 4, us(2), 1'000'000, 0, false},
    {"adaptive_window", 8, 4, us(2), 1'000'000, 0, true},
    {"adaptive_window_tight_cap", 4, 2, ns(500), 16, 0, true},
    {"memory_cap", 32, 8, SimTime::max(), 64, 0, false},
    {"one_uncommitted_event", 16, 4, SimTime::max(), 1, 0, false},
    {"tiny_byte_cap", 16, 4, SimTime::max(), 0, 4096, false},
    {"both_caps_tight", 4, 2, SimTime::max(), 8, 64 * 1024, false},
};

class PholdAcrossRanks : public ::testing::TestWithParam<double> {
 protected:
  PholdAcrossRanks() : exchange_(make_mpi_exchange()) {}
  std::unique_ptr<RankExchange> exchange_;
};

TEST_P(PholdAcrossRanks, OptimisticMatchesSequential) {
  const int ranks = exchange_->size();
  phold::PholdConfig c;
  c.lps_per_rank = 128 / static_cast<std::uint32_t>(ranks);  // 128 LPs in all, any rank count
  c.ranks = ranks;
  c.remote = GetParam();
  c.lookahead = 0.05;
  c.end = 400;
  const phold::PholdModel model(c);
  KernelConfig config;
  config.end_time = SimTime::from_us(c.end);
  RunResult reference;
  if (exchange_->rank() == 0) reference = run_sequential(model, config);

  config.kind = KernelKind::optimistic;
  for (const Tuning& t : kTunings) {
    config.batch_size = t.batch;
    config.gvt_interval = t.gvt_interval;
    config.window = t.window;
    config.max_uncommitted = t.max_uncommitted;
    config.max_uncommitted_bytes = t.max_uncommitted_bytes;
    config.adaptive_window = t.adaptive_window;
    const RunResult run = run_optimistic(model, config, *exchange_);
    // The cap is hard but for events at GVT's instant, which always run (GVT could not pass them
    // otherwise): PHOLD's delays tie to the picosecond now and then, and a 4-rank run under ASan
    // once ran two past a cap of one. Without the cap a rank holds far more.
    constexpr std::uint64_t kTiesAtGvt = 3;
    EXPECT_LE(run.stats.peak_uncommitted, effective_max_uncommitted(config) + kTiesAtGvt) << t.name;
    EXPECT_EQ(run.stats.ranks, ranks);
    if (exchange_->rank() != 0) continue;
    EXPECT_EQ(run.stats.digest, reference.stats.digest) << t.name;
    EXPECT_EQ(run.stats.events_committed, reference.stats.events_committed) << t.name;
    EXPECT_GE(run.stats.events_processed, run.stats.events_committed) << t.name;
    EXPECT_EQ(run.stats.events_processed - run.stats.events_committed, run.stats.events_rolled_back)
        << t.name;
    EXPECT_GT(run.stats.gvt_rounds, 1u) << t.name;
    if (GetParam() > 0) {
      EXPECT_GT(run.stats.remote_events_sent, 0u) << t.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Remote, PholdAcrossRanks, ::testing::Values(0.0, 0.1, 0.5, 1.0));

TEST(PholdCheckReverse, PassesOnEveryRankWithTheSequentialDigest) {
  auto exchange = make_mpi_exchange();
  phold::PholdConfig c;
  c.lps_per_rank = 64 / static_cast<std::uint32_t>(exchange->size());
  c.ranks = exchange->size();
  c.remote = 0.5;
  c.end = 100;
  const phold::PholdModel model(c);
  KernelConfig config;
  config.end_time = us(100);
  RunResult reference;
  if (exchange->rank() == 0) reference = run_sequential(model, config);
  config.kind = KernelKind::optimistic;
  config.check_reverse = true;
  const RunResult run = run_optimistic(model, config, *exchange);
  if (exchange->rank() == 0) {
    EXPECT_EQ(run.stats.digest, reference.stats.digest);
  }
}

// Every sync mode gives the sequential digest on every rank count. Conservative runs roll
// nothing back and run every event safe; hybrid runs some events safe (on one rank, all).
class PholdSyncModes : public ::testing::TestWithParam<SyncMode> {};

TEST_P(PholdSyncModes, MatchSequentialAndRunSafeEventsWithoutRollback) {
  auto exchange = make_mpi_exchange();
  const int ranks = exchange->size();
  const SyncMode mode = GetParam();
  for (const double remote : {0.1, 0.5}) {
    phold::PholdConfig c;
    c.lps_per_rank = 128 / static_cast<std::uint32_t>(ranks);
    c.ranks = ranks;
    c.remote = remote;
    c.lookahead = 0.2;
    c.end = 200;
    const phold::PholdModel model(c);
    KernelConfig config;
    config.end_time = SimTime::from_us(c.end);
    RunResult reference;
    if (exchange->rank() == 0) reference = run_sequential(model, config);
    config.kind = KernelKind::optimistic;
    config.sync = mode;
    for (const Tuning& t : {kTunings[0], kTunings[7]}) {
      config.batch_size = t.batch;
      config.gvt_interval = t.gvt_interval;
      config.window = t.window;
      config.max_uncommitted = t.max_uncommitted;
      config.max_uncommitted_bytes = t.max_uncommitted_bytes;
      const RunResult run = run_optimistic(model, config, *exchange);
      EXPECT_EQ(run.stats.sync, sync_name(mode));
      if (exchange->rank() != 0) continue;
      EXPECT_EQ(run.stats.digest, reference.stats.digest) << t.name << " remote " << remote;
      EXPECT_EQ(run.stats.events_committed, reference.stats.events_committed) << t.name;
      EXPECT_LE(run.stats.events_safe, run.stats.events_committed) << t.name;
      if (mode == SyncMode::conservative) {
        EXPECT_EQ(run.stats.events_rolled_back, 0u) << t.name;
        EXPECT_EQ(run.stats.events_safe, run.stats.events_committed) << t.name;
        EXPECT_EQ(run.stats.peak_uncommitted, 0u) << t.name;
      } else if (mode == SyncMode::hybrid) {
        EXPECT_GT(run.stats.events_safe, 0u) << t.name;
      } else {
        EXPECT_EQ(run.stats.events_safe, 0u) << t.name;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, PholdSyncModes,
                         ::testing::Values(SyncMode::optimistic, SyncMode::conservative,
                                           SyncMode::hybrid),
                         [](const auto& test) { return std::string(sync_name(test.param)); });

// The byte cap is hard: with GVT rounds so rare that a rank would run through its whole share of
// the run before committing anything (megabytes of logs, over 4 times the cap), the engine
// memory in use stays within the cap plus the stated slack. The cap is checked before each batch,
// so a batch may pass it by its own events' logs (16 x under 512 B each), and messages that
// arrive after it add pending events (PHOLD holds 128 events in all, 128 B each with their queue
// entry): 8 + 16 KiB, rounded up to 32 KiB.
TEST(PholdByteCap, PeakEngineBytesStayWithinTheCap) {
  auto exchange = make_mpi_exchange();
  const int ranks = exchange->size();
  phold::PholdConfig c;
  c.lps_per_rank = 128 / static_cast<std::uint32_t>(ranks);
  c.ranks = ranks;
  c.remote = 0.1;
  c.end = 400;
  const phold::PholdModel model(c);
  KernelConfig config;
  config.kind = KernelKind::optimistic;
  config.sync = SyncMode::optimistic;
  config.end_time = SimTime::from_us(c.end);
  config.gvt_interval = 1u << 20;  // GVT rounds only when a rank has nothing left to do
  config.max_uncommitted = std::uint64_t{1} << 40;
  const RunResult free_run = run_optimistic(model, config, *exchange);
  constexpr std::uint64_t kCap = 256 * 1024;
  constexpr std::uint64_t kSlack = 32 * 1024;
  EXPECT_GT(free_run.stats.peak_engine_bytes_in_use, 4 * kCap);
  config.max_uncommitted_bytes = kCap;
  const RunResult capped = run_optimistic(model, config, *exchange);
  EXPECT_LE(capped.stats.peak_engine_bytes_in_use, kCap + kSlack);
  EXPECT_GT(capped.stats.peak_engine_bytes_in_use, kCap / 2);  // the cap, not the model, bound it
  if (exchange->rank() == 0) {
    EXPECT_EQ(capped.stats.digest, free_run.stats.digest);
  }
}

// Every rank's kept records at rank 0 (empty elsewhere).
std::vector<testing::KeptRecord> gather_kept(const testing::KeepingSink& local,
                                             RankExchange& exchange) {
  std::vector<std::byte> bytes(local.kept.size() * sizeof(testing::KeptRecord));
  if (!bytes.empty()) std::memcpy(bytes.data(), local.kept.data(), bytes.size());
  std::vector<testing::KeptRecord> all;
  for (const auto& p : exchange.gather(std::move(bytes))) {
    const std::size_t at = all.size();
    all.resize(at + p.size() / sizeof(testing::KeptRecord));
    if (!p.empty()) std::memcpy(&all[at], p.data(), p.size());
  }
  return all;
}

void expect_same_records(std::vector<testing::KeptRecord> all,
                         std::vector<testing::KeptRecord> reference) {
  auto order = [](const testing::KeptRecord& a, const testing::KeptRecord& b) {
    return a.key != b.key ? a.key < b.key : a.lp < b.lp;
  };
  std::sort(all.begin(), all.end(), order);
  std::sort(reference.begin(), reference.end(), order);
  ASSERT_EQ(all.size(), reference.size());
  ASSERT_GT(all.size(), 100u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].lp, reference[i].lp);
    EXPECT_EQ(all[i].key, reference[i].key);
    EXPECT_EQ(all[i].record.value, reference[i].record.value);
    EXPECT_EQ(all[i].record.sum_after, reference[i].record.sum_after);
  }
}

// Records gathered from every rank equal the sequential kernel's, record for record, also when
// tight caps make fossil collection commit behind uncommittable entries and cancel work back.
class ChainAcrossRanks : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(ChainAcrossRanks, CommittedRecordsMatchSequential) {
  auto exchange = make_mpi_exchange();
  // Every ping goes at least 500 ns ahead: hybrid and conservative runs have events to run safe,
  // and their records must commit as the Time Warp ones do.
  const testing::ChainModel model(24, 3, -1, ns(500));
  KernelConfig config;
  config.end_time = us(30);
  testing::KeepingSink reference;
  if (exchange->rank() == 0) run_sequential(model, config, &reference);
  config.kind = KernelKind::optimistic;
  config.gvt_interval = 2;
  config.max_uncommitted = GetParam();
  for (const SyncMode mode : {SyncMode::optimistic, SyncMode::conservative, SyncMode::hybrid}) {
    config.sync = mode;
    testing::KeepingSink local;
    const RunResult run = run_optimistic(model, config, *exchange, &local);
    EXPECT_EQ(run.stats.sole_rank, -1);
    const std::vector<testing::KeptRecord> all = gather_kept(local, *exchange);
    if (exchange->rank() == 0) expect_same_records(all, reference.kept);
  }
}

INSTANTIATE_TEST_SUITE_P(EventCaps, ChainAcrossRanks, ::testing::Values(0, 1, 3, 16));

// The processes of one machine share promises in memory; one becomes readable only once the
// reader has taken every message its publisher sent before it, and a new run forgets them.
TEST(NodePromises, APromiseWaitsForTheMessagesSentBeforeIt) {
  auto exchange = make_mpi_exchange();
  if (exchange->size() < 2) GTEST_SKIP() << "needs 2 ranks";
  testing::expect_a_promise_waits_for_its_message(*exchange, 0, 1);
}

// Every LP on the last rank: that rank handles the events in key order with no rollback, the
// others have nothing; records, digest and counts are the sequential kernel's. With
// --check-reverse the usual Time Warp path runs (its checks need the undo logs).
TEST(ChainOnOneRank, RunsInKeyOrderWithTheSequentialRecords) {
  auto exchange = make_mpi_exchange();
  const int last = exchange->size() - 1;
  const testing::ChainModel model(24, 3, last);
  KernelConfig config;
  config.end_time = us(30);
  testing::KeepingSink reference;
  RunResult sequential;
  if (exchange->rank() == 0) sequential = run_sequential(model, config, &reference);
  config.kind = KernelKind::optimistic;
  testing::KeepingSink local;
  const RunResult run = run_optimistic(model, config, *exchange, &local);
  EXPECT_EQ(run.stats.sole_rank, exchange->size() > 1 ? last : -1);
  EXPECT_EQ(run.stats.kernel, "optimistic");
  EXPECT_EQ(run.stats.ranks, exchange->size());
  if (exchange->rank() != last) {
    EXPECT_TRUE(local.kept.empty());
  }
  const std::vector<testing::KeptRecord> all = gather_kept(local, *exchange);
  if (exchange->rank() == 0) {
    expect_same_records(all, reference.kept);
    EXPECT_EQ(run.stats.digest, sequential.stats.digest);
    EXPECT_EQ(run.stats.events_committed, sequential.stats.events_committed);
    EXPECT_EQ(run.stats.events_rolled_back, 0u);
    EXPECT_EQ(run.lp_digests.size(), 24u);
  }
  config.check_reverse = true;
  const RunResult checked = run_optimistic(model, config, *exchange);
  EXPECT_EQ(checked.stats.sole_rank, -1);
  if (exchange->rank() == 0) {
    EXPECT_EQ(checked.stats.digest, sequential.stats.digest);
  }
}

}  // namespace
}  // namespace netwarp::engine
