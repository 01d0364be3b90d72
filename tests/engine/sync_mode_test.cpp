// Safe events (KernelConfig::sync): below the safe horizon an event runs as in the sequential
// kernel (no log entry, undo or sent record; its records commit at once), past it as Time Warp
// does (hybrid) or not at all (conservative); the horizon a rank contributes; the lookahead guard.
#include <gtest/gtest.h>

#include <cstring>

#include "engine/test_models.hpp"
#include "optimistic/time_warp_pe.hpp"
#include "optimistic/wire.hpp"

namespace netwarp::engine {
namespace {

using testing::ChainModel;
using testing::FakeExchange;
using testing::KeepingSink;
using testing::Ping;

KernelConfig with_sync(SyncMode mode) {
  KernelConfig config;
  config.kind = KernelKind::optimistic;
  config.sync = mode;
  return config;
}

// Rank 0 of 2 owns LPs 0-3; LPs 4-7 live on the (fake) rank 1. Pings go at least 500 ns ahead,
// as the model declares.
class SafeEventsTest : public ::testing::Test {
 protected:
  explicit SafeEventsTest(SyncMode mode = SyncMode::hybrid, SimTime lookahead = ns(500),
                          bool shared_promises = false)
      : config_(with_sync(mode)),
        model_(8, 0, -1, lookahead),
        exchange_(2, shared_promises),
        pe_(model_, config_, exchange_, &sink_) {
    pe_.init_lps();
    // Hybrid runs past the horizon only while speculating (after a long wait, in the kernel).
    pe_.set_speculation(true);
  }

  static Event ping_event(SimTime t, std::uint64_t counter, LpId dest, Ping ping) {
    Event e;
    e.key = EventKey{t, 5, counter};  // created by LP 5 on rank 1
    e.dest = dest;
    e.tag = tag_of<Ping>;
    e.size = sizeof(Ping);
    std::memset(e.payload, 0, sizeof e.payload);
    std::memcpy(e.payload, &ping, sizeof ping);
    return e;
  }
  void inject(const Event& e) {
    WireBatch batch;
    batch.add_positive(e);
    exchange_.inbox.push_back(batch.take());
    pe_.poll_incoming();
  }
  std::size_t run_all() { return pe_.process_batch(1000, SimTime::max()); }
  std::vector<std::uint64_t> committed_values(LpId lp) const {
    std::vector<std::uint64_t> values;
    for (const auto& r : sink_.kept)
      if (r.lp == lp) values.push_back(r.record.value);
    return values;
  }

  KernelConfig config_;
  ChainModel model_;
  FakeExchange exchange_;
  KeepingSink sink_;
  TimeWarpPe pe_;
};

TEST_F(SafeEventsTest, BelowTheHorizonAnEventCommitsAtOnceAndLeavesNothingToUndo) {
  inject(ping_event(us(10), 1, 0, Ping{10, 0, 0}));
  inject(ping_event(us(30), 2, 1, Ping{30, 0, 0}));
  pe_.set_safe_horizon(us(20));
  EXPECT_EQ(run_all(), 2u);
  EXPECT_EQ(committed_values(0), (std::vector<std::uint64_t>{10}));  // before any GVT round
  EXPECT_TRUE(committed_values(1).empty());
  EXPECT_EQ(pe_.uncommitted(), 1u);  // only the 30 us event is logged
  const RunStats s = pe_.local_stats();
  EXPECT_EQ(s.events_safe, 1u);
  EXPECT_EQ(s.events_committed, 1u);
  EXPECT_EQ(s.events_processed, 2u);
  pe_.fossil_collect(us(100));
  EXPECT_EQ(committed_values(1), (std::vector<std::uint64_t>{30}));
  EXPECT_EQ(pe_.local_stats().events_committed, 2u);
}

// Committing it at once would put it before the LP's earlier, still uncommitted event.
TEST_F(SafeEventsTest, AnLpWithUncommittedWorkRunsItsNextEventLoggedEvenBelowTheHorizon) {
  inject(ping_event(us(10), 1, 0, Ping{10, 0, 0}));
  run_all();  // no horizon yet: logged
  inject(ping_event(us(15), 2, 0, Ping{15, 0, 0}));
  inject(ping_event(us(16), 3, 1, Ping{16, 0, 0}));
  pe_.set_safe_horizon(us(20));
  run_all();
  EXPECT_EQ(pe_.uncommitted(), 2u);                                  // LP 0's two events
  EXPECT_EQ(committed_values(1), (std::vector<std::uint64_t>{16}));  // LP 1's ran safe
  pe_.fossil_collect(us(20));
  EXPECT_EQ(committed_values(0), (std::vector<std::uint64_t>{10, 15}));
  ASSERT_EQ(sink_.kept.size(), 3u);
}

// What ran ahead commits once the horizon passes it, without a GVT round, but never past the
// earliest pending event: that one may still send this rank something earlier.
TEST_F(SafeEventsTest, WhatRanAheadCommitsBelowTheHorizonAndTheEarliestPendingEvent) {
  pe_.set_safe_horizon(us(20));
  inject(ping_event(us(30), 1, 1, Ping{30, 0, 0}));
  EXPECT_EQ(run_all(), 1u);
  EXPECT_EQ(pe_.uncommitted(), 1u);
  inject(ping_event(us(35), 2, 2, Ping{35, 0, 0}));
  pe_.set_safe_horizon(us(50));
  pe_.commit_below_horizon(SimTime::max());
  EXPECT_EQ(pe_.committed_to(), us(35));
  EXPECT_EQ(committed_values(1), (std::vector<std::uint64_t>{30}));
  EXPECT_EQ(pe_.uncommitted(), 0u);
  EXPECT_EQ(run_all(), 1u);  // the 35 us event, below the horizon: safe
  EXPECT_EQ(pe_.local_stats().events_safe, 1u);
  EXPECT_EQ(committed_values(2), (std::vector<std::uint64_t>{35}));
}

TEST_F(SafeEventsTest, TheHorizonNeverMovesBack) {
  pe_.set_safe_horizon(us(20));
  pe_.set_safe_horizon(us(5));
  EXPECT_EQ(pe_.safe_horizon(), us(20));
}

// A rank contributes its earliest pending event plus the lookahead, or what waits unsent if
// that is earlier (an entry of an outgoing batch may be as early as GVT itself).
TEST_F(SafeEventsTest, TheHorizonContributionIsThePendingMinimumPlusLookaheadOrWhatIsUnsent) {
  EXPECT_EQ(pe_.local_horizon(), SimTime::max());    // nothing pending, nothing unsent
  inject(ping_event(us(10), 1, 0, Ping{10, 1, 4}));  // forwards once, to LP 4 on rank 1
  EXPECT_EQ(pe_.local_horizon(), us(10) + ns(500));
  run_all();
  // The forwarded ping waits in the outgoing batch; nothing is pending.
  const SimTime unsent = pe_.local_min();
  EXPECT_EQ(pe_.local_horizon(), unsent);
  EXPECT_GE(unsent, us(10) + ns(500));
  inject(ping_event(us(11), 2, 1, Ping{11, 0, 0}));
  EXPECT_EQ(pe_.local_horizon(), std::min(us(11) + ns(500), unsent));
}

class ConservativeTest : public SafeEventsTest {
 protected:
  ConservativeTest() : SafeEventsTest(SyncMode::conservative) {}
};

TEST_F(ConservativeTest, NothingPastTheHorizonRuns) {
  inject(ping_event(us(10), 1, 0, Ping{10, 0, 0}));
  inject(ping_event(us(30), 2, 1, Ping{30, 0, 0}));
  EXPECT_EQ(run_all(), 0u);  // no horizon yet
  pe_.set_safe_horizon(us(20));
  EXPECT_EQ(run_all(), 1u);
  EXPECT_EQ(pe_.local_min(), us(30));
  EXPECT_EQ(pe_.uncommitted(), 0u);
  pe_.set_safe_horizon(us(31));
  EXPECT_EQ(run_all(), 1u);
  EXPECT_EQ(pe_.local_stats().events_safe, 2u);
  EXPECT_EQ(committed_values(1), (std::vector<std::uint64_t>{30}));
}

// Between GVT rounds, the other rank's promise moves the horizon (Chandy-Misra-Bryant).
TEST_F(ConservativeTest, APromiseFromTheOtherRankMovesTheHorizon) {
  inject(ping_event(us(10), 1, 0, Ping{10, 0, 0}));
  inject(ping_event(us(30), 2, 1, Ping{30, 0, 0}));
  WireBatch promise;
  promise.add_promise(us(20), 1);
  exchange_.inbox.push_back(promise.take());
  pe_.poll_incoming();
  EXPECT_EQ(pe_.safe_horizon(), us(20));
  EXPECT_EQ(run_all(), 1u);
  EXPECT_EQ(pe_.local_min(), us(30));
}

// What a conservative rank promises as it flushes: its earliest pending event or its own
// horizon, whichever is earlier, plus the lookahead; and only when that has grown.
TEST_F(ConservativeTest, AFlushPromisesTheEarliestItMayStillSend) {
  inject(ping_event(us(10), 1, 0, Ping{10, 0, 0}));
  pe_.set_safe_horizon(us(8));
  const auto promises_sent = [&] {
    std::vector<SimTime> times;
    for (const auto& m : exchange_.sent)
      WireBatch::for_each(m.bytes, [&](WireKind kind, const Event& e) {
        if (kind == WireKind::promise) times.push_back(e.key.time);
      });
    return times;
  };
  pe_.flush_outgoing();
  EXPECT_EQ(promises_sent(), (std::vector<SimTime>{us(8) + ns(500)}));
  pe_.flush_outgoing();  // nothing new to promise: nothing sent
  EXPECT_EQ(promises_sent().size(), 1u);
  pe_.set_safe_horizon(us(40));
  pe_.flush_outgoing();
  EXPECT_EQ(promises_sent(), (std::vector<SimTime>{us(8) + ns(500), us(10) + ns(500)}));
}

// Partitions as threads: promises go through shared memory, not in messages.
class SharedPromiseTest : public SafeEventsTest {
 protected:
  SharedPromiseTest() : SafeEventsTest(SyncMode::conservative, ns(500), true) {}
};

TEST_F(SharedPromiseTest, AFlushPublishesOncePerPromiseAndSendsNoPromiseMessage) {
  inject(ping_event(us(10), 1, 0, Ping{10, 0, 0}));
  pe_.set_safe_horizon(us(8));
  pe_.flush_outgoing();
  pe_.flush_outgoing();  // nothing new to promise
  EXPECT_TRUE(exchange_.sent.empty());
  EXPECT_EQ(exchange_.published, (std::vector<std::int64_t>{(us(8) + ns(500)).ps()}));
}

// Between flushes a partition publishes what still holds with its unsent batches: no later
// than their earliest entry, which a waiting partition has not received yet.
TEST_F(SharedPromiseTest, AnEarlyPromiseHoldsForWhatIsNotSentYet) {
  inject(ping_event(us(10), 1, 0, Ping{10, 1, 4}));  // forwards once, to LP 4 on rank 1
  inject(ping_event(us(20), 2, 1, Ping{20, 0, 0}));
  pe_.set_safe_horizon(us(15));
  EXPECT_EQ(run_all(), 1u);  // the forward waits in the batch for rank 1
  const SimTime unsent = pe_.local_min();
  ASSERT_LT(unsent, us(15) + ns(500));
  pe_.publish_promise_early();
  ASSERT_EQ(exchange_.published.size(), 1u);
  EXPECT_EQ(exchange_.published.back(), unsent.ps());
  pe_.flush_outgoing();  // the batch goes out: now the promise is the horizon's
  EXPECT_EQ(exchange_.sent.size(), 1u);
  EXPECT_EQ(exchange_.published.back(), (us(15) + ns(500)).ps());
  pe_.publish_promise_early();  // nothing new
  EXPECT_EQ(exchange_.published.size(), 2u);
  // Only for a partition that waits: nobody does, so nothing is published between flushes.
  exchange_.wanted = false;
  inject(ping_event(us(16), 3, 2, Ping{16, 0, 0}));
  pe_.set_safe_horizon(us(30));
  EXPECT_EQ(run_all(), 2u);
  pe_.publish_promise_early();
  EXPECT_EQ(exchange_.published.size(), 2u);
  exchange_.wanted = true;
  pe_.publish_promise_early();
  EXPECT_EQ(exchange_.published.size(), 3u);
}

// What another partition published moves the horizon once this one has taken its messages.
TEST_F(SharedPromiseTest, APublishedPromiseMovesTheHorizon) {
  inject(ping_event(us(10), 1, 0, Ping{10, 0, 0}));
  exchange_.board = {0, us(12).ps()};
  EXPECT_EQ(pe_.poll_incoming(), 0u);
  EXPECT_EQ(pe_.safe_horizon(), us(12));
  EXPECT_EQ(run_all(), 1u);
}

class OptimisticSyncTest : public SafeEventsTest {
 protected:
  OptimisticSyncTest() : SafeEventsTest(SyncMode::optimistic) {}
};

TEST_F(OptimisticSyncTest, NoEventRunsSafe) {
  inject(ping_event(us(10), 1, 0, Ping{10, 0, 0}));
  EXPECT_EQ(pe_.local_horizon(), SimTime::zero());
  pe_.set_safe_horizon(us(20));
  run_all();
  EXPECT_EQ(pe_.uncommitted(), 1u);
  EXPECT_EQ(pe_.local_stats().events_safe, 0u);
}

// A model that declares more lookahead than it keeps would let a rank commit an event that a
// message from another rank should have preceded: the run stops instead.
class OverstatedLookaheadTest : public SafeEventsTest {
 protected:
  OverstatedLookaheadTest() : SafeEventsTest(SyncMode::hybrid, us(5)) {}
};

TEST_F(OverstatedLookaheadTest, ASendToAnotherRankUnderTheLookaheadStopsTheRun) {
  inject(ping_event(us(10), 1, 0, Ping{10, 1, 4}));  // to LP 4 on rank 1, at most 1.5 us ahead
  EXPECT_DEATH(run_all(), "under the model's lookahead");
}

// On one rank nothing can come from another: every event runs safe, with the sequential
// kernel's digest and records.
TEST(SafeEventsOnOneRank, EveryEventRunsSafeWithTheSequentialDigest) {
  const ChainModel model(16, 3);
  KernelConfig config;
  config.end_time = us(40);
  KeepingSink reference;
  const RunResult a = run_sequential(model, config, &reference);
  EXPECT_EQ(a.stats.events_safe, a.stats.events_committed);
  auto exchange = make_local_exchange();
  for (const SyncMode mode : {SyncMode::hybrid, SyncMode::conservative}) {
    config = with_sync(mode);
    config.end_time = us(40);
    KeepingSink sink;
    const RunResult b = run_optimistic(model, config, *exchange, &sink);
    EXPECT_EQ(b.stats.digest, a.stats.digest);
    EXPECT_EQ(b.stats.events_safe, a.stats.events_committed);
    EXPECT_EQ(b.stats.peak_uncommitted, 0u);
    EXPECT_EQ(sink.kept.size(), reference.kept.size());
  }
}

}  // namespace
}  // namespace netwarp::engine
