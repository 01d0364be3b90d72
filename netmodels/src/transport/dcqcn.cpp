// DCQCN reaction point: rate cuts, alpha, and the three increase stages (see dcqcn.hpp).
#include "netwarp/netmodels/dcqcn.hpp"

#include <algorithm>

namespace netwarp::netmodels {
namespace {

// One increase step (timer or byte counter).
void increase(DcqcnRate& r, const DcqcnConfig& c, std::uint64_t line_rate_bps) {
  const std::uint32_t f = c.fast_recovery_steps;
  const std::uint32_t most = std::max(r.timer_steps, r.byte_steps);
  const std::uint32_t least = std::min(r.timer_steps, r.byte_steps);
  if (least > f) {
    r.target_bps += static_cast<double>(least - f) * static_cast<double>(c.rhai_bps);
  } else if (most > f) {
    r.target_bps += static_cast<double>(c.rai_bps);
  }
  const double line = static_cast<double>(line_rate_bps);
  r.target_bps = std::min(r.target_bps, line);
  r.rate_bps = std::min((r.target_bps + r.rate_bps) / 2, line);
}

}  // namespace

DcqcnRate dcqcn_start(std::uint64_t line_rate_bps) {
  DcqcnRate r;
  r.rate_bps = static_cast<double>(line_rate_bps);
  r.target_bps = r.rate_bps;
  return r;
}

void dcqcn_on_cnp(DcqcnRate& r, const DcqcnConfig& c) {
  r.target_bps = r.rate_bps;
  r.rate_bps = std::max(r.rate_bps * (1 - r.alpha / 2), static_cast<double>(c.min_rate_bps));
  r.alpha = (1 - c.g) * r.alpha + c.g;
  r.bytes_counted = 0;
  r.timer_steps = 0;
  r.byte_steps = 0;
}

// One multiplication per period, as a timer event per period would (bit for bit), at a fraction
// of its cost. The loop stops where a multiplication no longer changes alpha: with a realistic g
// that is a subnormal above 0 (x (1 - g) rounds back to x), not 0, so without this test an
// idle stream's first CNP would loop once per period it was idle (10^6 per second at 1 us).
void dcqcn_decay_alpha(DcqcnRate& r, const DcqcnConfig& c, std::uint64_t periods) {
  for (; periods > 0; --periods) {
    const double next = r.alpha * (1 - c.g);
    if (next == r.alpha) return;
    r.alpha = next;
  }
}

void dcqcn_on_rate_timer(DcqcnRate& r, const DcqcnConfig& c, std::uint64_t line_rate_bps) {
  ++r.timer_steps;
  increase(r, c, line_rate_bps);
}

void dcqcn_on_sent(DcqcnRate& r, const DcqcnConfig& c, std::uint64_t bytes,
                   std::uint64_t line_rate_bps) {
  r.bytes_counted += bytes;
  if (r.bytes_counted < c.byte_counter_bytes) return;
  r.bytes_counted = 0;
  ++r.byte_steps;
  increase(r, c, line_rate_bps);
}

}  // namespace netwarp::netmodels
