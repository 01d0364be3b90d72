// The senders' queues of a pattern: per host, the indices of the messages it sends, in
// ascending order. Building them checks the whole pattern (hosts in range, sender != dest,
// times >= 0, no order used twice by one sender) and throws netmodels::InputError naming the
// message ("message 12: ...").
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/validation/flow_pattern.hpp"

namespace netwarp::validation::flow_detail {

std::vector<std::vector<std::uint32_t>> sender_queues(const FlowPattern& pattern,
                                                      std::uint32_t host_count);

}  // namespace netwarp::validation::flow_detail
