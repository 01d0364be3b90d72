// PortInterval: an output port's running sums for the current sampling interval (queue
// maximum, time-weighted queue area, busy time, drops), advanced at every change of the
// occupancy and closed into a PortSample when a change falls in a later interval (a run of
// whole intervals without a change into one sample that counts them).
//
// Between two changes the occupancy is constant and the line serialises only the oldest
// scheduled packet (the FIFO's front, from its start on), so both sums are exact. An interval
// in which the port held nothing, sent nothing and dropped nothing gives no sample: idle spans
// are skipped in one step.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "netwarp/engine/state_visitor.hpp"
#include "netwarp/netmodels/records.hpp"

namespace netwarp::netmodels {

// Trivially copyable and padding-free: it lives in a Rev<> of the port.
struct PortInterval {
  std::int64_t index = -1;         // start = index * length; -1: no change yet
  std::int64_t integrated_ps = 0;  // the sums below cover [start, integrated_ps)
  std::uint64_t max_bytes = 0;
  std::int64_t busy_ps = 0;
  std::uint64_t packets_dropped = 0;
  std::uint64_t bytes_dropped = 0;
  double area_byte_ps = 0;  // integral of the occupancy, bytes x ps (a double: no overflow)

  // Eight-byte fields only: no padding, so the bytes say everything.
  void visit_bytes(engine::StateVisitor& v) const { v.bytes(this, sizeof *this); }
};
static_assert(sizeof(PortInterval) == 7 * 8);

// The port's occupancy since the last change, and when its line began serialising.
struct PortLevel {
  std::uint64_t bytes = 0;
  std::int64_t line_start_ps = kLineIdle;  // the FIFO front's start; kLineIdle: nothing scheduled
  static constexpr std::int64_t kLineIdle = std::numeric_limits<std::int64_t>::max();
};

inline bool is_active(const PortInterval& in) {
  return in.max_bytes != 0 || in.busy_ps != 0 || in.packets_dropped != 0;
}

inline void integrate(PortInterval& in, std::int64_t to_ps, const PortLevel& level) {
  const std::int64_t from = in.integrated_ps;
  in.area_byte_ps += static_cast<double>(level.bytes) * static_cast<double>(to_ps - from);
  if (level.line_start_ps != PortLevel::kLineIdle)
    in.busy_ps += std::max<std::int64_t>(0, to_ps - std::max(from, level.line_start_ps));
  in.integrated_ps = to_ps;
}

// `intervals` consecutive intervals alike, from `in`'s on (advance folds them into one sample).
inline PortSample to_sample(const PortInterval& in, std::int64_t length_ps, NodeId node,
                            PortIndex port, std::uint64_t intervals = 1) {
  PortSample s;
  s.interval_start_ps = in.index * length_ps;
  s.node = node;
  s.port = port;
  s.max_queue_bytes = in.max_bytes;
  s.mean_queue_bytes = static_cast<std::uint64_t>(in.area_byte_ps / static_cast<double>(length_ps));
  s.busy_ps = in.busy_ps;
  s.packets_dropped = in.packets_dropped;
  s.bytes_dropped = in.bytes_dropped;
  s.intervals = intervals;
  return s;
}

// The first interval from which the line's state stays as `level` says for whole intervals:
// serialising from its start on, or idle with data held (paused).
inline std::int64_t first_steady_interval(const PortLevel& level, std::int64_t from_index,
                                          std::int64_t length_ps) {
  if (level.line_start_ps == PortLevel::kLineIdle) return from_index;
  return std::max(from_index, (level.line_start_ps + length_ps - 1) / length_ps);
}

// Brings the sums up to `at_ps` (>= integrated_ps) with the occupancy constant at `level`,
// passing each interval it closes to `close(const PortInterval&, std::uint64_t intervals)` if it
// was active. Whole intervals in which nothing changes are alike (same maximum, mean, busy time,
// no drop): a run of them is closed once, with their count, so a port that holds one packet on
// a slow line for hours costs a sample or two, not one per interval.
template <class Close>
void advance(PortInterval& in, std::int64_t at_ps, const PortLevel& level, std::int64_t length_ps,
             Close&& close) {
  if (in.index < 0) in = PortInterval{at_ps / length_ps, at_ps, level.bytes, 0, 0, 0, 0};
  while (at_ps >= (in.index + 1) * length_ps) {
    const std::int64_t last = at_ps / length_ps;  // the interval at_ps falls in
    const bool is_fresh = in.integrated_ps == in.index * length_ps && in.max_bytes == level.bytes &&
                          in.busy_ps == 0 && in.packets_dropped == 0 && in.area_byte_ps == 0;
    const std::int64_t alike = last - in.index;  // whole intervals from in.index to last - 1
    if (level.bytes != 0 && is_fresh && alike >= 2 &&
        in.index >= first_steady_interval(level, in.index, length_ps)) {
      integrate(in, (in.index + 1) * length_ps, level);
      close(in, static_cast<std::uint64_t>(alike));
      in = PortInterval{last, last * length_ps, at_ps > last * length_ps ? level.bytes : 0, 0, 0, 0,
                        0};
      break;
    }
    const std::int64_t end = (in.index + 1) * length_ps;
    integrate(in, end, level);
    if (is_active(in)) close(in, 1);
    const bool is_idle = level.bytes == 0;  // nothing held: nothing happens until at_ps
    const std::int64_t next = is_idle ? at_ps / length_ps : in.index + 1;
    // A level that ends at the boundary itself belongs to the interval before.
    const std::uint64_t carried = at_ps > end ? level.bytes : 0;
    in = PortInterval{next, is_idle ? at_ps : end, carried, 0, 0, 0, 0};
  }
  integrate(in, at_ps, level);
}

// After every change of the occupancy (also decreases: one at an interval's start sets it).
inline void note_level(PortInterval& in, std::uint64_t bytes) {
  in.max_bytes = std::max(in.max_bytes, bytes);
}

}  // namespace netwarp::netmodels
