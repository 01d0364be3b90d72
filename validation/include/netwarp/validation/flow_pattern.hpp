// FlowPattern: the messages an MFS run sends (the paper's pattern file, docs/models/flow-mfs.md):
// per message its sender, destination, order in the sender's queue, size and a
// delay before sending. Two sources:
// - a CSV pattern file with the header `sender,dest,order,bytes,delay_ns` (delay_ns may be
//   left out of the header or left empty: 0). Sender and dest are host ids of the topology.
//   Every message waits for its sender's previous one (blocking send).
// - a packet-network workload (netmodels::Workload, already placed on hosts): its messages keep
//   their meaning: one marked after_previous waits for the previous message of its host, the
//   others start at their start time on their own (so a host may then have several active).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/netmodels/units.hpp"
#include "netwarp/netmodels/workload.hpp"
#include "netwarp/validation/flow_network.hpp"

namespace netwarp::validation {

struct PatternMessage {
  netmodels::NodeId sender = 0;
  netmodels::NodeId dest = 0;
  std::uint64_t order = 0;  // position in the sender's queue: sent in ascending order
  std::uint64_t bytes = 0;
  // Computation before sending: counted from the instant the message could go (its
  // predecessor sent, its start time reached).
  netmodels::SimTime delay;
  netmodels::SimTime not_before;  // earliest start (workload start times; 0 in pattern files)
  bool after_previous = true;     // blocking send: wait for the sender's previous message
  std::uint32_t line = 0;         // the pattern file's line (from 1); 0: from a workload
};

struct FlowPattern {
  std::vector<PatternMessage> messages;  // a message's index is its id in results
};

// Reads a pattern file. Errors are netmodels::InputError with a one-line message starting
// `FILE:LINE: ` (lines from 1, the header is line 1): bad header, wrong field count, numbers,
// hosts out of range for `host_count`, sender == dest, an order used twice by one sender.
FlowPattern read_pattern_csv(const std::string& path, std::uint32_t host_count);

// The workload's messages in order, order = position among its sender's messages. InputError
// for a message that waits for other flows (`after`): the model cannot wait for a delivery.
FlowPattern pattern_from_workload(const netmodels::Workload& workload);

// Checks hosts against `host_count`, sender != dest and orders unique per sender; throws
// netmodels::InputError naming the message ("message 12: ...").
void check_pattern(const FlowPattern& pattern, std::uint32_t host_count);

}  // namespace netwarp::validation

namespace netwarp::validation {

// The simulated-time budget a packet run enforces (netmodels::kTimeBudgetPs), for the flow model:
// whenever a flow is active the flows together drain at least the slowest link's rate (each gets
// at least its share of its bottleneck), so the latest start, every delay, every route latency and
// all bytes at the slowest rate bound the completion. Past the budget: a FileInputError
// "SOURCE:LINE: bytes: ..." (or delay_ns) at the message with the largest such value, or for a
// workload (line 0) an InputError naming "SOURCE: message N".
void check_pattern_budget(const FlowPattern& pattern, const FlowNetwork& network,
                          const std::string& source);

}  // namespace netwarp::validation
