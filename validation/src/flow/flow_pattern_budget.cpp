// check_pattern_budget: the flow model's worst case against the simulated-time budget, so a
// pattern of 10^18 bytes is refused at load, not answered with a wrapped completion time.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/netmodels/time_budget.hpp"
#include "netwarp/validation/flow_pattern.hpp"

namespace netwarp::validation {
namespace {

using netmodels::WorstCaseTime;

struct Largest {
  std::size_t index = 0;
  std::uint64_t value = 0;
  void see(std::size_t i, std::uint64_t v) {
    if (v > value) *this = {i, v};
  }
};

// Bits per second, rounded down (slower: a safe bound); 0 without links.
std::uint64_t slowest_rate_bps(const FlowNetwork& network) {
  double slowest = std::numeric_limits<double>::infinity();
  for (FlowLinkId k = 0; k < network.link_count(); ++k)
    slowest = std::min(slowest, network.link(k).bytes_per_second * 8);
  if (!(slowest < 1.8e19)) return 0;
  return slowest < 1 ? 0 : static_cast<std::uint64_t>(slowest);
}

[[noreturn]] void fail(const PatternMessage& m, std::size_t index, const std::string& source,
                       const std::string& field, const std::string& what) {
  if (m.line != 0) throw netmodels::FileInputError(source, m.line, field + ": " + what);
  throw netmodels::InputError(fmt::format("{}: message {}", source, index), what);
}

}  // namespace

void check_pattern_budget(const FlowPattern& pattern, const FlowNetwork& network,
                          const std::string& source) {
  const auto& messages = pattern.messages;
  if (messages.empty()) return;
  const std::uint64_t rate = slowest_rate_bps(network);
  std::uint64_t bytes = 0;
  WorstCaseTime delays, latencies;
  Largest largest_bytes, largest_delay;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const PatternMessage& m = messages[i];
    bytes = m.bytes > UINT64_MAX - bytes ? UINT64_MAX : bytes + m.bytes;
    const auto delay_ps = static_cast<std::uint64_t>(std::max<std::int64_t>(0, m.delay.ps()));
    const auto start_ps = static_cast<std::uint64_t>(std::max<std::int64_t>(0, m.not_before.ps()));
    delays += WorstCaseTime::from_ps(delay_ps) + WorstCaseTime::from_ps(start_ps);
    if (network.has_topology() && m.sender != m.dest)
      latencies += WorstCaseTime::from_ns(network.route_latency_s(m.sender, m.dest) * 1e9);
    largest_bytes.see(i, m.bytes);
    largest_delay.see(i, delay_ps + start_ps);
  }
  const WorstCaseTime transfer = WorstCaseTime::transfer(bytes, rate);
  const WorstCaseTime total = transfer + delays + latencies;
  if (total.is_within_budget()) return;
  if (transfer >= delays) {
    const std::size_t i = largest_bytes.index;
    fail(messages[i], i, source, "bytes",
         fmt::format("{} B (the largest of {} B in all, at {} bit/s, the slowest link) take {}",
                     messages[i].bytes, bytes, rate, netmodels::over_budget(total)));
  }
  const std::size_t i = largest_delay.index;
  fail(messages[i], i, source, "delay_ns",
       fmt::format("{} ns (the largest of the delays and starts, {} in all) take {}",
                   largest_delay.value / 1000, delays.describe(), netmodels::over_budget(total)));
}

}  // namespace netwarp::validation
