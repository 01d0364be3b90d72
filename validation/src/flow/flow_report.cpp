// MFS run outputs: the JSON summary, the JSON file with one message per line, and the CSV.
#include "netwarp/validation/flow_report.hpp"

#include <fmt/format.h>

namespace netwarp::validation {

nlohmann::ordered_json mfs_summary_json(const MfsOptions& options, const MfsResult& result,
                                        std::size_t message_count) {
  nlohmann::ordered_json j;
  j["model"] = "flow";
  j["mode"] = std::string(flow_mode_name(options.mode));
  j["completion_time_ps"] = result.completion_ps;
  j["completion_time_s"] = result.completion_s;
  j["message_count"] = message_count;
  j["cycles"] = result.cycles;
  j["rate_solves"] = result.solver.rate_solves;
  j["rate_updates"] = result.solver.rate_updates;
  j["max_min_rounds"] = result.solver.max_min_rounds;
  j["max_min_rounds_max"] = result.solver.max_min_rounds_max;
  j["resolution_ps"] = seconds_to_ps(options.resolution_s);
  j["synchronised_sends"] = options.synchronised_sends;
  j["route_latency"] = options.route_latency;
  j["run_time_s"] = result.wall_seconds;
  return j;
}

nlohmann::ordered_json mfs_message_json(std::size_t id, const PatternMessage& m,
                                        const MessageTiming& t) {
  return {{"id", id},           {"sender", m.sender},   {"dest", m.dest},
          {"order", m.order},   {"bytes", m.bytes},     {"start_ps", t.start_ps},
          {"end_ps", t.end_ps}, {"start_s", t.start_s}, {"end_s", t.end_s}};
}

void write_mfs_json(std::ostream& out, const nlohmann::ordered_json& summary,
                    const FlowPattern& pattern, const MfsResult& result) {
  std::string text = summary.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  text.pop_back();  // the closing brace: the messages go before it
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  out << text << (summary.empty() ? "\n" : ",\n") << "  \"messages\": [";
  for (std::size_t i = 0; i < pattern.messages.size(); ++i)
    out << (i == 0 ? "\n    " : ",\n    ")
        << mfs_message_json(i, pattern.messages[i], result.messages[i])
               .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  out << "\n  ]\n}\n";
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
