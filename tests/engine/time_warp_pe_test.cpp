// TimeWarpPe driven by hand through a fake exchange: stragglers, anti-messages, cascades,
// fossil collection and the GVT guard, each checked against what must commit.
#include "optimistic/time_warp_pe.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "engine/test_models.hpp"
#include "optimistic/wire.hpp"

namespace netwarp::engine {
namespace {

using testing::ChainModel;
using testing::FakeExchange;
using testing::KeepingSink;
using testing::Ping;

// Rank 0 of 2 owns LPs 0-3; LPs 4-7 live on the (fake) rank 1.
class TimeWarpPeTest : public ::testing::Test {
 protected:
  explicit TimeWarpPeTest(KernelConfig config = {})
      : config_(std::move(config)),
        model_(8, 0),
        exchange_(2),
        pe_(model_, config_, exchange_, &sink_) {
    pe_.init_lps();
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
  void inject_anti(const Event& e) {
    WireBatch batch;
    batch.add_anti(e.key, e.dest);
    exchange_.inbox.push_back(batch.take());
    pe_.poll_incoming();
  }
  void run_all() { pe_.process_batch(1000, SimTime::max()); }
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

TEST_F(TimeWarpPeTest, StragglerRollsBackLaterEventsAndReexecutesThemInKeyOrder) {
  inject(ping_event(us(10), 1, 0, Ping{1, 0, 0}));
  inject(ping_event(us(20), 2, 0, Ping{2, 0, 0}));
  run_all();
  inject(ping_event(us(5), 3, 0, Ping{4, 0, 0}));  // straggler
  run_all();
  pe_.fossil_collect(us(100));

  ASSERT_EQ(sink_.kept.size(), 3u);
  EXPECT_EQ(committed_values(0), (std::vector<std::uint64_t>{4, 1, 2}));
  EXPECT_EQ(sink_.kept[0].record.sum_after, 4);
  EXPECT_EQ(sink_.kept[1].record.sum_after, 5);
  EXPECT_EQ(sink_.kept[2].record.sum_after, 7);
  const RunStats s = pe_.local_stats();
  EXPECT_EQ(s.events_rolled_back, 2u);
  EXPECT_EQ(s.rolled_back_primary, 2u);
  EXPECT_EQ(s.events_processed, 5u);
  EXPECT_EQ(s.events_committed, 3u);
}

TEST_F(TimeWarpPeTest, AntiMessageCancelsAProcessedEventSoItsRecordsNeverCommit) {
  const Event kept = ping_event(us(10), 1, 0, Ping{1, 0, 0});
  const Event cancelled = ping_event(us(20), 2, 0, Ping{2, 0, 0});
  inject(kept);
  inject(cancelled);
  run_all();
  inject_anti(cancelled);
  run_all();
  pe_.fossil_collect(us(100));

  EXPECT_EQ(committed_values(0), (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(pe_.local_stats().events_committed, 1u);
  EXPECT_EQ(pe_.local_stats().events_rolled_back, 1u);
}

TEST_F(TimeWarpPeTest, AntiMessageForAPendingEventDropsItUnprocessed) {
  const Event e = ping_event(us(10), 1, 0, Ping{1, 0, 0});
  inject(e);
  inject_anti(e);
  run_all();
  pe_.fossil_collect(us(100));
  EXPECT_TRUE(sink_.kept.empty());
  EXPECT_EQ(pe_.local_stats().events_processed, 0u);
}

// Fails if a cancelled key drops every event that carries it. Which of the two equal keys the
// heap pops first is up to the heap; the arrival-order rule itself is pinned by the next test.
TEST_F(TimeWarpPeTest, AnEventReSentWithTheSameKeyAfterItsAntiMessageLives) {
  const Event first = ping_event(us(10), 1, 0, Ping{1, 0, 0});
  inject(first);
  inject_anti(first);
  inject(ping_event(us(10), 1, 0, Ping{2, 0, 0}));  // the sender ran again: same key
  run_all();
  pe_.fossil_collect(us(100));
  EXPECT_EQ(committed_values(0), (std::vector<std::uint64_t>{2}));
}

TEST_F(TimeWarpPeTest, RepeatedCancellationOfOneKeyKeepsOnlyTheLastEvent) {
  for (std::uint64_t value : {1, 2}) {
    const Event e = ping_event(us(10), 1, 0, Ping{value, 0, 0});
    inject(e);
    inject_anti(e);
  }
  inject(ping_event(us(10), 1, 0, Ping{3, 0, 0}));
  run_all();
  inject(ping_event(us(20), 2, 0, Ping{4, 0, 0}));
  run_all();
  pe_.fossil_collect(us(100));
  EXPECT_EQ(committed_values(0), (std::vector<std::uint64_t>{3, 4}));
}

TEST_F(TimeWarpPeTest, CancellingAnEventCancelsEverythingItCausedOnThisRank) {
  // LP 3 pings itself twice more (stride 0): three events in a causal chain.
  const Event root = ping_event(us(10), 1, 3, Ping{7, 2, 0});
  inject(root);
  run_all();
  EXPECT_EQ(pe_.local_stats().events_processed, 3u);
  inject_anti(root);
  EXPECT_EQ(pe_.local_min(), SimTime::max());  // children cancelled, nothing left to run
  run_all();
  pe_.fossil_collect(us(100));
  EXPECT_TRUE(committed_values(3).empty());
  EXPECT_EQ(pe_.local_stats().rolled_back_primary, 3u);
}

TEST_F(TimeWarpPeTest, CancellingAnEventSendsAntiMessagesForItsRemoteChildren) {
  // LP 2 forwards to LP 4 (stride 2), which lives on rank 1.
  const Event root = ping_event(us(10), 1, 2, Ping{7, 1, 2});
  inject(root);
  run_all();
  pe_.flush_outgoing();
  inject_anti(root);
  pe_.flush_outgoing();

  ASSERT_EQ(exchange_.sent.size(), 2u);
  std::vector<std::pair<WireKind, Event>> entries;
  for (const auto& m : exchange_.sent) {
    EXPECT_EQ(m.dest, 1);
    WireBatch::for_each(m.bytes, [&](WireKind k, const Event& e) { entries.emplace_back(k, e); });
  }
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].first, WireKind::positive);
  EXPECT_EQ(entries[1].first, WireKind::anti);
  EXPECT_EQ(entries[0].second.key, entries[1].second.key);
  EXPECT_EQ(entries[1].second.dest, 4u);
  EXPECT_EQ(pe_.local_stats().anti_messages_sent, 1u);
}

TEST_F(TimeWarpPeTest, LocalMinCountsRolledBackEventsAndSkipsCancelledOnes) {
  inject(ping_event(us(10), 1, 0, Ping{1, 0, 0}));
  inject(ping_event(us(20), 2, 0, Ping{2, 0, 0}));
  run_all();
  EXPECT_EQ(pe_.local_min(), SimTime::max());
  const Event straggler = ping_event(us(5), 3, 0, Ping{4, 0, 0});
  inject(straggler);
  EXPECT_EQ(pe_.local_min(), us(5));
  inject_anti(straggler);
  EXPECT_EQ(pe_.local_min(), us(10));
}

TEST_F(TimeWarpPeTest, LocalMinCountsEntriesWaitingInOutgoingBatches) {
  // LP 2 forwards to LP 4 (stride 2), which lives on rank 1: the child waits, unsent.
  const Event root = ping_event(us(10), 1, 2, Ping{7, 1, 2});
  inject(root);
  run_all();
  const SimTime unsent = pe_.local_min();
  EXPECT_GT(unsent, us(10));
  EXPECT_LT(unsent, SimTime::max());
  pe_.flush_outgoing();
  EXPECT_EQ(pe_.local_min(), SimTime::max());
  inject_anti(root);  // the anti-message for the child waits too, at the child's time
  EXPECT_EQ(pe_.local_min(), unsent);
  pe_.flush_outgoing();
  EXPECT_EQ(pe_.local_min(), SimTime::max());
}

TEST_F(TimeWarpPeTest, FossilCollectionCommitsOnlyEventsBeforeGvtInKeyOrderPerLp) {
  std::uint64_t counter = 0;
  for (int t : {50, 10, 30, 70, 20, 60, 40, 80, 15, 35}) {
    for (LpId lp = 0; lp < 4; ++lp)
      inject(ping_event(us(t), ++counter, lp, Ping{static_cast<std::uint64_t>(t), 0, 0}));
    run_all();  // process as they come, so later injections are stragglers
  }
  pe_.fossil_collect(us(40));
  for (const auto& r : sink_.kept) EXPECT_LT(r.key.time, us(40));
  EXPECT_EQ(sink_.kept.size(), 4u * 5u);  // 10, 15, 20, 30, 35 on each LP
  pe_.fossil_collect(us(1000));
  EXPECT_EQ(sink_.kept.size(), 4u * 10u);
  for (LpId lp = 0; lp < 4; ++lp) {
    EXPECT_EQ(committed_values(lp),
              (std::vector<std::uint64_t>{10, 15, 20, 30, 35, 40, 50, 60, 70, 80}));
  }
  EXPECT_GT(pe_.local_stats().events_rolled_back, 0u);
}

TEST_F(TimeWarpPeTest, AnEventArrivingBelowGvtStopsTheRun) {
  pe_.fossil_collect(us(50));
  WireBatch batch;
  batch.add_positive(ping_event(us(10), 1, 0, Ping{1, 0, 0}));
  exchange_.inbox.push_back(batch.take());
  EXPECT_DEATH(pe_.poll_incoming(), "below GVT");
}

KernelConfig capped(std::uint64_t events, std::uint64_t bytes) {
  KernelConfig config;
  config.max_uncommitted = events;
  config.max_uncommitted_bytes = bytes;
  return config;
}

// At most three handled events wait to be committed.
class ThreeEventCapTest : public TimeWarpPeTest {
 protected:
  ThreeEventCapTest() : TimeWarpPeTest(capped(3, 0)) {}
};

TEST_F(ThreeEventCapTest, ARankAtTheEventCapHandlesNothingUntilGvtCommitsSomething) {
  std::uint64_t counter = 0;
  for (int t : {10, 20, 30, 40, 50}) {
    ++counter;
    inject(ping_event(us(t), counter, static_cast<LpId>(counter % 4), Ping{1, 0, 0}));
  }
  run_all();
  EXPECT_EQ(pe_.local_stats().events_processed, 3u);
  EXPECT_EQ(pe_.uncommitted(), 3u);
  EXPECT_EQ(pe_.local_min(), us(40));
  pe_.fossil_collect(us(25));  // commits 10 and 20
  run_all();
  EXPECT_EQ(pe_.local_stats().events_processed, 5u);
  EXPECT_EQ(pe_.uncommitted(), 3u);
  EXPECT_EQ(pe_.local_stats().peak_uncommitted, 3u);
}

TEST_F(ThreeEventCapTest, AnEarlierEventAtTheCapRollsBackTheLatestWorkToMakeRoom) {
  inject(ping_event(us(10), 1, 0, Ping{10, 0, 0}));
  inject(ping_event(us(20), 2, 1, Ping{20, 0, 0}));
  inject(ping_event(us(30), 3, 2, Ping{30, 0, 0}));
  run_all();
  inject(ping_event(us(15), 4, 3, Ping{15, 0, 0}));  // no straggler for LP 3, yet earlier work
  run_all();
  const RunStats s = pe_.local_stats();
  EXPECT_EQ(s.rolled_back_for_memory, 1u);  // LP 2's event at 30 us
  EXPECT_EQ(s.events_rolled_back, 1u);
  EXPECT_EQ(pe_.uncommitted(), 3u);
  EXPECT_EQ(pe_.local_min(), us(30));
  pe_.fossil_collect(us(1000));
  run_all();
  pe_.fossil_collect(us(1000));
  EXPECT_EQ(committed_values(2), (std::vector<std::uint64_t>{30}));
  EXPECT_EQ(committed_values(3), (std::vector<std::uint64_t>{15}));
  EXPECT_EQ(pe_.local_stats().peak_uncommitted, 3u);
}

// 150,000 pending events hold more than 16 MiB: the default byte cap (16 MiB with 500
// uncommitted events allowed) counts only what optimism adds, so the rank runs ahead to the event
// cap; the same 16 MiB set explicitly counts the pending events and stops it at GVT.
class PendingBytesTest : public TimeWarpPeTest {
 protected:
  static constexpr std::uint64_t kEventCap = 500;
  static constexpr std::uint64_t kSixteenMiB = std::uint64_t{16} << 20;
  explicit PendingBytesTest(std::uint64_t bytes) : TimeWarpPeTest(capped(kEventCap, bytes)) {}
  void inject_many(std::uint64_t count) {
    WireBatch batch;
    for (std::uint64_t i = 0; i < count; ++i)
      batch.add_positive(ping_event(us(10) + SimTime::from_ps(static_cast<std::int64_t>(i)), i + 1,
                                    static_cast<LpId>(i % 4), Ping{1, 0, 0}));
    exchange_.inbox.push_back(batch.take());
    pe_.poll_incoming();
  }
};
class DefaultByteCapTest : public PendingBytesTest {
 protected:
  DefaultByteCapTest() : PendingBytesTest(0) {}
};
class ExplicitByteCapTest : public PendingBytesTest {
 protected:
  ExplicitByteCapTest() : PendingBytesTest(kSixteenMiB) {}
};

TEST_F(DefaultByteCapTest, TheModelsOwnPendingEventsDoNotStopTheRank) {
  ASSERT_EQ(effective_max_uncommitted_bytes(config_), kSixteenMiB);
  inject_many(150'000);
  ASSERT_GT(pe_.bytes_in_use(), kSixteenMiB);
  run_all();
  EXPECT_EQ(pe_.local_stats().events_processed, kEventCap);
  EXPECT_LT(pe_.capped_bytes(), kSixteenMiB);
}

TEST_F(ExplicitByteCapTest, ASetCapCountsThePendingEventsToo) {
  inject_many(150'000);
  ASSERT_GT(pe_.bytes_in_use(), kSixteenMiB);
  EXPECT_EQ(pe_.capped_bytes(), pe_.bytes_in_use());
  run_all();
  EXPECT_EQ(pe_.local_stats().events_processed, 0u);  // nothing at GVT's instant
}

TEST_F(ThreeEventCapTest, EventsAtGvtsInstantRunPastTheCap) {
  pe_.fossil_collect(us(10));
  for (std::uint64_t i = 0; i < 5; ++i) inject(ping_event(us(10), i + 1, i % 4, Ping{i, 0, 0}));
  inject(ping_event(us(20), 9, 0, Ping{9, 0, 0}));
  run_all();
  EXPECT_EQ(pe_.local_stats().events_processed, 5u);  // every event at 10 us, none later
  EXPECT_EQ(pe_.local_min(), us(20));
}

// Fossil collection commits events before GVT even when an entry it cannot commit comes first,
// and what it keeps still rolls back correctly from its new place in the logs.
TEST_F(ThreeEventCapTest, FossilCollectionCommitsPastAnEntryItCannotCommit) {
  inject(ping_event(us(50), 1, 0, Ping{50, 0, 0}));
  run_all();
  inject(ping_event(us(10), 2, 1, Ping{10, 0, 0}));
  inject(ping_event(us(60), 3, 0, Ping{60, 0, 0}));
  run_all();
  pe_.fossil_collect(us(20));  // LP 0's 50 us entry is first in the log and stays
  EXPECT_EQ(committed_values(1), (std::vector<std::uint64_t>{10}));
  EXPECT_EQ(pe_.uncommitted(), 2u);
  inject(ping_event(us(40), 4, 0, Ping{40, 0, 0}));  // straggler for LP 0: undoes 50 and 60
  run_all();
  EXPECT_EQ(pe_.local_stats().rolled_back_primary, 2u);
  pe_.fossil_collect(us(1000));
  EXPECT_EQ(committed_values(0), (std::vector<std::uint64_t>{40, 50, 60}));
  ASSERT_EQ(sink_.kept.size(), 4u);
  EXPECT_EQ(sink_.kept.back().record.sum_after, 150);  // 40 + 50 + 60: the undo log moved intact
  EXPECT_EQ(pe_.uncommitted(), 0u);
}

TEST_F(TimeWarpPeTest, AtTheByteCapOnlyEventsAtGvtsInstantRun) {
  KernelConfig config = capped(0, 1);
  KeepingSink sink;
  TimeWarpPe pe(model_, config, exchange_, &sink);
  pe.init_lps();
  WireBatch batch;
  batch.add_positive(ping_event(us(10), 1, 0, Ping{1, 0, 0}));
  batch.add_positive(ping_event(us(20), 2, 1, Ping{2, 0, 0}));
  exchange_.inbox.push_back(batch.take());
  pe.poll_incoming();
  pe.process_batch(100, SimTime::max());
  EXPECT_EQ(pe.local_stats().events_processed, 0u);
  pe.fossil_collect(us(10));
  pe.process_batch(100, SimTime::max());
  EXPECT_EQ(pe.local_stats().events_processed, 1u);
  EXPECT_EQ(pe.local_min(), us(20));
}

TEST_F(TimeWarpPeTest, CancelledEventsLeaveTheFutureEventSetWhenTheyAreMostOfIt) {
  for (std::uint64_t i = 1; i <= 2000; ++i) {
    const Event e = ping_event(us(100) + ps(static_cast<std::int64_t>(i)), i, i % 4, Ping{i, 0, 0});
    inject(e);
    inject_anti(e);
  }
  EXPECT_GT(pe_.bytes_in_use(), 2000 * sizeof(Event));
  pe_.fossil_collect(us(1));
  EXPECT_EQ(pe_.bytes_in_use(), 0u);
  EXPECT_EQ(pe_.local_min(), SimTime::max());
}

}  // namespace
}  // namespace netwarp::engine

namespace netwarp::engine {
namespace {

TEST(LogPositions, Short32RoundTripsAcrossThe32BitBoundary) {
  const std::uint64_t wrap = std::uint64_t{1} << 32;
  for (std::uint64_t reference : {std::uint64_t{100}, wrap - 1, wrap, wrap + 5, 7 * wrap + 3}) {
    for (std::uint64_t back : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{6},
                               std::uint64_t{1} << 20, (std::uint64_t{1} << 31) - 1}) {
      if (back > reference) continue;
      const std::uint64_t position = reference - back;
      EXPECT_EQ(expand32(short32(position), reference), position) << reference << " " << back;
    }
  }
}

}  // namespace
}  // namespace netwarp::engine
