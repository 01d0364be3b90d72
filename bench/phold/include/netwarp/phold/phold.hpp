// PHOLD, the standard PDES benchmark, defined as in ROSS's phold so numbers compare: every LP
// starts with one event; on each event it sends one new event, to an LP drawn uniformly from
// all LPs with probability `remote` and to itself otherwise, after lookahead + Exp(mean -
// lookahead). One time unit is 1 us.
#pragma once

#include <cstdint>
#include <string>

#include "netwarp/engine/model.hpp"

namespace netwarp::phold {

struct PholdConfig {
  std::uint32_t lps_per_rank = 1024;
  int ranks = 1;  // the model has lps_per_rank * ranks LPs
  double remote = 0.1;
  double lookahead = 0.1;  // time units (us)
  double mean = 1.0;       // mean delay, lookahead included (us)
  double end = 20000;      // time units (us)
  std::uint64_t seed = 1;
};

// Checks ranges; returns an empty string when valid, else "field: reason".
std::string validate(const PholdConfig& config);

struct PholdMessage {
  std::uint64_t hops;  // how many events led to this one since the start
};

class PholdLp {
 public:
  using Handles = engine::EventSet<PholdMessage>;
  PholdLp(const PholdConfig& config, engine::LpId lp_count);

  void init(engine::InitCtx& ctx);
  void on(const PholdMessage& message, engine::EventCtx& ctx);
  void visit_state(engine::StateVisitor& v) const;

 private:
  engine::SimTime draw_delay(engine::EventRng& rng) const;

  const double remote_;
  const engine::SimTime lookahead_;
  const double excess_mean_us_;  // mean - lookahead
  const engine::LpId lp_count_;
  engine::RevCounter received_;
};

class PholdModel final : public engine::Model {
 public:
  explicit PholdModel(const PholdConfig& config) : config_(config) {}
  engine::LpId lp_count() const override { return config_.lps_per_rank * config_.ranks; }
  std::unique_ptr<engine::LpBase> create_lp(engine::LpId id) const override;
  // Every event goes at least `lookahead` ahead (draw_delay).
  engine::SimTime lookahead() const override { return engine::SimTime::from_us(config_.lookahead); }

 private:
  PholdConfig config_;
};

}  // namespace netwarp::phold
