// The event order (EventKey: time, send time, tie draw, creator LP, the creator's counter) and
// the pending queue that pops its events in that order (comparing times inline and, on equal
// times, the keys in the event pool). Keys built with three fields have send time and draw
// zero, the order of TieOrder::creator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "core/pending_queue.hpp"
#include "netwarp/engine/event_key.hpp"

namespace netwarp::engine {
namespace {

// A queue with its own event pool: push(key) stores an event with that key.
class KeyQueue {
 public:
  KeyQueue() = default;
  explicit KeyQueue(PendingQueue::Layout layout) : queue_(pool_, layout) {}
  EventId push(const EventKey& key, LpId dest = kNoLp) {
    const EventId id = pool_.allocate();
    pool_[id].key = key;
    pool_[id].dest = dest;
    queue_.push(id);
    return id;
  }
  void pop() {
    const EventId id = queue_.top().id;
    queue_.pop();
    pool_.release(id);
  }
  // Pops the top lazily, as the kernels do: pushes made before settle() may take its slot.
  EventId take_top() {
    const EventId id = queue_.top().id;
    queue_.take_top();
    taken_ = id;
    return id;
  }
  void settle() {
    queue_.settle();
    pool_.release(taken_);
  }
  template <class Drop>
  void remove_if(Drop&& drop) {
    queue_.remove_if([&](const PendingQueue::Entry& e) { return drop(pool_[e.id].key); });
  }
  // The LPs whose objects prefetch_next asks for, in order.
  std::vector<LpId> prefetched_lps() const {
    std::vector<LpId> lps;
    static const int object = 0;
    queue_.prefetch_next([&](LpId lp) {
      lps.push_back(lp);
      return &object;
    });
    return lps;
  }
  bool is_split() const { return queue_.is_split(); }
  LpId top_dest() const { return pool_[queue_.top().id].dest; }
  bool empty() const { return queue_.empty(); }
  std::uint64_t spreads() const { return queue_.spreads(); }
  std::size_t capacity_bytes() const { return queue_.capacity_bytes(); }
  std::size_t heap_size() const { return queue_.heap_size(); }
  std::size_t size() const { return queue_.size(); }
  const PendingQueue::Entry& top() const { return queue_.top(); }
  EventKey top_key() const { return queue_.top_key(); }

 private:
  EventPool pool_;
  PendingQueue queue_{pool_};
  EventId taken_ = 0;
};

std::vector<EventKey> pop_all(KeyQueue& q) {
  std::vector<EventKey> keys;
  while (!q.empty()) {
    keys.push_back(q.top_key());
    q.pop();
  }
  return keys;
}

TEST(EventKey, OrdersByTimeBeforeCreatorAndCounter) {
  const EventKey early{ps(1), 9, 9};
  const EventKey late{ps(2), 0, 0};
  EXPECT_TRUE(early < late);
  EXPECT_FALSE(late < early);
  EXPECT_TRUE(late > early);
  EXPECT_TRUE(early <= late);
  EXPECT_FALSE(late <= early);
}

TEST(EventKey, BreaksTimeTiesBySendTimeThenDrawBeforeCreator) {
  const EventKey sent_early{us(3), us(1), 900, 7, 0};
  const EventKey sent_late{us(3), us(2), 1, 1, 0};
  EXPECT_TRUE(sent_early < sent_late);
  const EventKey low_draw{us(3), us(2), 5, 9, 0};
  const EventKey high_draw{us(3), us(2), 6, 1, 0};
  EXPECT_TRUE(low_draw < high_draw);
  EXPECT_FALSE(high_draw < low_draw);
}

TEST(EventKey, TieDrawsDependOnSeedCreatorAndSendTimeOnlyUnderFifo) {
  const TieFields a = tie_fields(TieOrder::fifo, 1, 3, us(2));
  EXPECT_EQ(a.sent, us(2));
  EXPECT_EQ(a.tie, tie_fields(TieOrder::fifo, 1, 3, us(2)).tie);
  EXPECT_NE(a.tie, tie_fields(TieOrder::fifo, 2, 3, us(2)).tie);
  EXPECT_NE(a.tie, tie_fields(TieOrder::fifo, 1, 4, us(2)).tie);
  EXPECT_NE(a.tie, tie_fields(TieOrder::fifo, 1, 3, us(2) + ps(1)).tie);
  const TieFields c = tie_fields(TieOrder::creator, 1, 3, us(2));
  EXPECT_EQ(c.sent, SimTime::zero());
  EXPECT_EQ(c.tie, 0u);
}

// The fields of an event sent at the last of `times` (ascending) by a chain of events, each
// scheduled at the time before it, the first by init (at 0).
TieFields fields_of_chain(const std::vector<SimTime>& times) {
  TieFields f = scheduled_by(TieFields{}, SimTime::zero());
  for (SimTime t : times) f = scheduled_by(f, t);
  return f;
}

// fifo_creator's fields never order two chains of scheduling times against ns-3's order (the
// lexicographic one, most recent first, an earlier time first), and they tell most apart.
TEST(EventKey, FifoCreatorFieldsFollowTheChainsLexicographicOrder) {
  std::mt19937_64 rng(11);
  std::vector<std::vector<SimTime>> chains;  // most recent first, then 0 (init)
  for (int i = 0; i < 400; ++i) {
    std::vector<SimTime> c{us(100)};
    const std::size_t levels = 1 + rng() % 7;
    for (std::size_t l = 0; l < levels; ++l) c.push_back(c.back() - us(1 + rng() % 3));
    c.push_back(SimTime::zero());
    chains.push_back(c);
  }
  std::size_t told_apart = 0;
  std::size_t different = 0;
  for (const auto& a : chains) {
    const TieFields fa = fields_of_chain({a.rbegin() + 1, a.rend()});
    for (const auto& b : chains) {
      if (a == b) continue;
      const TieFields fb = fields_of_chain({b.rbegin() + 1, b.rend()});
      ++different;
      if (a < b) {
        EXPECT_FALSE(fb < fa);
      }
      if (fa < fb || fb < fa) ++told_apart;
    }
  }
  EXPECT_GT(told_apart, different * 9 / 10);
}

TEST(EventKey, BreaksTimeTiesByCreatorBeforeCounter) {
  const EventKey low_creator{us(3), 1, 50};
  const EventKey high_creator{us(3), 2, 0};
  EXPECT_TRUE(low_creator < high_creator);
  EXPECT_FALSE(high_creator < low_creator);
}

TEST(EventKey, BreaksTimeAndCreatorTiesByCounter) {
  const EventKey first{us(3), 4, 6};
  const EventKey second{us(3), 4, 7};
  const EventKey far{us(3), 4, std::uint64_t{1} << 40};
  EXPECT_TRUE(first < second);
  EXPECT_FALSE(second < first);
  EXPECT_TRUE(second < far);
}

TEST(EventKey, IsNotLessThanAnEqualKey) {
  const EventKey a{us(3), 4, 6};
  const EventKey b{us(3), 4, 6};
  EXPECT_FALSE(a < b);
  EXPECT_FALSE(b < a);
  EXPECT_TRUE(a <= b);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, (EventKey{us(3), 4, 7}));
}

// tie_hint never orders two events of one instant against their keys, whatever the gap back to
// their send times (none, short, past 2^32 ps, negative) and the tie field; and it tells apart
// those whose send times or draws differ by a short gap.
TEST(EventKey, TieHintIsAPrefixOfTheKeyOrderAmongEventsOfOneInstant) {
  std::mt19937_64 rng(5);
  const SimTime at = ps(std::int64_t{1} << 40);
  const std::int64_t gaps[] = {
      0,  1, 2, 1'000'000, UINT32_MAX - 1, UINT32_MAX, UINT32_MAX + 1LL, std::int64_t{1} << 39,
      -1, -5};
  std::vector<EventKey> keys;
  for (int i = 0; i < 600; ++i) {
    const std::int64_t gap = gaps[rng() % std::size(gaps)];
    const auto tie = static_cast<std::uint32_t>(rng() % 3 == 0 ? rng() % 3 : rng());
    keys.push_back(EventKey{at, at - ps(gap), tie, rng() % 3, static_cast<LpId>(rng() % 4), 0});
  }
  std::size_t told_apart = 0;
  std::size_t short_gaps_differing = 0;
  for (const EventKey& a : keys) {
    for (const EventKey& b : keys) {
      if (tie_hint(a) < tie_hint(b)) {
        EXPECT_TRUE(a < b) << (at - a.sent).ps() << " " << a.tie << " / " << (at - b.sent).ps()
                           << " " << b.tie;
      }
      const auto gap_of = [&](const EventKey& k) { return (at - k.sent).ps(); };
      const bool short_gaps =
          gap_of(a) >= 0 && gap_of(b) >= 0 && gap_of(a) < UINT32_MAX && gap_of(b) < UINT32_MAX;
      if (short_gaps && (a.sent != b.sent || a.tie != b.tie)) {
        ++short_gaps_differing;
        if (tie_hint(a) != tie_hint(b)) ++told_apart;
      }
    }
  }
  EXPECT_GT(short_gaps_differing, 10'000u);
  EXPECT_EQ(told_apart, short_gaps_differing);
}

// Equal times whose hints are equal (long gaps, equal draws) fall back to the whole key.
TEST(PendingQueue, OrdersEventsOfOneInstantWithEqualHintsByTheirKeys) {
  std::mt19937_64 rng(8);
  KeyQueue q;
  std::vector<EventKey> keys;
  const SimTime at = ps(std::int64_t{1} << 45);
  for (int i = 0; i < 3000; ++i) {
    const std::int64_t gap =
        rng() % 2 == 0 ? std::int64_t{1} << (33 + rng() % 8) : static_cast<std::int64_t>(rng() % 3);
    const EventKey k{at,
                     at - ps(gap),
                     static_cast<std::uint32_t>(rng() % 2),
                     rng() % 2,
                     static_cast<LpId>(rng() % 5),
                     rng() % 3};
    keys.push_back(k);
    q.push(k);
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(pop_all(q), keys);
}

TEST(PendingQueue, PopsEarlierTimesFirstWhateverThePushOrder) {
  KeyQueue q;
  q.push(EventKey{us(5), 0, 0});
  q.push(EventKey{us(1), 7, 3});
  q.push(EventKey{us(3), 2, 1});
  EXPECT_EQ(pop_all(q), (std::vector<EventKey>{{us(1), 7, 3}, {us(3), 2, 1}, {us(5), 0, 0}}));
}

TEST(PendingQueue, BreaksSameTimeTiesByCreatorEvenAgainstTheCounter) {
  KeyQueue q;
  q.push(EventKey{us(2), 3, 0});
  q.push(EventKey{us(2), 1, 100});
  q.push(EventKey{us(2), 2, 50});
  EXPECT_EQ(pop_all(q), (std::vector<EventKey>{{us(2), 1, 100}, {us(2), 2, 50}, {us(2), 3, 0}}));
}

TEST(PendingQueue, BreaksSameTimeAndCreatorTiesByCounter) {
  KeyQueue q;
  const std::uint64_t big = std::uint64_t{1} << 33;  // above 32 bits: compared as 64-bit
  q.push(EventKey{us(2), 4, big + 1});
  q.push(EventKey{us(2), 4, 9});
  q.push(EventKey{us(2), 4, big});
  q.push(EventKey{us(2), 4, 0});
  EXPECT_EQ(pop_all(q), (std::vector<EventKey>{
                            {us(2), 4, 0}, {us(2), 4, 9}, {us(2), 4, big}, {us(2), 4, big + 1}}));
}

TEST(PendingQueue, TopCarriesTheFullKeyAndTheEventId) {
  KeyQueue q;
  const EventKey key{SimTime::from_ps(std::int64_t{1} << 50), 0xfffffffeu, ~std::uint64_t{0} - 1};
  const EventId later = q.push(EventKey{SimTime::max(), 0, 0});
  const EventId first = q.push(key);
  ASSERT_EQ(q.size(), 2u);
  EXPECT_EQ(q.top_key(), key);
  EXPECT_EQ(q.top().id, first);
  EXPECT_EQ(q.top().time_ps, key.time.ps());
  q.pop();
  EXPECT_EQ(q.top().id, later);
  EXPECT_TRUE(q.top_key().time.is_max());
}

TEST(PendingQueue, UnderFifoTiesPopsInFullKeyOrderWithRecomputedDraws) {
  std::mt19937_64 rng(3);
  KeyQueue q;
  std::vector<EventKey> keys;
  for (int i = 0; i < 5000; ++i) {
    const LpId creator = static_cast<LpId>(rng() % 8);
    const SimTime sent = ps(static_cast<std::int64_t>(rng() % 5));
    const EventKey k{sent + ps(static_cast<std::int64_t>(1 + rng() % 5)), sent,
                     tie_fields(TieOrder::fifo, 77, creator, sent).tie, creator, rng() % 4};
    keys.push_back(k);
    q.push(k);
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(pop_all(q), keys);
}

TEST(PendingQueue, PopsTenThousandRandomKeysInSortedOrder) {
  std::mt19937_64 rng(42);
  KeyQueue q;
  std::vector<EventKey> keys;
  std::map<EventId, EventKey> key_of;
  for (int i = 0; i < 10000; ++i) {
    const EventKey k{ps(static_cast<std::int64_t>(rng() % 50)), static_cast<LpId>(rng() % 6),
                     rng() % 20};  // many equal times; some fully equal keys
    keys.push_back(k);
    key_of[q.push(k)] = k;
  }
  std::sort(keys.begin(), keys.end());
  std::set<EventId> seen;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ASSERT_FALSE(q.empty());
    ASSERT_EQ(q.top_key(), keys[i]) << "pop " << i;
    ASSERT_EQ(key_of.at(q.top().id), keys[i]) << "id " << q.top().id << " lost its key";
    ASSERT_TRUE(seen.insert(q.top().id).second) << "id " << q.top().id << " popped twice";
    q.pop();
  }
  EXPECT_TRUE(q.empty());
}

TEST(PendingQueue, InterleavedPushesAndPopsAlwaysPopTheSmallestKey) {
  std::mt19937_64 rng(7);
  KeyQueue q;
  std::multiset<EventKey> model;
  for (int step = 0; step < 50000; ++step) {
    if (model.empty() || rng() % 5 < 3) {
      const EventKey k{ps(static_cast<std::int64_t>(rng() % 100)), static_cast<LpId>(rng() % 4),
                       rng() % 8};
      q.push(k);
      model.insert(k);
    } else {
      ASSERT_EQ(q.top_key(), *model.begin()) << "step " << step;
      q.pop();
      model.erase(model.begin());
    }
    ASSERT_EQ(q.size(), model.size());
  }
}

// Small layouts, so that a few thousand entries split the heap, fill the overflow and spread the
// ring again many times.
const PendingQueue::Layout kSmallLayouts[] = {
    {.split_size = 64, .per_bucket = 8, .buckets = 16},
    {.split_size = 64, .per_bucket = 8, .buckets = 1},
    {.split_size = 1, .per_bucket = 1, .buckets = 3},
    {.split_size = 300, .per_bucket = 50, .buckets = 4096},
};

// Times mostly in a crowd of a few instants, some spread far: ties inside buckets and a ring
// whose width the crowd would otherwise set.
EventKey clustered_key(std::mt19937_64& rng, std::int64_t base) {
  const std::int64_t offset = rng() % 4 == 0 ? static_cast<std::int64_t>(rng() % 1'000'000)
                                             : static_cast<std::int64_t>(rng() % 3) * 100;
  return EventKey{ps(base + offset), static_cast<LpId>(rng() % 6), rng() % 20};
}

TEST(PendingQueue, SplitByTimePopsInKeyOrderLikeOneHeap) {
  for (const PendingQueue::Layout& layout : kSmallLayouts) {
    std::mt19937_64 rng(11);
    KeyQueue q(layout);
    std::vector<EventKey> keys;
    for (int i = 0; i < 5000; ++i) keys.push_back(clustered_key(rng, 0));
    for (const EventKey& k : keys) q.push(k);
    ASSERT_EQ(q.size(), keys.size());
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(pop_all(q), keys) << "split " << layout.split_size;
  }
}

// The kernels' pattern: take the top, push what its handler sends (mostly later, sometimes
// earlier than the ring's start, as a rollback re-queues events), settle.
TEST(PendingQueue, SplitByTimeKeepsKeyOrderThroughHandlersAndRollbacks) {
  for (const PendingQueue::Layout& layout : kSmallLayouts) {
    std::mt19937_64 rng(5);
    KeyQueue q(layout);
    std::multiset<EventKey> model;
    std::uint64_t counter = 0;
    for (int i = 0; i < 2000; ++i) {
      const EventKey k = clustered_key(rng, 0);
      q.push(EventKey{k.time, k.creator, counter++});
      model.insert(EventKey{k.time, k.creator, counter - 1});
    }
    for (int step = 0; step < 30000 && !model.empty(); ++step) {
      ASSERT_EQ(q.top_key(), *model.begin()) << "split " << layout.split_size << ", step " << step;
      const SimTime now = q.top_key().time;
      q.take_top();
      model.erase(model.begin());
      const int sends = static_cast<int>(rng() % 3);  // none, one or two
      for (int n = 0; n < sends; ++n) {
        EventKey k = clustered_key(rng, now.ps() + 1);
        if (rng() % 50 == 0)  // a rollback: an event earlier than most of the queue
          k = EventKey{ps(std::max<std::int64_t>(0, now.ps() - 500)), k.creator, 0};
        k.counter = counter++;
        q.push(k);
        model.insert(k);
      }
      q.settle();
      ASSERT_EQ(q.size(), model.size()) << "step " << step;
    }
  }
}

TEST(PendingQueue, SplitByTimeRemovesMatchingEntriesWhereverTheyWait) {
  for (const PendingQueue::Layout& layout : kSmallLayouts) {
    std::mt19937_64 rng(3);
    KeyQueue q(layout);
    std::vector<EventKey> keys;
    for (int i = 0; i < 3000; ++i) keys.push_back(clustered_key(rng, 0));
    for (const EventKey& k : keys) q.push(k);
    std::sort(keys.begin(), keys.end());
    for (int i = 0; i < 100; ++i) q.pop();  // the split's first bucket is partly used
    keys.erase(keys.begin(), keys.begin() + 100);
    const auto odd = [](const EventKey& k) { return k.counter % 2 == 1; };
    q.remove_if(odd);
    std::erase_if(keys, odd);
    ASSERT_EQ(q.size(), keys.size());
    EXPECT_EQ(pop_all(q), keys) << "split " << layout.split_size;
  }
}

// Every host of a big network starts at time 0: a crowd of one instant fills the first bucket
// whole. It is split again only as it doubles, not at every push.
TEST(PendingQueue, ACrowdOfOneInstantIsNotSplitAtEveryPush) {
  KeyQueue q({.split_size = 64, .per_bucket = 8, .buckets = 16});
  std::vector<EventKey> keys;
  for (std::uint64_t i = 0; i < 20000; ++i)
    keys.push_back(EventKey{ps(0), static_cast<LpId>(i % 7), i});
  for (const EventKey& k : keys) q.push(k);
  EXPECT_LE(q.spreads(), 10u);  // at 64, 128, ..., 16384 entries: nine doublings
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(pop_all(q), keys);
}

// A network's queue holds a few far events (retransmission timers) among many near ones: when
// they are a tenth of the entries at the split, the ring's buckets are made as wide as they are
// far, and the near events stay in the heap. The heap is split again as it doubles, with what
// waits beyond it, until the ring's width follows the near ones.
TEST(PendingQueue, AHeapThatGrowsWhileSplitIsSplitAgain) {
  KeyQueue q({.split_size = 64, .per_bucket = 8, .buckets = 16});
  std::vector<EventKey> keys;
  std::uint64_t counter = 0;
  const auto push = [&](std::int64_t time) {
    keys.push_back(EventKey{ps(time), 0, counter++});
    q.push(keys.back());
  };
  for (std::int64_t i = 0; i < 16; ++i) push(1'000'000'000'000 + i);  // far: a quarter at 64
  for (std::int64_t i = 0; i < 48; ++i) push(i);
  ASSERT_TRUE(q.is_split());
  std::size_t largest = 0;
  for (std::int64_t i = 0; i < 5000; ++i) {
    push(48 + i);
    largest = std::max(largest, q.heap_size());
  }
  EXPECT_LT(largest, 400u);  // one heap until the far ones are under a tenth: 5,048 entries
  EXPECT_LE(q.spreads(), 20u);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(pop_all(q), keys);
}

// A used bucket's buffer waits for a later bucket, but only a few of them: a ring's worth of
// buffers held several times the entries a fat tree's queue ever had.
TEST(PendingQueue, KeepsFewBuffersOfUsedBuckets) {
  KeyQueue q({.split_size = 64, .per_bucket = 8, .buckets = 4096});
  std::mt19937_64 rng(9);
  for (std::uint64_t i = 0; i < 50000; ++i)
    q.push(EventKey{ps(static_cast<std::int64_t>(rng() % 10'000'000)), 0, i});
  ASSERT_TRUE(q.is_split());
  pop_all(q);
  EXPECT_LT(q.capacity_bytes(), std::size_t{200'000});  // 4,096 kept buffers: over 1 MB
}

// The kernels prefetch, while an event runs, what prefetch_next names: in a split queue that
// must include the next event whenever it comes from the heap; in a small one nothing.
TEST(PendingQueue, PrefetchesTheNextTopWhileSplitByTimeAndNothingOtherwise) {
  KeyQueue q({.split_size = 64, .per_bucket = 8, .buckets = 16});
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int64_t> time(0, 1000000);
  LpId next_lp = 0;
  const auto push_random = [&] {
    const LpId lp = next_lp++;
    q.push(EventKey{ps(time(rng)), 0, lp}, lp);
  };
  for (int i = 0; i < 40; ++i) push_random();
  ASSERT_FALSE(q.is_split());
  q.take_top();
  EXPECT_TRUE(q.prefetched_lps().empty());
  q.settle();

  for (int i = 0; i < 2000; ++i) push_random();
  ASSERT_TRUE(q.is_split());
  int checked = 0;
  while (!q.empty() && q.is_split()) {
    q.take_top();
    const std::vector<LpId> named = q.prefetched_lps();
    EXPECT_LE(named.size(), 4u);
    q.settle();
    if (named.empty() || q.empty()) continue;  // the next top comes from a bucket
    EXPECT_NE(std::find(named.begin(), named.end(), q.top_dest()), named.end())
        << "the next top's LP was not prefetched";
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace netwarp::engine
