// The engine's small containers: Ring (circular buffer) and Log, EventPool (ids and stable
// addresses), RecordBuffer (uncommitted records) and Hasher (the digest's streaming hash).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/event_pool.hpp"
#include "core/log.hpp"
#include "netwarp/engine/digest.hpp"
#include "netwarp/engine/record_buffer.hpp"

namespace netwarp::engine {
namespace {

// Log: a deque with absolute positions, appended at the back and reclaimed from the front.
TEST(Log, MatchesADequeUnderRandomPushesAndPopsWithPositionsKept) {
  std::mt19937_64 rng(7);
  Log<std::uint64_t> log;
  std::deque<std::uint64_t> shadow;
  std::uint64_t first = 0;  // position of shadow.front()
  for (int step = 0; step < 20000; ++step) {
    const auto action = rng() % 4;
    if (action < 2 || shadow.empty()) {
      const std::uint64_t value = rng();
      EXPECT_EQ(log.push_back(value), first + shadow.size());
      shadow.push_back(value);
    } else if (action == 2) {
      const std::size_t n = 1 + rng() % shadow.size();
      log.pop_front(n);
      shadow.erase(shadow.begin(), shadow.begin() + static_cast<std::ptrdiff_t>(n));
      first += n;
    } else {
      log.pop_back();
      shadow.pop_back();
    }
    ASSERT_EQ(log.begin(), first);
    ASSERT_EQ(log.end(), first + shadow.size());
    if (!shadow.empty()) {
      const std::size_t i = rng() % shadow.size();
      ASSERT_EQ(log[first + i], shadow[i]);
      ASSERT_TRUE(log.contains(first + i));
    }
    ASSERT_FALSE(log.contains(first + shadow.size()));
    if (first > 0) {
      ASSERT_FALSE(log.contains(first - 1));
    }
  }
}

TEST(Log, PositionsStayValidAfterPoppingTheFront) {
  Log<std::uint64_t> log;
  for (std::uint64_t i = 0; i < 1000; ++i) ASSERT_EQ(log.push_back(i * 10), i);
  for (int i = 0; i < 600; ++i) log.pop_front();
  EXPECT_EQ(log.begin(), 600u);
  EXPECT_EQ(log.end(), 1000u);
  EXPECT_FALSE(log.contains(599));
  EXPECT_TRUE(log.contains(600));
  EXPECT_FALSE(log.contains(1000));
  EXPECT_EQ(log[log.begin()], 6000u);
  EXPECT_EQ(log[999], 9990u);
  EXPECT_EQ(log.push_back(1), 1000u);
  log.pop_back();
  EXPECT_EQ(log.end(), 1000u);
}

TEST(EventPool, HandsOutDistinctIds) {
  EventPool pool;
  std::set<EventId> ids;
  for (int i = 0; i < 1000; ++i) ids.insert(pool.allocate());
  EXPECT_EQ(ids.size(), 1000u);
}

TEST(EventPool, ReusesReleasedIds) {
  EventPool pool;
  std::vector<EventId> ids;
  for (int i = 0; i < 300; ++i) ids.push_back(pool.allocate());  // more than one chunk
  pool.release(ids[5]);
  pool.release(ids[280]);
  const std::set<EventId> reused = {pool.allocate(), pool.allocate()};
  EXPECT_EQ(reused, (std::set<EventId>{ids[5], ids[280]}));
}

TEST(EventPool, KeepsAddressesAndContentsStableWhileItGrows) {
  EventPool pool;
  const EventId first = pool.allocate();
  Event* address = &pool[first];
  address->key = EventKey{us(9), 4, 77};
  address->dest = 12;
  std::vector<EventId> ids;
  for (int i = 0; i < 10000; ++i) {
    ids.push_back(pool.allocate());
    pool[ids.back()].dest = static_cast<LpId>(i);
  }
  EXPECT_EQ(&pool[first], address);
  EXPECT_EQ(pool[first].key, (EventKey{us(9), 4, 77}));
  EXPECT_EQ(pool[first].dest, 12u);
  std::set<const Event*> addresses;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    ASSERT_EQ(pool[ids[i]].dest, static_cast<LpId>(i));
    addresses.insert(&pool[ids[i]]);
  }
  EXPECT_EQ(addresses.size(), ids.size());
}

TEST(EventPool, CountsLiveAndPeakEvents) {
  EventPool pool;
  std::vector<EventId> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(pool.allocate());
  for (int i = 0; i < 3; ++i) pool.release(ids[static_cast<std::size_t>(i)]);
  EXPECT_EQ(pool.live(), 2u);
  EXPECT_EQ(pool.peak_live(), 5u);
  pool.allocate();
  EXPECT_EQ(pool.live(), 3u);
  EXPECT_EQ(pool.peak_live(), 5u);
  for (int i = 0; i < 4; ++i) pool.allocate();
  EXPECT_EQ(pool.live(), 7u);
  EXPECT_EQ(pool.peak_live(), 7u);
}

struct SmallRecord {
  std::uint8_t bytes[3];
};
struct WideRecord {
  std::uint64_t words[5];
};

struct Drained {
  PayloadTag tag;
  std::vector<std::byte> bytes;
  friend bool operator==(const Drained&, const Drained&) = default;
};

template <class R>
Drained drained(const R& record) {
  const auto* p = reinterpret_cast<const std::byte*>(&record);
  return Drained{tag_of<R>, std::vector<std::byte>(p, p + sizeof(R))};
}

std::vector<Drained> drain(RecordBuffer& buffer, std::uint64_t end_mark) {
  std::vector<Drained> out;
  buffer.drain_to(end_mark, [&](PayloadTag tag, std::span<const std::byte> bytes) {
    out.push_back(Drained{tag, std::vector<std::byte>(bytes.begin(), bytes.end())});
  });
  return out;
}

TEST(RecordBuffer, DrainsAppendedRecordsInOrderWithTheirTagsAndBytes) {
  RecordBuffer buffer;
  const SmallRecord a{{1, 2, 3}};
  const WideRecord b{{4, 5, 6, 7, 8}};
  const SmallRecord c{{9, 10, 11}};
  buffer.append(a);
  buffer.append(b);
  buffer.append(c);
  EXPECT_EQ(drain(buffer, buffer.mark()),
            (std::vector<Drained>{drained(a), drained(b), drained(c)}));
  EXPECT_EQ(drain(buffer, buffer.mark()), std::vector<Drained>{});
}

TEST(RecordBuffer, DrainToAMarkStopsThereAndKeepsTheRest) {
  RecordBuffer buffer;
  const WideRecord a{{1, 1, 1, 1, 1}};
  const WideRecord b{{2, 2, 2, 2, 2}};
  const WideRecord c{{3, 3, 3, 3, 3}};
  buffer.append(a);
  const std::uint64_t after_a = buffer.mark();
  buffer.append(b);
  EXPECT_EQ(drain(buffer, after_a), std::vector<Drained>{drained(a)});
  EXPECT_EQ(buffer.mark(), 2 * after_a);  // marks are absolute; b is as long as a
  buffer.append(c);
  EXPECT_EQ(drain(buffer, buffer.mark()), (std::vector<Drained>{drained(b), drained(c)}));
}

TEST(RecordBuffer, TruncateDropsTheRecordsAfterTheMark) {
  RecordBuffer buffer;
  const SmallRecord a{{1, 2, 3}};
  const SmallRecord b{{4, 5, 6}};
  buffer.append(a);
  const std::uint64_t mark = buffer.mark();
  buffer.append(b);
  buffer.append(b);
  buffer.truncate(mark);
  EXPECT_EQ(buffer.mark(), mark);
  buffer.append(b);
  EXPECT_EQ(drain(buffer, buffer.mark()), (std::vector<Drained>{drained(a), drained(b)}));
}

TEST(RecordBuffer, BytesSinceAreTheHeaderAndZeroPaddedRecord) {
  RecordBuffer buffer;
  const WideRecord ones{{~0ull, ~0ull, ~0ull, ~0ull, ~0ull}};
  buffer.append(ones);
  const std::uint64_t mark = buffer.mark();
  buffer.append(ones);
  drain(buffer, mark);    // the live records no longer start at the front of the storage
  buffer.truncate(mark);  // and the next record reuses bytes that held all ones
  buffer.append(SmallRecord{{7, 8, 9}});
  const std::span<const std::byte> bytes = buffer.bytes_since(mark);
  ASSERT_EQ(bytes.size(), 16u);  // tag, size, 3 bytes padded to 8
  PayloadTag tag;
  std::uint32_t size;
  std::memcpy(&tag, bytes.data(), 4);
  std::memcpy(&size, bytes.data() + 4, 4);
  EXPECT_EQ(tag, tag_of<SmallRecord>);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(bytes[8], std::byte{7});
  EXPECT_EQ(bytes[10], std::byte{9});
  for (std::size_t i = 11; i < 16; ++i) EXPECT_EQ(bytes[i], std::byte{0}) << i;
  EXPECT_EQ(buffer.bytes_since(buffer.mark()).size(), 0u);
}

TEST(RecordBuffer, DiscardToForgetsRecordsWithoutReadingThem) {
  RecordBuffer buffer;
  const SmallRecord a{{1, 2, 3}};
  const SmallRecord b{{4, 5, 6}};
  buffer.append(a);
  buffer.discard_to(buffer.mark());
  buffer.append(b);
  EXPECT_EQ(drain(buffer, buffer.mark()), std::vector<Drained>{drained(b)});
}

// Random appends, truncations and drains (well past the 4096-byte compaction point) against a
// plain list of (start mark, record).
TEST(RecordBuffer, MatchesAPlainListUnderRandomAppendsTruncatesAndDrains) {
  std::mt19937_64 rng(9);
  RecordBuffer buffer;
  std::deque<std::pair<std::uint64_t, Drained>> model;  // undrained records and their marks
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t op = rng() % 10;
    if (op < 6) {
      Drained r{static_cast<PayloadTag>(rng()), std::vector<std::byte>(rng() % 70)};
      for (auto& b : r.bytes) b = static_cast<std::byte>(rng());
      model.emplace_back(buffer.mark(), r);
      buffer.append_bytes(r.tag, r.bytes.data(), r.bytes.size());
    } else if (op < 7 && !model.empty()) {
      const std::size_t keep = rng() % model.size();
      buffer.truncate(model[keep].first);
      model.resize(keep);
    } else if (model.size() > 64 || rng() % 16 == 0) {  // keep a backlog most of the time
      const std::size_t n = rng() % (model.size() + 1);
      const std::uint64_t end = n == model.size() ? buffer.mark() : model[n].first;
      const std::vector<Drained> out = drain(buffer, end);
      ASSERT_EQ(out.size(), n) << "step " << step;
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i], model.front().second) << "step " << step << ", record " << i;
        model.pop_front();
      }
    }
  }
  const std::vector<Drained> rest = drain(buffer, buffer.mark());
  ASSERT_EQ(rest.size(), model.size());
  for (std::size_t i = 0; i < rest.size(); ++i) EXPECT_EQ(rest[i], model[i].second);
}

TEST(RecordBuffer, DrainingASlidingWindowKeepsTheBufferSmall) {
  RecordBuffer buffer;
  std::deque<std::uint64_t> window;  // start marks of the undrained records
  for (std::uint64_t i = 0; i < 20000; ++i) {
    window.push_back(buffer.mark());
    buffer.append(WideRecord{{i, i, i, i, i}});
    if (window.size() > 32) {  // commit the oldest; the buffer never empties
      window.pop_front();
      drain(buffer, window.front());
    }
  }
  EXPECT_LT(buffer.capacity_bytes(), std::size_t{64} << 10);
  const std::vector<Drained> rest = drain(buffer, buffer.mark());
  ASSERT_EQ(rest.size(), 32u);
  EXPECT_EQ(rest.back(), drained(WideRecord{{19999, 19999, 19999, 19999, 19999}}));
}

std::uint64_t hash_of(const std::vector<std::string>& parts, std::uint64_t seed = 1) {
  Hasher h(seed);
  for (const std::string& p : parts) h.add(p.data(), p.size());
  return h.finish();
}

TEST(Hasher, SameInputGivesTheSameHash) {
  EXPECT_EQ(hash_of({"switch", "port 3"}), hash_of({"switch", "port 3"}));
  Hasher a;
  Hasher b;
  a.add_value(std::uint64_t{42});
  b.add_value(std::uint64_t{42});
  EXPECT_EQ(a.finish(), b.finish());
}

TEST(Hasher, OrderOfAddsMatters) {
  EXPECT_NE(hash_of({"switch", "port 3"}), hash_of({"port 3", "switch"}));
  EXPECT_NE(hash_of({std::string(1, '\0'), std::string(2, '\0')}),
            hash_of({std::string(2, '\0'), std::string(1, '\0')}));
  Hasher a;
  Hasher b;
  a.add_value(std::uint64_t{1});
  a.add_value(std::uint64_t{2});
  b.add_value(std::uint64_t{2});
  b.add_value(std::uint64_t{1});
  EXPECT_NE(a.finish(), b.finish());
}

TEST(Hasher, SeedMatters) {
  EXPECT_NE(hash_of({"switch"}, 1), hash_of({"switch"}, 2));
  EXPECT_NE(Hasher(1).finish(), Hasher(2).finish());
}

TEST(Hasher, EveryByteAndTheLengthMatter) {
  const std::string base = "0123456789abcdefghijklmnopqrstuvwxyz!";  // 37 bytes: words and a tail
  std::set<std::uint64_t> hashes = {hash_of({base})};
  for (std::size_t i = 0; i < base.size(); ++i) {
    std::string changed = base;
    changed[i] = static_cast<char>(changed[i] ^ 1);
    hashes.insert(hash_of({changed}));
  }
  EXPECT_EQ(hashes.size(), base.size() + 1);
  EXPECT_NE(hash_of({std::string("ab")}), hash_of({std::string("ab\0", 3)}));
  EXPECT_NE(hash_of({std::string(8, '\0')}), hash_of({std::string(16, '\0')}));
  EXPECT_NE(hash_of({}), hash_of({std::string(1, '\0')}));
}

}  // namespace
}  // namespace netwarp::engine
