// An event asked for at or past SimTime::max() (a model's time saturated there) is refused with
// SimTimeOverflow in both kernels, instead of wrapping to a negative time that only a failed
// internal check would catch.
#include <gtest/gtest.h>

#include "netwarp/engine/kernel.hpp"
#include "netwarp/engine/model.hpp"

namespace netwarp::engine {
namespace {

struct Tick {
  std::uint64_t count;
};

// At its first event, asks for the next one `delay` later.
class FarLp {
 public:
  using Handles = EventSet<Tick>;
  explicit FarLp(SimTime delay) : delay_(delay) {}
  void init(InitCtx& ctx) { ctx.send_self(us(5), Tick{0}); }
  void on(const Tick& tick, EventCtx& ctx) {
    if (tick.count == 0) ctx.send_self(delay_, Tick{1});
  }
  void visit_state(StateVisitor&) const {}

 private:
  SimTime delay_;
};

class FarModel final : public Model {
 public:
  explicit FarModel(SimTime delay) : delay_(delay) {}
  LpId lp_count() const override { return 1; }
  std::unique_ptr<LpBase> create_lp(LpId) const override { return make_lp<FarLp>(delay_); }

 private:
  SimTime delay_;
};

RunResult run_kind(const Model& model, KernelKind kind) {
  KernelConfig config;
  config.kind = kind;
  if (kind == KernelKind::sequential) return run_sequential(model, config, nullptr);
  auto exchange = make_local_exchange();
  return run_optimistic(model, config, *exchange, nullptr);
}

class TimeOverflow : public ::testing::TestWithParam<KernelKind> {};

TEST_P(TimeOverflow, SaturatedDelayIsRefused) {
  EXPECT_THROW(run_kind(FarModel(SimTime::max()), GetParam()), SimTimeOverflow);
}

TEST_P(TimeOverflow, DelayThatWouldWrapIsRefused) {
  EXPECT_THROW(run_kind(FarModel(SimTime::from_ps(SimTime::max().ps() - us(1).ps())), GetParam()),
               SimTimeOverflow);
}

TEST_P(TimeOverflow, LongDelayBelowTheLimitRuns) {
  const RunResult r = run_kind(FarModel(seconds(1'000'000)), GetParam());
  EXPECT_EQ(r.stats.events_committed, 2u);
}

INSTANTIATE_TEST_SUITE_P(Kernels, TimeOverflow,
                         ::testing::Values(KernelKind::sequential, KernelKind::optimistic),
                         [](const auto& p) { return std::string(kernel_name(p.param)); });

}  // namespace
}  // namespace netwarp::engine
