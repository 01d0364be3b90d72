// FlowPattern from a packet-network workload; the checks every pattern passes, made while its
// senders' queues are built (grouped by sender, then sorted by order).
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "flow/sender_queues.hpp"
#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/validation/flow_pattern.hpp"

namespace netwarp::validation {

using netmodels::InputError;

FlowPattern pattern_from_workload(const netmodels::Workload& workload) {
  FlowPattern pattern;
  pattern.messages.reserve(workload.messages.size());
  std::unordered_map<netmodels::NodeId, std::uint64_t> sent_by;
  for (const netmodels::Message& m : workload.messages) {
    if (m.waits > 0)
      throw InputError("", fmt::format("message {} waits for {} other flow(s) to be delivered "
                                       "(after, gap_ns): the flow model cannot represent it",
                                       m.id, m.waits));
    PatternMessage p;
    p.sender = m.src;
    p.dest = m.dst;
    p.order = sent_by[m.src]++;
    p.bytes = m.bytes;
    p.not_before = m.start;
    p.after_previous = m.after_previous;
    pattern.messages.push_back(p);
  }
  return pattern;
}

void check_pattern(const FlowPattern& pattern, std::uint32_t host_count) {
  flow_detail::sender_queues(pattern, host_count);
}

namespace flow_detail {
namespace {

void check_message(const PatternMessage& m, std::size_t index, std::uint32_t host_count) {
  const std::string at = fmt::format("message {}", index);
  if (m.sender >= host_count || m.dest >= host_count)
    throw InputError(at, fmt::format("{} -> {}: hosts are 0..{}", m.sender, m.dest,
                                     host_count == 0 ? 0 : host_count - 1));
  if (m.sender == m.dest)
    throw InputError(at, fmt::format("sender and dest are both {}", m.sender));
  if (m.not_before < netmodels::SimTime::zero() || m.delay < netmodels::SimTime::zero())
    throw InputError(at, "start time and delay must be >= 0");
}

}  // namespace

std::vector<std::vector<std::uint32_t>> sender_queues(const FlowPattern& pattern,
                                                      std::uint32_t host_count) {
  std::vector<std::vector<std::uint32_t>> queues(host_count);
  const auto& messages = pattern.messages;
  for (std::uint32_t i = 0; i < messages.size(); ++i) {
    check_message(messages[i], i, host_count);
    queues[messages[i].sender].push_back(i);
  }
  const auto by_order = [&](std::uint32_t a, std::uint32_t b) {
    return messages[a].order < messages[b].order;
  };
  for (auto& queue : queues) {
    if (!std::is_sorted(queue.begin(), queue.end(), by_order))
      std::stable_sort(queue.begin(), queue.end(), by_order);
    const auto same = std::adjacent_find(queue.begin(), queue.end(), [&](auto a, auto b) {
      return messages[a].order == messages[b].order;
    });
    if (same != queue.end())
      throw InputError(
          fmt::format("message {}", std::max(same[0], same[1])),
          fmt::format("sender {} already has order {} (message {})", messages[*same].sender,
                      messages[*same].order, std::min(same[0], same[1])));
  }
  return queues;
}

}  // namespace flow_detail
}  // namespace netwarp::validation
