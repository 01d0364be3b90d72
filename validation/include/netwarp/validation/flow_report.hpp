// Outputs of an MFS run: the JSON summary, the JSON file with its per-message table (one
// message per line), and the per-message CSV. Times appear as integer picoseconds (rounded)
// and as the model's raw double seconds.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>

#include "netwarp/validation/flow_pattern.hpp"
#include "netwarp/validation/flow_run.hpp"

namespace netwarp::validation {

// model, mode, completion_time_ps/_s, message_count, cycles, rate solves, Mode N rounds, the
// options, and run_time_s (the model's own wall-clock time).
nlohmann::ordered_json mfs_summary_json(const MfsOptions& options, const MfsResult& result,
                                        std::size_t message_count);

// id, sender, dest, order, bytes, start_ps, end_ps, start_s, end_s.
nlohmann::ordered_json mfs_message_json(std::size_t id, const PatternMessage& message,
                                        const MessageTiming& timing);

// `summary` (any object) with a "messages" array appended, one compact object per line.
void write_mfs_json(std::ostream& out, const nlohmann::ordered_json& summary,
                    const FlowPattern& pattern, const MfsResult& result);

// Header `id,sender,dest,order,bytes,start_ps,end_ps,start_s,end_s`, one row per message.
void write_mfs_messages_csv(std::ostream& out, const FlowPattern& pattern, const MfsResult& result);

}  // namespace netwarp::validation
