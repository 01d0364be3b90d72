// The ns-3 cross-check of `netwarp validate`: running netwarp-ns3, reading its report, and the
// comparison tables (validation/ns3/README.md for what ns-3 runs).
#include "netwarp/validation/ns3_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "cross_check_process.hpp"
#include "shell_quote.hpp"

namespace netwarp::validation {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// Per-flow rows in report.md beyond this many are left to report.json.
constexpr std::size_t kMarkdownFlowRows = 64;

std::string command_line(const Ns3CheckRequest& r) {
  std::string command = shell_quote(r.program) + " " + shell_quote(r.scenario);
  for (const auto& s : r.sets) command += " --set " + shell_quote(s);
  return command + " --out " + shell_quote(r.out_file.string());
}

std::vector<FlowSample> flows_of(const nlohmann::json& j) {
  std::vector<FlowSample> flows;
  for (const auto& f : j.at("flows"))
    flows.push_back({f.at("flow").get<std::uint32_t>(), f.at("src").get<std::string>(),
                     f.at("dst").get<std::string>(), f.at("bytes").get<std::uint64_t>(),
                     f.at("start_ps").get<std::int64_t>(), f.at("delivered_ps").get<std::int64_t>(),
                     f.at("completed_ps").get<std::int64_t>(),
                     f.at("retransmitted_segments").get<std::uint64_t>(),
                     f.at("retransmission_timeouts").get<std::uint64_t>()});
  return flows;
}

PacketCounters counters_of(const nlohmann::json& j) {
  return {j.at("packets_dropped").get<std::uint64_t>(),
          j.at("retransmission_timeouts").get<std::uint64_t>(),
          j.at("retransmitted_segments").get<std::uint64_t>(),
          j.at("fast_retransmits").get<std::uint64_t>()};
}

std::string us(std::int64_t ps) {
  return ps < 0 ? std::string("-") : fmt::format("{:.3f}", static_cast<double>(ps) / 1e6);
}

std::string pct(std::int64_t ns3, std::int64_t packet) {
  if (ns3 < 0 || packet <= 0) return "-";
  return fmt::format("{:+.2f}", error_pct(ns3, packet));
}

constexpr std::array<double, 4> kPercentiles{50, 90, 99, 100};

std::string totals_table(const SweepPointResult& p, const Ns3Comparison& c) {
  std::string md = "| quantity | netwarp | ns-3 |\n|---|---:|---:|\n";
  md +=
      fmt::format("| completion (us) | {} | {} |\n", us(p.simulated_ps), us(c.completion_time_ps));
  const auto row = [&](const char* name, std::uint64_t a, std::uint64_t b) {
    md += fmt::format("| {} | {} | {} |\n", name, a, b);
  };
  row("packets dropped", p.counters.packets_dropped, c.counters.packets_dropped);
  row("retransmission timeouts", p.counters.retransmission_timeouts,
      c.counters.retransmission_timeouts);
  row("segments retransmitted", p.counters.retransmitted_segments,
      c.counters.retransmitted_segments);
  row("fast retransmits", p.counters.fast_retransmits, c.counters.fast_retransmits);
  for (double q : kPercentiles)
    md += fmt::format("| FCT {} (us) | {} | {} |\n",
                      q == 100 ? std::string("max") : fmt::format("p{:g}", q),
                      us(fct_percentile(c.packet_flows, q)), us(fct_percentile(c.ns3_flows, q)));
  return md;
}

std::string flow_table(const Ns3Comparison& c) {
  std::string md =
      "| flow | src | dst | bytes | netwarp FCT (us) | ns-3 FCT (us) | ns-3 - netwarp % | "
      "netwarp retx / RTO | ns-3 retx / RTO |\n|---:|---|---|---:|---:|---:|---:|---:|---:|\n";
  const std::size_t rows = std::min(c.ns3_flows.size(), c.packet_flows.size());
  for (std::size_t i = 0; i < rows && i < kMarkdownFlowRows; ++i) {
    const FlowSample& a = c.packet_flows[i];
    const FlowSample& b = c.ns3_flows[i];
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} / {} | {} / {} |\n", a.flow, a.src,
                      a.dst, a.bytes, us(a.fct_ps()), us(b.fct_ps()), pct(b.fct_ps(), a.fct_ps()),
                      a.retransmitted_segments, a.retransmission_timeouts, b.retransmitted_segments,
                      b.retransmission_timeouts);
  }
  if (rows > kMarkdownFlowRows)
    md += fmt::format("\n({} more flows in report.json.)\n", rows - kMarkdownFlowRows);
  return md;
}

Json flow_json(const FlowSample& f) {
  return {{"start_ps", f.start_ps},
          {"delivered_ps", f.delivered_ps},
          {"completed_ps", f.completed_ps},
          {"fct_ps", f.fct_ps()},
          {"retransmitted_segments", f.retransmitted_segments},
          {"retransmission_timeouts", f.retransmission_timeouts}};
}

// The fields ns-3 ran under its own reading (netwarp-ns3's notes), named in the model's row.
std::string own_readings(const nlohmann::json& j) {
  std::string fields;
  for (const auto& note : j.value("notes", nlohmann::json::array())) {
    const std::string text = note.get<std::string>();
    fields += (fields.empty() ? "" : ", ") + text.substr(0, text.find(':'));
  }
  return fields.empty() ? std::string()
                        : "; ns-3's own reading of " + fields + " (netwarp-ns3's notes)";
}

}  // namespace

std::int64_t fct_percentile(const std::vector<FlowSample>& flows, double percentile) {
  std::vector<std::int64_t> fcts;
  for (const FlowSample& f : flows)
    if (f.fct_ps() >= 0) fcts.push_back(f.fct_ps());
  if (fcts.empty()) return -1;
  std::sort(fcts.begin(), fcts.end());
  const auto rank = static_cast<std::size_t>(std::ceil(percentile / 100.0 * fcts.size()));
  return fcts[std::clamp<std::size_t>(rank, 1, fcts.size()) - 1];
}

ModelResult run_ns3_check(const Ns3CheckRequest& request, std::vector<FlowSample> packet_flows,
                          SweepPointResult& point) {
  ModelResult m;
  m.model = "ns3";
  if (request.program.empty() || !fs::exists(request.program)) {
    m.available = false;
    m.note = "cross-check unavailable: netwarp-ns3 was not built (install libns3-dev and rebuild)";
    return m;
  }
  const std::string command = command_line(request);
  const auto start = std::chrono::steady_clock::now();
  const CrossCheckOutcome outcome = run_cross_check(command, request.out_file);
  if (!outcome.ok) {
    m.available = false;
    m.note = "netwarp-ns3: " + outcome.error;
    return m;
  }
  m.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ifstream in(request.out_file);
  const nlohmann::json j = nlohmann::json::parse(in);
  m.predicted_ps = j.at("completion_time_ps").get<std::int64_t>();
  m.note = fmt::format("ns-3 {} packet-level TCP ({}; DropTail device queues){}",
                       j.value("ns3_version", "?"), j.value("tcp", "TcpNewReno"), own_readings(j));
  m.params_file = request.out_file.filename().string();
  point.ns3 = Ns3Comparison{m.predicted_ps, counters_of(j), std::move(packet_flows), flows_of(j)};
  return m;
}

Json ns3_comparison_json(const Ns3Comparison& c, const SweepPointResult& point) {
  Json j;
  j["completion_time_ps"] = {point.simulated_ps, c.completion_time_ps};
  j["packets_dropped"] = {point.counters.packets_dropped, c.counters.packets_dropped};
  j["retransmission_timeouts"] = {point.counters.retransmission_timeouts,
                                  c.counters.retransmission_timeouts};
  j["retransmitted_segments"] = {point.counters.retransmitted_segments,
                                 c.counters.retransmitted_segments};
  j["fast_retransmits"] = {point.counters.fast_retransmits, c.counters.fast_retransmits};
  Json fct = Json::object();
  for (double q : kPercentiles)
    fct[q == 100 ? std::string("max") : fmt::format("p{:g}", q)] = {
        fct_percentile(c.packet_flows, q), fct_percentile(c.ns3_flows, q)};
  j["fct_ps"] = fct;
  Json flows = Json::array();
  for (std::size_t i = 0; i < std::min(c.packet_flows.size(), c.ns3_flows.size()); ++i) {
    const FlowSample& f = c.packet_flows[i];
    flows.push_back({{"flow", f.flow},
                     {"src", f.src},
                     {"dst", f.dst},
                     {"bytes", f.bytes},
                     {"netwarp", flow_json(f)},
                     {"ns3", flow_json(c.ns3_flows[i])}});
  }
  j["flows"] = flows;
  return j;
}

std::string ns3_comparison_markdown(const ValidationReport& r) {
  std::string md;
  for (const auto& p : r.points) {
    if (!p.ns3) continue;
    if (md.empty())
      md = "\n## ns-3 cross-check (netwarp-ns3)\n\nThe same workload in ns-3 "
           "(validation/ns3/README.md). FCT: from the hand-over of a message to TCP until its last "
           "byte is acknowledged (in ns-3 a message handed over at 0 also waits for its "
           "connection's handshake); in report.json each pair is [netwarp, ns-3].\n";
    md += p.value.empty() ? "\n" : fmt::format("\n### {} = {}\n\n", r.sweep_field, p.value);
    md += totals_table(p, *p.ns3) + "\n" + flow_table(*p.ns3);
  }
  return md;
}

}  // namespace netwarp::validation
