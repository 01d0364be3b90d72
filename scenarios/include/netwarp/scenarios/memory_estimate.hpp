// The memory a run of a scenario needs, estimated from the scenario alone, before anything is
// built: hosts, route tables, workload messages, packets a lossless transport queues at once,
// and MPI kernel operations, each at a per-item cost measured on typical runs. A run whose
// estimate passes the limit (`netwarp run --max-memory`) is refused instead of growing until
// the allocator fails minutes later.
#pragma once

#include <cstdint>
#include <string>

#include "netwarp/scenarios/proto/scenario.pb.h"

namespace netwarp::scenarios {

struct MemoryEstimate {
  std::uint64_t bytes = 0;
  std::string largest_part;  // "4000000000 messages x 128 B": the term to reduce
};

// For a scenario that passed validation. Saturates instead of overflowing.
MemoryEstimate estimate_memory(const proto::Scenario& scenario);

}  // namespace netwarp::scenarios
