// Explicit flows: make_flows validates a list of flows (each starts at its own time, or once
// the flows it waits for are delivered) and read_flows_csv reads one from a CSV file with the
// header `src,dst,bytes,start_ns` (then optional columns). Field paths for list entries are
// `<at>[i].<field>`; CSV errors name `<file>:<line>` (lines count from 1, the header is line 1).
#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
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
constexpr std::array<std::string_view, 5> kOptional = {"name", "group", "after", "gap_ns", "class"};
constexpr auto kMaxNs = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / 1000;

// The header's optional columns, in their order (each at most once).
std::vector<std::string_view> optional_columns(std::string_view header, const std::string& path) {
  const auto fields = split_csv_line(header);
  bool starts = fields.size() >= kColumns.size();
  for (std::size_t i = 0; starts && i < kColumns.size(); ++i) starts = fields[i] == kColumns[i];
  if (!starts)
    throw FileInputError(path, 1,
                         "expected the header '" + std::string(kHeader) +
                             "' (then any of name,group,after,gap_ns,class), got '" +
                             std::string(header) + "'");
  std::vector<std::string_view> extra;
  for (std::size_t i = kColumns.size(); i < fields.size(); ++i) {
    const std::string_view column = fields[i];
    if (std::find(kOptional.begin(), kOptional.end(), column) == kOptional.end())
      throw FileInputError(path, 1,
                           "unknown column '" + std::string(column) +
                               "' (known after start_ns: name, group, after, gap_ns, class)");
    if (std::find(extra.begin(), extra.end(), column) != extra.end())
      throw FileInputError(path, 1, "column '" + std::string(column) + "' is given twice");
    extra.push_back(column);
  }
  return extra;
}

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

void set_optional(FlowSpec& f, std::string_view column, std::string_view value,
                  const std::string& where) {
  if (column == "name") f.name = value;
  if (column == "group") f.group = value;
  if (column == "after") f.after_name = value;
  if (column == "class") f.class_name = value;
  if (column == "gap_ns" && !value.empty())
    f.gap = engine::ns(static_cast<std::int64_t>(parse_csv_count(value, "gap_ns", kMaxNs, where)));
}

FlowSpec parse_row(std::string_view line, const std::vector<std::string_view>& extra,
                   const std::string& where) {
  const auto fields = split_csv_line(line);
  if (fields.size() != kColumns.size() + extra.size()) {
    throw InputError("", where + ": expected " + std::to_string(kColumns.size() + extra.size()) +
                             " fields (as the header), got " + std::to_string(fields.size()));
  }
  constexpr auto kMaxNode = std::numeric_limits<NodeId>::max();
  FlowSpec f;
  f.src = static_cast<NodeId>(parse_csv_count(fields[0], kColumns[0], kMaxNode, where));
  f.dst = static_cast<NodeId>(parse_csv_count(fields[1], kColumns[1], kMaxNode, where));
  f.bytes = parse_csv_count(fields[2], kColumns[2], kMaxMessageBytes, where);
  const auto start_ns = parse_csv_count(fields[3], kColumns[3], kMaxNs, where);
  f.start = engine::ns(static_cast<std::int64_t>(start_ns));
  for (std::size_t i = 0; i < extra.size(); ++i)
    set_optional(f, extra[i], fields[kColumns.size() + i], where);
  return f;
}

[[noreturn]] void fail_flow(const std::vector<FlowSpec>& flows, std::size_t i,
                            const std::string& at, const std::string& file,
                            const std::string& message) {
  if (!file.empty()) throw FileInputError(file, flows[i].line, "after: " + message);
  throw InputError(at + "[" + std::to_string(i) + "].after", message);
}

// Kahn's algorithm: a flow left over waits (through others) for itself.
void check_no_cycle(const std::vector<FlowSpec>& flows, const std::string& at,
                    const std::string& file) {
  std::vector<std::uint32_t> waiting(flows.size(), 0);
  std::vector<std::vector<std::uint32_t>> dependents(flows.size());
  for (std::size_t i = 0; i < flows.size(); ++i)
    for (std::uint32_t p : flows[i].after) {
      ++waiting[i];
      dependents[p].push_back(static_cast<std::uint32_t>(i));
    }
  std::vector<std::uint32_t> ready;
  for (std::size_t i = 0; i < flows.size(); ++i)
    if (waiting[i] == 0) ready.push_back(static_cast<std::uint32_t>(i));
  std::size_t done = 0;
  while (!ready.empty()) {
    const std::uint32_t i = ready.back();
    ready.pop_back();
    ++done;
    for (std::uint32_t d : dependents[i])
      if (--waiting[d] == 0) ready.push_back(d);
  }
  if (done == flows.size()) return;
  for (std::size_t i = 0; i < flows.size(); ++i)
    if (waiting[i] != 0)
      fail_flow(
          flows, i, at, file,
          "'" + flows[i].after_name + "' waits, through other flows, for this flow (a cycle)");
}

}  // namespace

void resolve_flow_dependencies(std::vector<FlowSpec>& flows, const std::string& at,
                               const std::string& file) {
  std::map<std::string, std::uint32_t> by_name;
  std::map<std::string, std::vector<std::uint32_t>> by_group;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const auto index = static_cast<std::uint32_t>(i);
    if (!flows[i].name.empty() && !by_name.emplace(flows[i].name, index).second) {
      if (!file.empty())
        throw FileInputError(file, flows[i].line,
                             "name: '" + flows[i].name + "' names another flow too");
      throw InputError(at + "[" + std::to_string(i) + "].name",
                       "'" + flows[i].name + "' names another flow too");
    }
    if (!flows[i].group.empty()) by_group[flows[i].group].push_back(index);
  }
  for (std::size_t i = 0; i < flows.size(); ++i) {
    FlowSpec& f = flows[i];
    f.after.clear();
    if (f.after_name.empty()) continue;
    if (const auto named = by_name.find(f.after_name); named != by_name.end()) {
      f.after.push_back(named->second);
    } else if (const auto group = by_group.find(f.after_name); group != by_group.end()) {
      f.after = group->second;
    } else {
      fail_flow(flows, i, at, file, "no flow or group is named '" + f.after_name + "'");
    }
    if (std::find(f.after.begin(), f.after.end(), i) != f.after.end())
      fail_flow(flows, i, at, file, "the flow waits for itself ('" + f.after_name + "')");
  }
  check_no_cycle(flows, at, file);
}

Workload make_flows(const std::vector<FlowSpec>& flows, std::uint32_t host_count,
                    const std::string& at) {
  if (flows.empty()) throw InputError(at, "must list at least one flow");
  Workload w;
  w.kind = "flows";
  w.messages.reserve(flows.size());
  bool waits = false;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    check_flow(flows[i], host_count, at + "[" + std::to_string(i) + "]");
    add_message(w, flows[i].src, flows[i].dst, flows[i].bytes, flows[i].start, false);
    w.messages.back().waits = static_cast<std::uint32_t>(flows[i].after.size());
    w.messages.back().gap = flows[i].gap;
    waits = waits || !flows[i].after.empty();
  }
  if (!waits) return w;
  // Dependents by prerequisite, in flow order.
  w.dependent_begin.assign(flows.size() + 1, 0);
  for (const FlowSpec& f : flows)
    for (std::uint32_t p : f.after) ++w.dependent_begin[p + 1];
  for (std::size_t i = 0; i < flows.size(); ++i) w.dependent_begin[i + 1] += w.dependent_begin[i];
  w.dependents.resize(w.dependent_begin.back());
  std::vector<std::uint32_t> next(w.dependent_begin.begin(), w.dependent_begin.end() - 1);
  for (std::size_t i = 0; i < flows.size(); ++i)
    for (std::uint32_t p : flows[i].after) w.dependents[next[p]++] = static_cast<MessageId>(i);
  return w;
}

std::vector<FlowSpec> read_flows_csv(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw InputError("", path + ": is a directory");
  std::ifstream in(path);
  if (!in) throw InputError("", path + ": cannot open the flows file");
  std::string line;
  std::getline(in, line);
  const std::string header = line;  // `extra` views into it; `line` is reused
  const std::vector<std::string_view> extra = optional_columns(trim_blanks(header), path);
  std::vector<FlowSpec> flows;
  for (std::uint32_t number = 2; std::getline(in, line); ++number) {
    if (trim_blanks(line).empty()) continue;
    try {
      flows.push_back(parse_row(line, extra, "line " + std::to_string(number)));
    } catch (const InputError& e) {
      throw FileInputError(path, number, e.message().substr(e.message().find(": ") + 2));
    }
    flows.back().line = number;
  }
  return flows;
}

}  // namespace netwarp::netmodels
