// The reverse check mode catches models that change state outside the reversible primitives,
// and passes models that do not.
#include <gtest/gtest.h>

#include "engine/test_models.hpp"
#include "netwarp/phold/phold.hpp"

namespace netwarp::engine {
namespace {

struct Tick {
  std::uint64_t n;
};
struct TickRecord {
  std::uint64_t seen;
};

// Writes a field it lists in visit_state without going through the context: rollback cannot
// restore it.
class SloppyLp {
 public:
  using Handles = EventSet<Tick>;
  void init(InitCtx& ctx) { ctx.send_self(us(1), Tick{0}); }
  void on(const Tick& t, EventCtx& ctx) {
    ctx.set(good_, good_.get() + 1);
    ++sloppy_;
    if (t.n < 3) ctx.send_self(us(1), Tick{t.n + 1});
  }
  void visit_state(StateVisitor& v) const {
    v("good", good_);
    v("sloppy", sloppy_);
  }

 private:
  Rev<std::uint64_t> good_;
  std::uint64_t sloppy_ = 0;
};

// Keeps a counter it does not list, and lets it steer where events go.
class HiddenSteeringLp {
 public:
  using Handles = EventSet<Tick>;
  void init(InitCtx& ctx) { ctx.send_self(us(1), Tick{0}); }
  void on(const Tick& t, EventCtx& ctx) {
    ++hidden_;
    if (t.n < 3) ctx.send_self(us(hidden_), Tick{t.n + 1});
  }
  void visit_state(StateVisitor&) const {}

 private:
  std::int64_t hidden_ = 0;
};

// Same, but the hidden counter only reaches its records.
class HiddenRecordLp {
 public:
  using Handles = EventSet<Tick>;
  void init(InitCtx& ctx) { ctx.send_self(us(1), Tick{0}); }
  void on(const Tick& t, EventCtx& ctx) {
    ctx.emit(TickRecord{++hidden_});
    if (t.n < 3) ctx.send_self(us(1), Tick{t.n + 1});
  }
  void visit_state(StateVisitor&) const {}

 private:
  std::uint64_t hidden_ = 0;
};

template <class Lp>
class OneLpModel final : public Model {
 public:
  LpId lp_count() const override { return 1; }
  std::unique_ptr<LpBase> create_lp(LpId) const override { return make_lp<Lp>(); }
};

std::string check_failure_of(const Model& model) {
  KernelConfig config;
  config.kind = KernelKind::optimistic;
  config.check_reverse = true;
  config.end_time = us(100);
  auto exchange = make_local_exchange();
  try {
    run_optimistic(model, config, *exchange);
  } catch (const ModelError& e) {
    return e.what();
  }
  return {};
}

TEST(ReverseCheck, NamesTheLpEventAndFieldThatRollbackDidNotRestore) {
  const std::string error = check_failure_of(OneLpModel<SloppyLp>());
  EXPECT_NE(error.find("LP 0"), std::string::npos) << error;
  EXPECT_NE(error.find("SloppyLp"), std::string::npos) << error;
  EXPECT_NE(error.find("t=1000000 ps"), std::string::npos) << error;
  EXPECT_NE(error.find("state after rollback differs from before the event in: sloppy"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find("good"), std::string::npos) << error;
}

TEST(ReverseCheck, CatchesHiddenStateThatChangesTheEventsSent) {
  const std::string error = check_failure_of(OneLpModel<HiddenSteeringLp>());
  EXPECT_NE(error.find("sent different events"), std::string::npos) << error;
}

TEST(ReverseCheck, CatchesHiddenStateThatChangesTheRecordsEmitted) {
  const std::string error = check_failure_of(OneLpModel<HiddenRecordLp>());
  EXPECT_NE(error.find("emitted different records"), std::string::npos) << error;
}

TEST(ReverseCheck, PassesModelsBuiltOnReversiblePrimitivesWithTheSequentialDigest) {
  const testing::ChainModel chain(16, 3);
  phold::PholdConfig phold_config;
  phold_config.lps_per_rank = 32;
  phold_config.remote = 0.5;
  const phold::PholdModel phold_model(phold_config);
  for (const Model* model :
       {static_cast<const Model*>(&chain), static_cast<const Model*>(&phold_model)}) {
    KernelConfig config;
    config.end_time = us(200);
    const RunResult reference = run_sequential(*model, config);
    config.kind = KernelKind::optimistic;
    config.check_reverse = true;
    auto exchange = make_local_exchange();
    const RunResult checked = run_optimistic(*model, config, *exchange);
    EXPECT_EQ(checked.stats.digest, reference.stats.digest);
    EXPECT_GT(checked.stats.events_committed, 100u);
  }
}

}  // namespace
}  // namespace netwarp::engine
