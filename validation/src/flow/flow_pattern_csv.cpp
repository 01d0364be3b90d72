// read_pattern_csv: MFS pattern files, `sender,dest,order,bytes,delay_ns` (delay optional).
// Blank lines and lines starting with '#' are skipped. Every error names FILE:LINE.
#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netwarp/netmodels/csv_line.hpp"
#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/validation/flow_pattern.hpp"

namespace netwarp::validation {
namespace {

using netmodels::InputError;
using netmodels::parse_csv_count;
using netmodels::split_csv_line;
using netmodels::trim_blanks;

constexpr std::string_view kHeader = "sender,dest,order,bytes,delay_ns";
constexpr std::string_view kShortHeader = "sender,dest,order,bytes";

// The header without blanks around the commas.
std::string normalised(std::string_view line) {
  std::string out;
  for (const auto field : split_csv_line(line))
    out += fmt::format("{}{}", out.empty() ? "" : ",", field);
  return out;
}

netmodels::NodeId parse_host(std::string_view text, std::string_view column,
                             std::uint32_t host_count, const std::string& where) {
  const std::uint64_t host =
      parse_csv_count(text, column, std::numeric_limits<std::uint32_t>::max(), where);
  if (host >= host_count)
    throw InputError("", fmt::format("{}: {} {} is not a host (hosts are 0..{})", where, column,
                                     host, host_count - 1));
  return static_cast<netmodels::NodeId>(host);
}

PatternMessage parse_row(std::string_view line, std::size_t columns, std::uint32_t host_count,
                         const std::string& where) {
  const auto f = split_csv_line(line);
  if (f.size() != columns && !(columns == 5 && f.size() == 4))
    throw InputError("", fmt::format("{}: expected {} fields ({}), got {}", where, columns,
                                     columns == 5 ? kHeader : kShortHeader, f.size()));
  constexpr auto kMaxNs =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / 1000;
  PatternMessage m;
  m.sender = parse_host(f[0], "sender", host_count, where);
  m.dest = parse_host(f[1], "dest", host_count, where);
  if (m.sender == m.dest)
    throw InputError(
        "", fmt::format("{}: dest must differ from sender, got {} for both", where, m.sender));
  m.order = parse_csv_count(f[2], "order", std::numeric_limits<std::uint64_t>::max(), where);
  m.bytes = parse_csv_count(f[3], "bytes", std::numeric_limits<std::uint64_t>::max(), where);
  if (f.size() == 5 && !f[4].empty())
    m.delay = netmodels::SimTime::from_ps(
        static_cast<std::int64_t>(parse_csv_count(f[4], "delay_ns", kMaxNs, where)) * 1000);
  return m;
}

}  // namespace

FlowPattern read_pattern_csv(const std::string& path, std::uint32_t host_count) {
  if (std::filesystem::is_directory(path))
    throw netmodels::FileInputError(path, 0, "is a directory");
  std::ifstream in(path);
  if (!in) throw netmodels::FileInputError(path, 0, "cannot open the pattern file");
  std::string line;
  std::getline(in, line);
  const std::string header = normalised(line);
  if (header != kHeader && header != kShortHeader)
    throw netmodels::FileInputError(
        path, 1, fmt::format("expected the header '{}', got '{}'", kHeader, trim_blanks(line)));
  const std::size_t columns = header == kHeader ? 5 : 4;
  FlowPattern pattern;
  std::map<std::pair<netmodels::NodeId, std::uint64_t>, int> line_of_order;
  for (int number = 2; std::getline(in, line); ++number) {
    const std::string_view text = trim_blanks(line);
    if (text.empty() || text.front() == '#') continue;
    PatternMessage m;
    try {
      m = parse_row(text, columns, host_count, "line");
    } catch (const InputError& e) {
      // parse_row's messages start with the `where` it was given: "line: ..."
      throw netmodels::FileInputError(path, static_cast<std::uint32_t>(number),
                                      e.message().substr(6));
    }
    m.line = static_cast<std::uint32_t>(number);
    const auto [it, is_new] = line_of_order.emplace(std::pair{m.sender, m.order}, number);
    if (!is_new)
      throw netmodels::FileInputError(
          path, static_cast<std::uint32_t>(number),
          fmt::format("sender {} already has order {} (line {})", m.sender, m.order, it->second));
    pattern.messages.push_back(m);
  }
  if (pattern.messages.empty())
    throw netmodels::FileInputError(path, 0, "the pattern file lists no message");
  return pattern;
}

}  // namespace netwarp::validation
