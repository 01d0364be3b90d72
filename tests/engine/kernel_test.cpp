// Both kernels on one rank: event order, end time, records, digests.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "engine/test_models.hpp"
#include "netwarp/phold/phold.hpp"

namespace netwarp::engine {
namespace {

struct Stamp {
  std::uint64_t from;
};
struct StampRecord {
  std::int64_t time_ps;
  std::uint32_t creator;
  std::uint32_t reserved;
  std::uint64_t counter;
};

// Every LP sends two events to LP 0 at the same instant; LP 0 records the order it saw.
class SameInstantLp {
 public:
  using Handles = EventSet<Stamp>;
  void init(InitCtx& ctx) {
    if (ctx.self() == 0) return;
    ctx.send(0, us(5), Stamp{ctx.self()});
    ctx.send(0, us(5), Stamp{ctx.self()});
  }
  void on(const Stamp&, EventCtx& ctx) {
    ctx.emit(StampRecord{ctx.key().time.ps(), ctx.key().creator, 0, ctx.key().counter});
  }
  void visit_state(StateVisitor&) const {}
};

class SameInstantModel final : public Model {
 public:
  LpId lp_count() const override { return 6; }
  std::unique_ptr<LpBase> create_lp(LpId) const override { return make_lp<SameInstantLp>(); }
};

class StampSink final : public RecordSink {
 public:
  void write(const CommittedRecord& r) override {
    if (r.holds<StampRecord>()) order.push_back(r.as<StampRecord>());
  }
  std::vector<StampRecord> order;
};

RunResult run_kind(const Model& model, KernelKind kind, SimTime end, RecordSink* sink = nullptr,
                   TieOrder ties = TieOrder::fifo, std::uint64_t seed = 1) {
  KernelConfig config;
  config.kind = kind;
  config.end_time = end;
  config.tie_order = ties;
  config.seed = seed;
  if (kind == KernelKind::sequential) return run_sequential(model, config, sink);
  auto exchange = make_local_exchange();
  return run_optimistic(model, config, *exchange, sink);
}

class BothKernels : public ::testing::TestWithParam<KernelKind> {};

TEST_P(BothKernels, BreakTiesAtTheSameInstantByCreatorThenCounterUnderCreatorOrder) {
  StampSink sink;
  run_kind(SameInstantModel(), GetParam(), us(10), &sink, TieOrder::creator);
  ASSERT_EQ(sink.order.size(), 10u);
  for (std::size_t i = 0; i < sink.order.size(); ++i) {
    EXPECT_EQ(sink.order[i].creator, 1 + i / 2);
    EXPECT_EQ(sink.order[i].counter, i % 2);
  }
}

// Under FIFO ties one creator's events of one instant stay together in send order, and which
// creator goes first is a seeded draw: over seeds every creator is sometimes first and sometimes
// last, so no host number wins every tie.
TEST_P(BothKernels, BreakSimultaneousSendsByASeededDrawNotByLpNumber) {
  std::map<std::uint32_t, int> first;
  std::map<std::uint32_t, int> last;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    StampSink sink;
    run_kind(SameInstantModel(), GetParam(), us(10), &sink, TieOrder::fifo, seed);
    ASSERT_EQ(sink.order.size(), 10u);
    for (std::size_t i = 0; i < sink.order.size(); i += 2) {
      EXPECT_EQ(sink.order[i].creator, sink.order[i + 1].creator);
      EXPECT_EQ(sink.order[i].counter + 1, sink.order[i + 1].counter);
    }
    ++first[sink.order.front().creator];
    ++last[sink.order.back().creator];
  }
  for (std::uint32_t creator = 1; creator <= 5; ++creator) {
    EXPECT_GT(first[creator], 0) << "creator " << creator << " never first";
    EXPECT_GT(last[creator], 0) << "creator " << creator << " never last";
  }
}

// LP 5 schedules its event at 0, LP 1 at 1 us, both for 5 us: the one scheduled earlier comes
// first whatever the LP numbers and the draw.
class EarlierSendLp {
 public:
  using Handles = EventSet<Stamp>;
  void init(InitCtx& ctx) {
    if (ctx.self() == 5) ctx.send(0, us(5), Stamp{5});
    if (ctx.self() == 1) ctx.send_self(us(1), Stamp{0});
  }
  void on(const Stamp& s, EventCtx& ctx) {
    if (ctx.self() == 1 && s.from == 0) {
      ctx.send(0, us(4), Stamp{1});
      return;
    }
    ctx.emit(StampRecord{ctx.key().time.ps(), ctx.key().creator, 0, ctx.key().counter});
  }
  void visit_state(StateVisitor&) const {}
};

class EarlierSendModel final : public Model {
 public:
  LpId lp_count() const override { return 6; }
  std::unique_ptr<LpBase> create_lp(LpId) const override { return make_lp<EarlierSendLp>(); }
};

TEST_P(BothKernels, HandleTheEventScheduledEarlierFirstAtOneInstant) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    StampSink fifo;
    run_kind(EarlierSendModel(), GetParam(), us(10), &fifo, TieOrder::fifo, seed);
    ASSERT_EQ(fifo.order.size(), 2u);
    EXPECT_EQ(fifo.order[0].time_ps, fifo.order[1].time_ps);
    EXPECT_EQ(fifo.order[0].creator, 5u);
    EXPECT_EQ(fifo.order[1].creator, 1u);
  }
  StampSink by_creator;
  run_kind(EarlierSendModel(), GetParam(), us(10), &by_creator, TieOrder::creator);
  ASSERT_EQ(by_creator.order.size(), 2u);
  EXPECT_EQ(by_creator.order[0].creator, 1u);
}

// Each LP but 0 relays a token through its own events after the given delays and then sends
// it to LP 0: the chain of scheduling times of what reaches LP 0 is the delays' running sums.
struct Hop {
  std::uint64_t step;
};
class RelayLp {
 public:
  using Handles = EventSet<Hop, Stamp>;
  explicit RelayLp(std::vector<SimTime> delays) : delays_(std::move(delays)) {}
  void init(InitCtx& ctx) {
    if (!delays_.empty()) ctx.send_self(delays_[0], Hop{1});
  }
  void on(const Hop& h, EventCtx& ctx) {
    if (h.step + 1 < delays_.size()) return ctx.send_self(delays_[h.step], Hop{h.step + 1});
    ctx.send(0, delays_[h.step], Stamp{ctx.self()});
  }
  void on(const Stamp&, EventCtx& ctx) {
    ctx.emit(StampRecord{ctx.key().time.ps(), ctx.key().creator, 0, ctx.key().counter});
  }
  void visit_state(StateVisitor&) const {}

 private:
  std::vector<SimTime> delays_;
};

class RelayModel final : public Model {
 public:
  RelayModel(std::vector<SimTime> one, std::vector<SimTime> two)
      : delays_{{}, std::move(one), std::move(two)} {}
  LpId lp_count() const override { return 3; }
  std::unique_ptr<LpBase> create_lp(LpId lp) const override {
    return make_lp<RelayLp>(delays_[lp]);
  }

 private:
  std::vector<std::vector<SimTime>> delays_;
};

std::vector<SimTime> us_list(std::initializer_list<int> values) {
  std::vector<SimTime> out;
  for (int v : values) out.push_back(us(v));
  return out;
}

// Under fifo_creator two tokens that reach LP 0 at one instant, sent at one instant by events
// scheduled at one instant, are ordered as ns-3 orders them: by when the events before were
// scheduled, as far back as the chains differ (runs of equal gaps, as a busy line's frames
// make, included), whichever LP is lower-numbered.
TEST_P(BothKernels, OrderOneInstantByTheWholeChainOfSchedulingTimesUnderFifoCreator) {
  struct Case {
    const char* what;
    std::vector<SimTime> earlier;  // the delays whose chain ns-3 runs first
    std::vector<SimTime> later;
  };
  const std::vector<Case> cases = {
      // chains 10, 8, 6, 1, 0 and 10, 8, 6, 3, 0 (us): the fourth level decides
      {"fourth level", us_list({1, 5, 2, 2, 2}), us_list({3, 3, 2, 2, 2})},
      // gaps 2, 2, 3, 5 and 2, 2, 2, 2, 4: the shorter run of 2 us, ended by a larger gap
      {"shorter run", us_list({5, 3, 2, 2, 2}), us_list({4, 2, 2, 2, 2, 2})},
      // gaps 2, 2, 2, 2, 1, 3 and 2, 2, 1, 7: the longer run, ended by a smaller gap
      {"longer run", us_list({3, 1, 2, 2, 2, 2, 2}), us_list({7, 1, 2, 2, 2})},
  };
  for (const Case& c : cases) {
    for (const bool earlier_on_two : {false, true}) {
      const RelayModel model =
          earlier_on_two ? RelayModel(c.later, c.earlier) : RelayModel(c.earlier, c.later);
      StampSink sink;
      run_kind(model, GetParam(), us(30), &sink, TieOrder::fifo_creator);
      ASSERT_EQ(sink.order.size(), 2u) << c.what;
      EXPECT_EQ(sink.order[0].time_ps, sink.order[1].time_ps) << c.what;
      EXPECT_EQ(sink.order[0].creator, earlier_on_two ? 2u : 1u) << c.what;
    }
  }
}

TEST_P(BothKernels, LeaveEventsAtOrAfterTheEndTimeUnprocessed) {
  StampSink sink;
  const RunResult at_end = run_kind(SameInstantModel(), GetParam(), us(5), &sink);
  EXPECT_EQ(at_end.stats.events_committed, 0u);
  EXPECT_TRUE(sink.order.empty());
  const RunResult past_end = run_kind(SameInstantModel(), GetParam(), us(5) + ps(1));
  EXPECT_EQ(past_end.stats.events_committed, 10u);
}

TEST_P(BothKernels, StopWhenNoEventsRemainWithoutAnEndTime) {
  StampSink sink;
  const RunResult r = run_kind(SameInstantModel(), GetParam(), SimTime::max(), &sink);
  EXPECT_EQ(r.stats.events_committed, 10u);
  EXPECT_EQ(sink.order.size(), 10u);
}

TEST_P(BothKernels, CommitRecordsInKeyOrderPerLp) {
  testing::KeepingSink sink;
  run_kind(testing::ChainModel(8, 4), GetParam(), us(50), &sink);
  ASSERT_GT(sink.kept.size(), 50u);
  std::map<LpId, EventKey> last;
  for (const auto& r : sink.kept) {
    auto it = last.find(r.lp);
    if (it != last.end()) {
      EXPECT_TRUE(it->second < r.key);
    }
    last[r.lp] = r.key;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, BothKernels,
                         ::testing::Values(KernelKind::sequential, KernelKind::optimistic),
                         [](const auto& p) { return std::string(kernel_name(p.param)); });

TEST(Kernels, SequentialAndOptimisticBreakSimultaneousSendsAlike) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    StampSink sequential;
    StampSink optimistic;
    run_kind(SameInstantModel(), KernelKind::sequential, us(10), &sequential, TieOrder::fifo, seed);
    run_kind(SameInstantModel(), KernelKind::optimistic, us(10), &optimistic, TieOrder::fifo, seed);
    ASSERT_EQ(sequential.order.size(), optimistic.order.size());
    for (std::size_t i = 0; i < sequential.order.size(); ++i)
      EXPECT_EQ(sequential.order[i].creator, optimistic.order[i].creator);
  }
}

TEST(Kernels, SequentialAndOptimisticGiveTheSameDigestAndRecords) {
  testing::KeepingSink sequential_sink;
  testing::KeepingSink optimistic_sink;
  const testing::ChainModel model(32, 3);
  const RunResult a = run_kind(model, KernelKind::sequential, us(40), &sequential_sink);
  const RunResult b = run_kind(model, KernelKind::optimistic, us(40), &optimistic_sink);
  EXPECT_EQ(a.stats.digest, b.stats.digest);
  EXPECT_EQ(a.stats.events_committed, b.stats.events_committed);
  ASSERT_EQ(sequential_sink.kept.size(), optimistic_sink.kept.size());
  auto by_lp_then_key = [](const testing::KeptRecord& x, const testing::KeptRecord& y) {
    return x.lp != y.lp ? x.lp < y.lp : x.key < y.key;
  };
  std::stable_sort(sequential_sink.kept.begin(), sequential_sink.kept.end(), by_lp_then_key);
  std::stable_sort(optimistic_sink.kept.begin(), optimistic_sink.kept.end(), by_lp_then_key);
  for (std::size_t i = 0; i < sequential_sink.kept.size(); ++i) {
    EXPECT_EQ(sequential_sink.kept[i].key, optimistic_sink.kept[i].key);
    EXPECT_EQ(sequential_sink.kept[i].record.sum_after, optimistic_sink.kept[i].record.sum_after);
  }
}

TEST(Kernels, DigestChangesWhenTheCommittedOutputChanges) {
  const RunResult a = run_kind(testing::ChainModel(8, 2), KernelKind::sequential, us(40));
  const RunResult b = run_kind(testing::ChainModel(8, 3), KernelKind::sequential, us(40));
  EXPECT_NE(a.stats.digest, b.stats.digest);
  EXPECT_EQ(a.stats.digest.size(), 16u);
}

TEST(Phold, SequentialAndOptimisticAgreeForEveryRemoteFraction) {
  for (double remote : {0.0, 0.1, 0.5, 1.0}) {
    phold::PholdConfig c;
    c.lps_per_rank = 64;
    c.remote = remote;
    c.end = 300;
    const phold::PholdModel model(c);
    const RunResult a = run_kind(model, KernelKind::sequential, SimTime::from_us(c.end));
    const RunResult b = run_kind(model, KernelKind::optimistic, SimTime::from_us(c.end));
    EXPECT_EQ(a.stats.digest, b.stats.digest) << "remote " << remote;
    EXPECT_EQ(a.stats.events_committed, b.stats.events_committed) << "remote " << remote;
  }
}

// One rank under tiny caps: the rank keeps stopping at them, and fossil collection commits
// behind entries it cannot commit yet; the records and digest stay the sequential kernel's.
TEST(Kernels, OptimisticOnOneRankUnderTinyCapsGivesTheSequentialRecords) {
  const testing::ChainModel model(16, 3);
  KernelConfig config;
  config.end_time = us(40);
  auto by_lp_then_key = [](const testing::KeptRecord& x, const testing::KeptRecord& y) {
    return x.lp != y.lp ? x.lp < y.lp : x.key < y.key;
  };
  testing::KeepingSink reference;
  const RunResult a = run_sequential(model, config, &reference);
  std::stable_sort(reference.kept.begin(), reference.kept.end(), by_lp_then_key);
  config.kind = KernelKind::optimistic;
  config.sync = SyncMode::optimistic;  // on one rank the others would run every event safe
  config.gvt_interval = 2;
  auto exchange = make_local_exchange();
  for (const auto& [events, bytes] :
       {std::pair<std::uint64_t, std::uint64_t>{1, 0}, {3, 0}, {0, 2048}}) {
    config.max_uncommitted = events;
    config.max_uncommitted_bytes = bytes;
    testing::KeepingSink sink;
    const RunResult b = run_optimistic(model, config, *exchange, &sink);
    EXPECT_EQ(b.stats.digest, a.stats.digest) << events << " events, " << bytes << " B";
    ASSERT_EQ(sink.kept.size(), reference.kept.size());
    std::stable_sort(sink.kept.begin(), sink.kept.end(), by_lp_then_key);
    for (std::size_t i = 0; i < sink.kept.size(); ++i) {
      EXPECT_EQ(sink.kept[i].key, reference.kept[i].key);
      EXPECT_EQ(sink.kept[i].record.sum_after, reference.kept[i].record.sum_after);
    }
    // Every LP's first ping falls at 1 us: at GVT's instant all 16 run, past the cap, no more.
    EXPECT_LE(b.stats.peak_uncommitted, 16u);
  }
}

TEST(Phold, CommitsAboutOneEventPerLpPerMeanDelay) {
  phold::PholdConfig c;
  c.lps_per_rank = 256;
  c.end = 1000;
  const RunResult r =
      run_kind(phold::PholdModel(c), KernelKind::sequential, SimTime::from_us(c.end));
  const double expected = 256.0 * c.end / c.mean;
  EXPECT_NEAR(static_cast<double>(r.stats.events_committed), expected, 0.02 * expected);
}

TEST(Phold, SeedChangesTheRun) {
  phold::PholdConfig c;
  c.lps_per_rank = 64;
  c.end = 200;
  const RunResult a = run_kind(phold::PholdModel(c), KernelKind::sequential, us(200));
  c.seed = 2;
  KernelConfig config;
  config.end_time = us(200);
  config.seed = 2;
  const RunResult b = run_sequential(phold::PholdModel(c), config);
  EXPECT_NE(a.stats.digest, b.stats.digest);
}

TEST(Phold, ValidationNamesTheBadField) {
  phold::PholdConfig c;
  EXPECT_EQ(phold::validate(c), "");
  c.mean = 0.05;
  EXPECT_EQ(phold::validate(c).rfind("mean:", 0), 0u);
  c = {};
  c.remote = 1.5;
  EXPECT_EQ(phold::validate(c).rfind("remote:", 0), 0u);
  c = {};
  c.lps_per_rank = 0;
  EXPECT_EQ(phold::validate(c).rfind("lps:", 0), 0u);
}

}  // namespace
}  // namespace netwarp::engine
