// OptimismWindow: how far past GVT one rank may handle events. Fixed, or adaptive: once the
// rounds since its last change have handled enough events to judge by, the width halves when
// the events rolled back exceed a share of those handled, and grows by a quarter when rollbacks
// were rare and the window, not the caps, held the rank back (doubles when none were, and at
// once when the rank had nothing to do inside the window). Results never depend on the width (every
// kernel commits the same events in the same order); only how much work is redone and how often the
// ranks synchronise do.
#pragma once

#include <cstdint>

#include "netwarp/engine/sim_time.hpp"

namespace netwarp::engine {

class OptimismWindow {
 public:
  // What one rank saw between two GVT rounds.
  struct Round {
    std::uint64_t processed = 0;    // handler executions, re-executions included
    std::uint64_t rolled_back = 0;  // for any cause: stragglers, cancellations, the caps
    bool held_by_window = false;    // a batch stopped at an event past the window
  };

  // A rollback share above 1 / kShrinkDivisor halves the window; one of at most 1 /
  // kGrowDivisor, in rounds the window held the rank back, grows it by a quarter. (A fat-tree
  // all-to-all at 1/8 and 1/32 settled at 13 % of its events rolled back, against 1.3 % at the
  // fixed default window, for no fewer GVT rounds.)
  static constexpr std::uint64_t kShrinkDivisor = 16;
  static constexpr std::uint64_t kGrowDivisor = 64;
  // Events handled before a judgement: a few short rounds say little about the share.
  static constexpr std::uint64_t kSample = 1024;
  // The adaptive width stays within [initial / kFloorDivisor, initial x kCeilingFactor]. The
  // default window is 10 link latencies and a window under one (the lookahead) cannot stop
  // stragglers any better; a bounded ceiling, so a window grown through a quiet phase shrinks
  // back in a few rounds.
  static constexpr std::int64_t kFloorDivisor = 8;
  static constexpr std::int64_t kCeilingFactor = 4096;

  // An unbounded initial width (SimTime::max()) stays unbounded: there is nothing to adapt.
  OptimismWindow(SimTime initial, bool adaptive);

  SimTime width() const { return width_; }
  SimTime limit(SimTime gvt) const { return gvt.saturating_add(width_); }
  bool is_adaptive() const { return adaptive_; }
  void adapt(const Round& round);
  // The narrowest and widest width used so far.
  SimTime narrowest() const { return narrowest_; }
  SimTime widest() const { return widest_; }

 private:
  void set_width(SimTime width);

  Round sample_;  // the rounds since the width last changed
  SimTime width_;
  SimTime floor_;
  SimTime ceiling_;
  bool adaptive_;
  SimTime narrowest_;
  SimTime widest_;
};

}  // namespace netwarp::engine
