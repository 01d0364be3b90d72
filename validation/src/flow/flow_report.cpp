// MFS run outputs: JSON summary with per-message table, and the per-message CSV.
#include "netwarp/validation/flow_report.hpp"

#include <fmt/format.h>

namespace netwarp::validation {

nlohmann::ordered_json mfs_result_json(const FlowPattern& pattern, const MfsOptions& options,
                                       const MfsResult& result) {
  nlohmann::ordered_json j;
  j["model"] = "flow";
  j["mode"] = std::string(flow_mode_name(options.mode));
  j["completion_time_ps"] = result.completion_ps;
  j["completion_time_s"] = result.completion_s;
  j["message_count"] = pattern.messages.size();
  j["cycles"] = result.cycles;
  j["rate_solves"] = result.solver.rate_solves;
  j["rate_updates"] = result.solver.rate_updates;
  j["max_min_rounds"] = result.solver.max_min_rounds;
  j["max_min_rounds_max"] = result.solver.max_min_rounds_max;
  j["resolution_ps"] = seconds_to_ps(options.resolution_s);
  j["synchronised_sends"] = options.synchronised_sends;
  j["route_latency"] = options.route_latency;
  j["run_time_s"] = result.wall_seconds;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < pattern.messages.size(); ++i) {
    const PatternMessage& m = pattern.messages[i];
    const MessageTiming& t = result.messages[i];
    rows.push_back({{"id", i},
                    {"sender", m.sender},
                    {"dest", m.dest},
                    {"order", m.order},
                    {"bytes", m.bytes},
                    {"start_ps", t.start_ps},
                    {"end_ps", t.end_ps},
                    {"start_s", t.start_s},
                    {"end_s", t.end_s}});
  }
  j["messages"] = std::move(rows);
  return j;
}

void write_mfs_messages_csv(std::ostream& out, const FlowPattern& pattern,
                            const MfsResult& result) {
  out << "id,sender,dest,order,bytes,start_ps,end_ps,start_s,end_s\n";
  for (std::size_t i = 0; i < pattern.messages.size(); ++i) {
    const PatternMessage& m = pattern.messages[i];
    const MessageTiming& t = result.messages[i];
    out << fmt::format("{},{},{},{},{},{},{},{:.17g},{:.17g}\n", i, m.sender, m.dest, m.order,
                       m.bytes, t.start_ps, t.end_ps, t.start_s, t.end_s);
  }
}

}  // namespace netwarp::validation
