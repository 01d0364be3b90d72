// format_mpi_summary: the lines an MPI run prints on stdout.
#include <fmt/format.h>

#include <string>

#include "netwarp/mpiemul/mpi_outputs.hpp"

namespace netwarp::mpiemul {

namespace {

double us(std::int64_t ps) {
  return static_cast<double>(ps) * 1e-6;
}

double percent(std::int64_t part, double whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / whole;
}

std::string run_line(const MpiTotals& t) {
  if (!t.finished)
    return fmt::format("mpi           {} ranks; did not finish: {} ranks stuck\n", t.ranks.size(),
                       t.stuck.size());
  return fmt::format("mpi           {} ranks; run time {:.3f} us ({:.3f} ms)\n", t.ranks.size(),
                     us(t.run_time_ps), us(t.run_time_ps) * 1e-3);
}

// Percentages of all time spent in calls, summed over ranks (in doubles: the parts may each be
// near what int64 counts).
std::string breakdown_line(const CallBreakdown& b) {
  const double total = static_cast<double>(b.overhead_ps) + static_cast<double>(b.send_wait_ps) +
                       static_cast<double>(b.recv_wait_ps) + static_cast<double>(b.sync_ps) +
                       static_cast<double>(b.compute_ps);
  if (b.saturated)
    return fmt::format(
        "calls         {} calls; their times summed over ranks pass what 64 bits count "
        "(9.2e+06 s): see the per-rank times in results.json\n",
        b.calls);
  return fmt::format(
      "calls         {} calls, {:.3f} us summed over ranks: overhead {:.1f}%, send wait {:.1f}%, "
      "recv wait {:.1f}%, sync {:.1f}%, compute {:.1f}%\n",
      b.calls, total * 1e-6, percent(b.overhead_ps, total), percent(b.send_wait_ps, total),
      percent(b.recv_wait_ps, total), percent(b.sync_ps, total), percent(b.compute_ps, total));
}

std::string messages_line(const MpiTotals& t) {
  MessageTotals all;
  std::string by_protocol;
  for (int p = 0; p < kProtocolCount; ++p) {
    const MessageTotals& m = t.messages[p];
    all.count += m.count;
    all.bytes += m.bytes;
    all.unexpected += m.unexpected;
    if (m.count != 0)
      by_protocol += fmt::format("{}{} {}", by_protocol.empty() ? "" : ", ",
                                 protocol_name(static_cast<Protocol>(p)), m.count);
  }
  if (all.count == 0) return "messages      none\n";
  return fmt::format("messages      {} ({}), {} bytes, {} unexpected\n", all.count, by_protocol,
                     all.bytes, all.unexpected);
}

}  // namespace

std::string format_mpi_summary(const MpiTotals& totals) {
  std::string out = run_line(totals) + breakdown_line(totals.calls) + messages_line(totals);
  const RankCounters& c = totals.counters;
  if (c.throttled_sends != 0)
    out += fmt::format(
        "throttling    {} eager sends waited {:.3f} us in total for unexpected-buffer credit\n",
        c.throttled_sends, us(c.throttle_wait_ps));
  if (!totals.finished) out += deadlock_message(totals) + "\n";
  return out;
}

}  // namespace netwarp::mpiemul
