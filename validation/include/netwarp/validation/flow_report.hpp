// Outputs of an MFS run: the JSON summary with its per-message table, and the per-message CSV.
// Times appear as integer picoseconds (rounded) and as the model's raw double seconds.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>

#include "netwarp/validation/flow_pattern.hpp"
#include "netwarp/validation/flow_run.hpp"

namespace netwarp::validation {

// completion_time_ps/_s, mode, options, cycles, rate solves, Mode N rounds, run_time_s and
// "messages": one object per message (id, sender, dest, order, bytes, start/end in ps and s).
nlohmann::ordered_json mfs_result_json(const FlowPattern& pattern, const MfsOptions& options,
                                       const MfsResult& result);

// Header `id,sender,dest,order,bytes,start_ps,end_ps,start_s,end_s`, one row per message.
void write_mfs_messages_csv(std::ostream& out, const FlowPattern& pattern,
                            const MfsResult& result);

}  // namespace netwarp::validation
