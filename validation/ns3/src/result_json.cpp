// result_json: the report as JSON and the summary line.
#include "result_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tcp_settings.hpp"

namespace netwarp::ns3_check {
namespace {

using Json = nlohmann::ordered_json;

Json flows_json(const netmodels::NetworkSpec& spec, const Ns3RunResult& result) {
  Json rows = Json::array();
  const auto& nodes = spec.topology.nodes;
  for (const auto& m : spec.workload.messages) {
    const FlowOutcome& f = result.flows[m.id];
    rows.push_back({{"flow", m.id},
                    {"src", nodes[m.src].name},
                    {"dst", nodes[m.dst].name},
                    {"bytes", m.bytes},
                    {"start_ps", f.start_ps},
                    {"delivered_ps", f.delivered_ps},
                    {"completed_ps", f.completed_ps},
                    {"segments_sent", f.segments_sent},
                    {"retransmitted_segments", f.retransmitted_segments},
                    {"fast_retransmits", f.fast_retransmits},
                    {"retransmission_timeouts", f.retransmission_timeouts}});
  }
  return rows;
}

// Ports that carried or dropped anything, as results.json lists them.
Json ports_json(const netmodels::NetworkSpec& spec, const Ns3RunResult& result) {
  Json rows = Json::array();
  const auto& nodes = spec.topology.nodes;
  for (const PortOutcome& p : result.ports) {
    if (p.packets_sent == 0 && p.packets_dropped == 0) continue;
    rows.push_back({{"node", nodes[p.node].name},
                    {"port", p.port},
                    {"peer", nodes[p.peer].name},
                    {"packets_sent", p.packets_sent},
                    {"bytes_sent", p.bytes_sent},
                    {"packets_dropped", p.packets_dropped},
                    {"bytes_dropped", p.bytes_dropped}});
  }
  return rows;
}

}  // namespace

Ns3Totals totals_of(const Ns3RunResult& result) {
  Ns3Totals t;
  for (const FlowOutcome& f : result.flows) {
    t.completion_time_ps = std::max(t.completion_time_ps, f.delivered_ps);
    if (f.delivered_ps >= 0) ++t.messages_delivered;
    t.retransmission_timeouts += f.retransmission_timeouts;
    t.retransmitted_segments += f.retransmitted_segments;
    t.fast_retransmits += f.fast_retransmits;
  }
  for (const PortOutcome& p : result.ports) t.packets_dropped += p.packets_dropped;
  return t;
}

std::string result_json(const netmodels::NetworkSpec& spec, const Ns3RunResult& result,
                        const ReportContext& context) {
  const Ns3Totals t = totals_of(result);
  Json j;
  j["tool"] = "ns3";
  j["ns3_version"] = result.ns3_version;
  j["tcp"] = tcp_variant(spec.transport.tcp);
  j["scenario"] = context.scenario_name;
  j["scenario_file"] = context.scenario;
  j["completion_time_ps"] = t.completion_time_ps;
  j["messages"] = result.flows.size();
  j["messages_delivered"] = t.messages_delivered;
  j["packets_dropped"] = t.packets_dropped;
  j["retransmission_timeouts"] = t.retransmission_timeouts;
  j["retransmitted_segments"] = t.retransmitted_segments;
  j["fast_retransmits"] = t.fast_retransmits;
  j["hosts"] = spec.topology.host_count;
  j["switches"] = spec.topology.switch_count();
  j["wall_seconds"] = context.wall_seconds;
  j["pcap_dir"] = context.pcap_dir.empty() ? Json(nullptr) : Json(context.pcap_dir);
  j["notes"] = context.notes;
  j["flows"] = flows_json(spec, result);
  j["ports"] = ports_json(spec, result);
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string summary_line(const Ns3RunResult& result, const ReportContext& context,
                         const std::string& out_path) {
  const Ns3Totals t = totals_of(result);
  return fmt::format(
      "ns-3 {}: {}/{} messages, completion {:.3f} us, {} dropped, {} retransmitted, {} RTOs, "
      "{:.2f} s wall -> {}",
      result.ns3_version, t.messages_delivered, result.flows.size(),
      static_cast<double>(t.completion_time_ps) * 1e-6, t.packets_dropped, t.retransmitted_segments,
      t.retransmission_timeouts, context.wall_seconds, out_path);
}

}  // namespace netwarp::ns3_check
