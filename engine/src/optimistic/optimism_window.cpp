// OptimismWindow: the adaptive optimism window: halved under rollbacks, grown by a quarter when
// they are rare (gently: doubling made a fat-tree all-to-all swing between too narrow and too
// wide, 8.7 % of its events rolled back against 2.8 % at the fixed window), doubled when
// nothing rolled back or the rank idled at its edge.
#include "optimism_window.hpp"

#include <algorithm>

namespace netwarp::engine {

OptimismWindow::OptimismWindow(SimTime initial, bool adaptive)
    : width_(initial),
      floor_(SimTime::from_ps(std::max<std::int64_t>(1, initial.ps() / kFloorDivisor))),
      ceiling_(initial.ps() > SimTime::max().ps() / kCeilingFactor
                   ? SimTime::max()
                   : SimTime::from_ps(initial.ps() * kCeilingFactor)),
      adaptive_(adaptive && initial < SimTime::max()),
      narrowest_(initial),
      widest_(initial) {}

void OptimismWindow::adapt(const Round& round) {
  if (!adaptive_) return;
  sample_.processed += round.processed;
  sample_.rolled_back += round.rolled_back;
  sample_.held_by_window = sample_.held_by_window || round.held_by_window;
  const bool idle_in_window = round.processed == 0 && round.held_by_window;
  if (sample_.processed < kSample && !idle_in_window) return;
  if (sample_.rolled_back * kShrinkDivisor > sample_.processed) {
    set_width(std::max(floor_, SimTime::from_ps(width_.ps() / 2)));
  } else if (idle_in_window || (sample_.held_by_window && sample_.rolled_back == 0)) {
    set_width(std::min(ceiling_, width_.saturating_add(width_)));
  } else if (sample_.held_by_window && sample_.rolled_back * kGrowDivisor <= sample_.processed) {
    set_width(std::min(ceiling_, width_.saturating_add(SimTime::from_ps(width_.ps() / 4 + 1))));
  }
  sample_ = Round{};
}

void OptimismWindow::set_width(SimTime width) {
  width_ = width;
  narrowest_ = std::min(narrowest_, width_);
  widest_ = std::max(widest_, width_);
}

}  // namespace netwarp::engine
