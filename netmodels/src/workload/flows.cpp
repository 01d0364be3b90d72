// Explicit flows: make_flows validates a list of independent flows (each starts at its own
// time, none waits for another) and read_flows_csv reads one from a CSV file with the header
// `src,dst,bytes,start_ns`. Field paths for list entries are `<at>[i].<field>`; CSV errors
// name `<file>:<line>` (lines count from 1, the header is line 1).
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "netwarp/netmodels/csv_line.hpp"
#include "netwarp/netmodels/workload.hpp"
#include "workload/workload_checks.hpp"

namespace netwarp::netmodels {
namespace {

using workload_detail::add_message;
using workload_detail::check_host;
using workload_detail::check_message_bytes;

constexpr std::string_view kHeader = "src,dst,bytes,start_ns";
constexpr std::array<std::string_view, 4> kColumns = {"src", "dst", "bytes", "start_ns"};

void check_flow(const FlowSpec& f, std::uint32_t host_count, const std::string& at) {
  check_host(at + ".src", f.src, host_count);
  check_host(at + ".dst", f.dst, host_count);
  if (f.src == f.dst) {
    throw InputError(at + ".dst",
                     "must differ from src, got " + std::to_string(f.dst) + " for both");
  }
  check_message_bytes(at + ".bytes", f.bytes);
  if (f.start < SimTime::zero()) {
    throw InputError(at + ".start", "must be >= 0, got " + std::to_string(f.start.ps()) + " ps");
  }
}

FlowSpec parse_row(std::string_view line, const std::string& where) {
  const auto fields = split_csv_line(line);
  if (fields.size() != kColumns.size()) {
    throw InputError("", where + ": expected 4 fields (" + std::string(kHeader) + "), got " +
                             std::to_string(fields.size()));
  }
  constexpr auto kMaxNode = std::numeric_limits<NodeId>::max();
  constexpr auto kMaxNs =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / 1000;
  FlowSpec f;
  f.src = static_cast<NodeId>(parse_csv_count(fields[0], kColumns[0], kMaxNode, where));
  f.dst = static_cast<NodeId>(parse_csv_count(fields[1], kColumns[1], kMaxNode, where));
  f.bytes = parse_csv_count(fields[2], kColumns[2], kMaxMessageBytes, where);
  const auto start_ns = parse_csv_count(fields[3], kColumns[3], kMaxNs, where);
  f.start = engine::ns(static_cast<std::int64_t>(start_ns));
  return f;
}

}  // namespace

Workload make_flows(const std::vector<FlowSpec>& flows, std::uint32_t host_count,
                    const std::string& at) {
  if (flows.empty()) throw InputError(at, "must list at least one flow");
  Workload w;
  w.kind = "flows";
  w.messages.reserve(flows.size());
  for (std::size_t i = 0; i < flows.size(); ++i) {
    check_flow(flows[i], host_count, at + "[" + std::to_string(i) + "]");
    add_message(w, flows[i].src, flows[i].dst, flows[i].bytes, flows[i].start, false);
  }
  return w;
}

std::vector<FlowSpec> read_flows_csv(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw InputError("", path + ": is a directory");
  std::ifstream in(path);
  if (!in) throw InputError("", path + ": cannot open the flows file");
  std::string line;
  if (!std::getline(in, line) || trim_blanks(line) != kHeader) {
    throw FileInputError(path, 1,
                         "expected the header '" + std::string(kHeader) + "', got '" +
                             std::string(trim_blanks(line)) + "'");
  }
  std::vector<FlowSpec> flows;
  for (std::uint32_t number = 2; std::getline(in, line); ++number) {
    if (trim_blanks(line).empty()) continue;
    try {
      flows.push_back(parse_row(line, "line " + std::to_string(number)));
    } catch (const InputError& e) {
      throw FileInputError(path, number, e.message().substr(e.message().find(": ") + 2));
    }
    flows.back().line = number;
  }
  return flows;
}

}  // namespace netwarp::netmodels
