// PostedReceives (hashed bucket heads, the rest ordered) against a linear scan of the posted
// queue in post order: random posts with wildcards, keys that do not pack into the hash key,
// out-of-order sequence numbers, random arrivals, undo to random marks; and its state bytes
// against the RevMap<MatchKey, recv op> that held the posted queue before.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "engine/reversible_harness.hpp"
#include "rank/match_queues.hpp"

namespace netwarp::mpiemul {
namespace {

using engine::EventCtx;
using engine::testing::Harness;
using engine::testing::state_bytes;

struct Posted {
  std::uint16_t comm;
  std::int32_t peer;
  std::int32_t tag;
  std::uint64_t seq;
  std::uint32_t recv_op;
};

// The reference: the earliest (smallest seq) posted receive that matches, by a full scan.
class LinearPosted {
 public:
  void post(const Posted& p) { list_.push_back(p); }
  std::optional<std::uint32_t> take(std::uint16_t comm, RankId src, std::int32_t tag) {
    auto best = list_.end();
    for (auto it = list_.begin(); it != list_.end(); ++it)
      if (receive_matches(it->peer, it->tag, it->comm, src, tag, comm) &&
          (best == list_.end() || it->seq < best->seq))
        best = it;
    if (best == list_.end()) return std::nullopt;
    const std::uint32_t op = best->recv_op;
    list_.erase(best);
    return op;
  }
  std::vector<std::pair<MatchKey, std::uint32_t>> sorted() const {
    std::vector<std::pair<MatchKey, std::uint32_t>> out;
    for (const Posted& p : list_)
      out.push_back({MatchKey{p.comm, 0, p.peer, p.tag, 0, p.seq}, p.recv_op});
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::vector<Posted> list_;
};

std::vector<std::byte> rev_map_bytes(const LinearPosted& reference) {
  Harness h;
  EventCtx ctx = h.unlogged_ctx();
  engine::RevMap<MatchKey, std::uint32_t> map;
  for (const auto& [key, op] : reference.sorted()) ctx.put(map, key, op);
  return state_bytes(map);
}

// Sources and tags: a few small ones (many receives per bucket), the wildcard, and values too
// large to pack (those buckets live only in the ordered map).
constexpr std::int32_t kBigSource = std::int32_t{1} << 25;
constexpr std::int32_t kBigTag = std::int32_t{1} << 26;

std::int32_t pick(std::mt19937_64& rng, std::int32_t big, bool wildcard) {
  const auto r = rng() % 10;
  if (r == 0 && wildcard) return -1;
  if (r == 1) return big;
  return static_cast<std::int32_t>(r % 3);
}

class PostedReceivesTest : public ::testing::Test {
 protected:
  // Posts one random receive to both; sequence numbers are unique but sometimes older than
  // what is already posted.
  void post_random(EventCtx& ctx) {
    Op op;
    op.kind = OpKind::recv;
    op.comm = static_cast<std::uint16_t>(rng_() % 2);
    op.peer = pick(rng_, kBigSource, true);
    op.tag = pick(rng_, kBigTag, true);
    const std::uint64_t seq = rng_() % 8 == 0 ? next_seq_ - 1000 - rng_() % 1000 : next_seq_;
    next_seq_ += 2;
    const auto recv_op = static_cast<std::uint32_t>(rng_());
    if (used_seqs_.insert(seq).second) {
      posted_.post(op, recv_op, seq, ctx);
      reference_.post({op.comm, op.peer, op.tag, seq, recv_op});
    }
  }
  void take_random(EventCtx& ctx) {
    const auto comm = static_cast<std::uint16_t>(rng_() % 2);
    const auto src = static_cast<RankId>(pick(rng_, kBigSource, false));
    const std::int32_t tag = pick(rng_, kBigTag, false);
    ASSERT_EQ(posted_.take(comm, src, tag, ctx), reference_.take(comm, src, tag))
        << "comm " << comm << " src " << src << " tag " << tag;
  }
  void expect_same() const {
    ASSERT_EQ(posted_.sorted_entries(), reference_.sorted());
    EXPECT_EQ(posted_.size(), reference_.sorted().size());
  }

  std::mt19937_64 rng_{15};
  std::uint64_t next_seq_ = 1u << 20;
  std::set<std::uint64_t> used_seqs_;
  PostedReceives posted_;
  LinearPosted reference_;
};

TEST_F(PostedReceivesTest, RandomPostsAndArrivalsTakeWhatALinearScanTakes) {
  Harness h;
  EventCtx ctx = h.unlogged_ctx();
  for (int i = 0; i < 20000; ++i) {
    if (rng_() % 2 == 0) {
      post_random(ctx);
    } else {
      take_random(ctx);
    }
    if (i % 997 == 0) expect_same();
  }
  expect_same();
  EXPECT_EQ(state_bytes(posted_.entries()), rev_map_bytes(reference_));
}

TEST_F(PostedReceivesTest, UndoRestoresEveryBucketAndTheWildcardCount) {
  Harness h;
  EventCtx ctx = h.ctx();
  for (int round = 0; round < 300; ++round) {
    const std::uint64_t mark = h.undo.mark();
    const auto before = posted_.sorted_entries();
    const std::int64_t wildcards = posted_.wildcards().get();
    const LinearPosted reference_before = reference_;
    const int steps = static_cast<int>(rng_() % 40);
    for (int i = 0; i < steps; ++i) {
      if (rng_() % 3 != 0) {
        post_random(ctx);
      } else {
        take_random(ctx);
      }
    }
    expect_same();
    if (rng_() % 2 == 0) {
      h.undo.undo_to(mark);
      reference_ = reference_before;
      ASSERT_EQ(posted_.sorted_entries(), before);
      ASSERT_EQ(posted_.wildcards().get(), wildcards);
    }
  }
  EXPECT_EQ(state_bytes(posted_.entries()), rev_map_bytes(reference_));
}

TEST(PostedReceives, BucketsPackOnlyWhenEveryFieldFits) {
  EXPECT_TRUE(PostedReceives::pack(MatchKey{65535, 0, -1, -1, 0, 0}).has_value());
  EXPECT_TRUE(PostedReceives::pack(MatchKey{0, 0, (1 << 24) - 2, (1 << 24) - 2, 0, 0}));
  EXPECT_FALSE(PostedReceives::pack(MatchKey{0, 0, (1 << 24) - 1, 0, 0, 0}));
  EXPECT_FALSE(PostedReceives::pack(MatchKey{0, 0, 0, (1 << 24) - 1, 0, 0}));
  EXPECT_FALSE(PostedReceives::pack(MatchKey{0, 0, 0, -2, 0, 0}));
  EXPECT_NE(PostedReceives::pack(MatchKey{1, 0, 0, 0, 0, 0}),
            PostedReceives::pack(MatchKey{0, 0, 0, 0, 0, 0}));
  EXPECT_NE(PostedReceives::pack(MatchKey{0, 0, 1, 0, 0, 0}),
            PostedReceives::pack(MatchKey{0, 0, 0, 1, 0, 0}));
}

TEST(PostedReceives, EmptyIndexVisitsAsAnEmptyRevMap) {
  PostedReceives posted;
  engine::RevMap<MatchKey, std::uint32_t> map;
  EXPECT_EQ(state_bytes(posted.entries()), state_bytes(map));
}

}  // namespace
}  // namespace netwarp::mpiemul
