// The memory a run of a scenario needs, estimated from the scenario alone, before anything is
// built: hosts, route tables, workload messages, packets a lossless transport queues at once
// (a window per host, netmodels::kLosslessWindowBytes, not whole messages), and MPI kernel
// operations, each at a per-item cost measured on typical runs. A run whose
// estimate passes the limit (`netwarp run --max-memory`) is refused instead of growing until
// the allocator fails minutes later.
#pragma once

#include <cstdint>
#include <string>

#include "netwarp/scenarios/proto/scenario.pb.h"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::scenarios {

struct MemoryEstimate {
  std::uint64_t bytes = 0;
  std::string largest_part;  // "4000000000 messages x 128 B": the term to reduce
};

// For a scenario that passed validation. Saturates instead of overflowing.
MemoryEstimate estimate_memory(const proto::Scenario& scenario);

// The same, with the files the scenario names counted too: the flows of workload.flows.csv_file
// (one per line) and the actions of the MPI trace (`trace_path` when given, as `netwarp run
// --trace` names it, else mpi.trace.path): lines of a TIT file or of a folder's files, action
// entries of a .pbtxt, a bound from the size of a .pb or of an OTF2 archive's event files. The
// files are only scanned, not parsed; one that cannot be read counts nothing (the builder
// reports it).
MemoryEstimate estimate_memory(const LoadedScenario& loaded, const std::string& trace_path);

}  // namespace netwarp::scenarios
