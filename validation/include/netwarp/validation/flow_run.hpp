// run_mfs: the batch run of MFS (docs/models/flow-mfs.md, steps 1-8) on a FlowNetwork:
// every host sends its queue of messages, one active message at a time (blocking send: the next
// may go once the previous is fully sent), receivers take any number of flows at once, and each
// cycle advances time to the next event (a completion or a delayed start) at the solver's
// rates.
//
// Synchronised sends (option): the paper pairs a sender's queue with the receiving side, and a
// sender that sees a message in its queue waiting to be received does not send its next message
// until that message has been received. We read the queue as the node's program order of sends
// and receives, with `order` as the step: a host starts its message of order k only once every
// message sent to it with order < k has been fully received (an all-to-all of sendrecv steps).
// This cannot deadlock: the pending message of least order can always go.
//
// Start of a message: once its predecessor has been sent (after_previous), its start time has
// come and, when synchronised, its receives are done, it waits its delay (and, with
// route_latency, its route's propagation latency) and then flows until its last byte is sent.
// Without latency, sent and received are the same instant.
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/validation/flow_network.hpp"
#include "netwarp/validation/flow_pattern.hpp"
#include "netwarp/validation/flow_solver.hpp"

namespace netwarp::validation {

struct MfsOptions {
  FlowMode mode = FlowMode::fair_share;
  // The paper's Resolu: the least cycle length while flows are active (0: exact events). A flow
  // that would finish inside a longer cycle finishes at its end.
  double resolution_s = 0;
  bool synchronised_sends = false;
  // Start-up delay: each message waits its route's propagation latency (sum of the port
  // latencies) before sending. Off by default: MFS has no latency.
  bool route_latency = false;
};

struct MessageTiming {
  double start_s = 0;  // first byte flows
  double end_s = 0;    // last byte sent (= received)
  std::int64_t start_ps = 0;
  std::int64_t end_ps = 0;
};

struct MfsResult {
  std::vector<MessageTiming> messages;  // by pattern index
  double completion_s = 0;              // the last message's end (0 if none)
  std::int64_t completion_ps = 0;
  std::uint64_t cycles = 0;  // steps 1-8 rounds: time advances, including those of length 0
  FlowSolverStats solver;    // rate solves; Mode N rounds
  double wall_seconds = 0;   // this function's own run time (steady clock)
};

// Throws netmodels::InputError for a bad pattern (see check_pattern) and std::invalid_argument
// for a network without a topology.
MfsResult run_mfs(const FlowNetwork& network, const FlowPattern& pattern,
                  const MfsOptions& options);

}  // namespace netwarp::validation
