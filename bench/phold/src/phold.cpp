// PHOLD LPs and model.
#include "netwarp/phold/phold.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace netwarp::phold {

using engine::EventCtx;
using engine::SimTime;

std::string validate(const PholdConfig& c) {
  if (c.lps_per_rank == 0) return "lps: must be at least 1";
  if (c.ranks < 1) return "ranks: must be at least 1";
  if (static_cast<std::uint64_t>(c.lps_per_rank) * static_cast<std::uint64_t>(c.ranks) >
      std::uint64_t{1} << 31)
    return "lps: too many LPs in all (at most 2^31)";
  if (!(c.remote >= 0 && c.remote <= 1))
    return fmt::format("remote: must be in [0, 1], got {}", c.remote);
  if (!(c.lookahead > 0)) return fmt::format("lookahead: must be > 0, got {}", c.lookahead);
  if (!(c.mean >= c.lookahead))
    return fmt::format("mean: must be >= lookahead ({}), got {}", c.lookahead, c.mean);
  if (!(c.end > 0 && c.end < 9e12))
    return fmt::format("end: must be in (0, 9e12) us, got {}", c.end);
  return {};
}

PholdLp::PholdLp(const PholdConfig& config, engine::LpId lp_count)
    : remote_(config.remote),
      lookahead_(SimTime::from_us(config.lookahead)),
      excess_mean_us_(config.mean - config.lookahead),
      lp_count_(lp_count) {}

SimTime PholdLp::draw_delay(engine::EventRng& rng) const {
  const double excess = excess_mean_us_ > 0 ? rng.exponential(excess_mean_us_) : 0.0;
  return std::max(lookahead_ + SimTime::from_us(excess), engine::ps(1));
}

void PholdLp::init(engine::InitCtx& ctx) {
  ctx.send_self(draw_delay(ctx.rng()), PholdMessage{0});
}

void PholdLp::on(const PholdMessage& message, EventCtx& ctx) {
  engine::EventRng& rng = ctx.rng();
  engine::LpId dest = ctx.self();
  if (rng.uniform() < remote_) dest = static_cast<engine::LpId>(rng.below(lp_count_));
  ctx.send(dest, draw_delay(rng), PholdMessage{message.hops + 1});
  ctx.add(received_, 1);
}

void PholdLp::visit_state(engine::StateVisitor& v) const {
  v("received", received_);
}

std::unique_ptr<engine::LpBase> PholdModel::create_lp(engine::LpId) const {
  return engine::make_lp<PholdLp>(config_, lp_count());
}

}  // namespace netwarp::phold
