// LogGPS call times split into overhead, send wait, receive wait and synchronisation
// (loggps_breakdown.hpp documents the segments).
#include "netwarp/validation/loggps_breakdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace netwarp::validation {

namespace loggps {

std::vector<CallSegment> send_segments(const LogGpsParams& p, std::uint64_t k, double tr_minus_ts) {
  if (k <= p.S) return {{CallPart::overhead, t1(p, k)}};
  return {
      {CallPart::overhead, p.o},
      {CallPart::sync, p.L},
      {CallPart::send_wait, std::max(tr_minus_ts - (p.o + p.L), 0.0)},
      {CallPart::sync, p.o + p.o + p.L},
      {CallPart::overhead, p.o},
      {CallPart::overhead, t1_long(p, k)},
  };
}

std::vector<CallSegment> recv_segments(const LogGpsParams& p, std::uint64_t k, double tr_minus_ts) {
  switch (protocol(p, k)) {
    case LogGpsProtocol::short_msg:
      return {{CallPart::recv_wait, std::max(t1(p, k) + t2(p, k) - tr_minus_ts, 0.0)},
              {CallPart::overhead, t3(p, k)}};
    case LogGpsProtocol::eager:
      return {{CallPart::recv_wait, std::max(t1(p, k) + t2_long(p, k) - tr_minus_ts, 0.0)},
              {CallPart::overhead, t3(p, k)}};
    case LogGpsProtocol::rendezvous:
      break;
  }
  return {
      {CallPart::recv_wait, std::max(p.o + p.L - tr_minus_ts, 0.0)},
      {CallPart::overhead, p.o + p.o},
      {CallPart::sync, p.L + p.o + t1_long(p, k) + t2_long(p, k)},
      {CallPart::overhead, t3_long(p, k)},
  };
}

namespace {

double& part_of(CallSplit& split, CallPart part) {
  switch (part) {
    case CallPart::overhead:
      return split.overhead;
    case CallPart::send_wait:
      return split.send_wait;
    case CallPart::recv_wait:
      return split.recv_wait;
    case CallPart::sync:
      break;
  }
  return split.sync;
}

}  // namespace

CallSplit split_of(const std::vector<CallSegment>& segments) {
  CallSplit split;
  for (const CallSegment& segment : segments) part_of(split, segment.part) += segment.ns;
  return split;
}

CallSplit wait_split(const LogGpsParams& p, const std::vector<CallSegment>& blocking,
                     double elapsed) {
  const CallSplit whole = split_of(blocking);
  if (whole.total() - elapsed <= p.o) return CallSplit{.overhead = p.o};
  CallSplit tail;
  double start = 0;  // where the current segment starts in the blocking call
  for (const CallSegment& segment : blocking) {
    const double end = start + segment.ns;
    if (end > elapsed) part_of(tail, segment.part) += end - std::max(start, elapsed);
    start = end;
  }
  return tail;
}

}  // namespace loggps

CallSplitPs to_ps(const CallSplit& split) {
  std::array<std::int64_t, 4> parts{
      std::llround(split.overhead * 1000.0), std::llround(split.send_wait * 1000.0),
      std::llround(split.recv_wait * 1000.0), std::llround(split.sync * 1000.0)};
  const std::int64_t total = std::llround(split.total() * 1000.0);
  const std::int64_t sum = parts[0] + parts[1] + parts[2] + parts[3];
  *std::max_element(parts.begin(), parts.end()) += total - sum;
  return {parts[0], parts[1], parts[2], parts[3]};
}

PairTimes loggps_blocking_pair(const LogGpsParams& p, std::uint64_t k, double ts, double tr) {
  PairTimes times;
  times.send = loggps::split_of(loggps::send_segments(p, k, tr - ts));
  times.recv = loggps::split_of(loggps::recv_segments(p, k, tr - ts));
  times.send_end = ts + times.send.total();
  times.recv_end = tr + times.recv.total();
  return times;
}

namespace {

void check_wait_order(double ti, double tw) {
  if (tw < ti)
    throw std::invalid_argument(fmt::format(
        "loggps: MPI_Wait called at {} ns, before its request started at {} ns", tw, ti));
}

NonblockingTimes nonblocking(const LogGpsParams& p, const std::vector<CallSegment>& blocking,
                             double ti, double tw) {
  check_wait_order(ti, tw);
  NonblockingTimes times;
  times.start = CallSplit{.overhead = p.o};  // (6), (10)
  times.start_end = ti + times.start.total();
  times.wait = loggps::wait_split(p, blocking, tw - ti);  // (11)
  times.wait_end = tw + times.wait.total();
  return times;
}

}  // namespace

NonblockingTimes loggps_nonblocking_send(const LogGpsParams& p, std::uint64_t k, double ti,
                                         double tw, double tr) {
  return nonblocking(p, loggps::send_segments(p, k, tr - ti), ti, tw);
}

NonblockingTimes loggps_nonblocking_recv(const LogGpsParams& p, std::uint64_t k, double ti,
                                         double tw, double ts) {
  return nonblocking(p, loggps::recv_segments(p, k, ti - ts), ti, tw);
}

}  // namespace netwarp::validation
