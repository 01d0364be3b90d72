// Committed records of an MPI run: one per finished call, one per matched message, one per
// rank at the end. Outputs (timeline.json, calls.csv, results.json) come only from these.
#pragma once

#include <cstdint>
#include <type_traits>

#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul {

enum class Protocol : std::uint8_t { none, short_msg, eager, rendezvous, direct, mixed };
inline constexpr int kProtocolCount = 6;

// A finished call. duration = overhead + send_wait + recv_wait + sync + compute (compute is
// only non-zero for compute calls).
struct CallRecord {
  RankId rank = 0;
  std::uint32_t call = 0;  // index in the rank's program
  std::int64_t start_ps = 0;
  std::int64_t end_ps = 0;
  std::int64_t overhead_ps = 0;
  std::int64_t send_wait_ps = 0;
  std::int64_t recv_wait_ps = 0;
  std::int64_t sync_ps = 0;
  std::int64_t compute_ps = 0;
  std::uint64_t bytes = 0;
  std::int32_t peer = -1;
  std::int32_t tag = -1;
  CallKind kind = CallKind::compute;
  Protocol protocol = Protocol::none;
  std::uint8_t reserved[6] = {};
};
static_assert(std::has_unique_object_representations_v<CallRecord>);

// A message matched by its receiver.
struct MessageRecord {
  RankId src = 0;
  RankId dst = 0;
  std::uint64_t bytes = 0;
  std::int32_t tag = 0;
  std::uint32_t send_op = 0;  // op index in the sender's program
  std::uint32_t recv_op = 0;  // op index in the receiver's program
  std::uint16_t comm = 0;
  Protocol protocol = Protocol::none;
  std::uint8_t unexpected = 0;  // arrived (envelope) before its receive was posted
  std::int64_t matched_ps = 0;
};
static_assert(std::has_unique_object_representations_v<MessageRecord>);

// A rank at the end of the run.
struct RankSummary {
  RankId rank = 0;
  std::uint32_t host = 0;
  std::int64_t end_ps = -1;  // when its program finished; -1: it did not (stuck)
  std::uint32_t calls_done = 0;
  std::uint32_t stuck_op = 0;  // the op it is blocked in (when end_ps < 0)
  // Bounded unexpected-message buffer (LogGPS's open problem): eager sends that had to wait
  // for credit, and how long they waited in total.
  std::uint64_t throttled_sends = 0;
  std::int64_t throttle_wait_ps = 0;
  std::uint64_t unexpected_messages = 0;
  std::uint64_t unexpected_peak_bytes = 0;
  // Sender-side matching: direct writes that found their receive, and those that did not.
  std::uint64_t direct_hits = 0;
  std::uint64_t direct_misses = 0;
};
static_assert(std::has_unique_object_representations_v<RankSummary>);

}  // namespace netwarp::mpiemul
