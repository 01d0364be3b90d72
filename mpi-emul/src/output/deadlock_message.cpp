// deadlock_message: one line naming the ranks that never finished and the call each is
// blocked in, so a user can see the cycle (rank 0 sends to 1 while 1 sends to 0).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <vector>

#include "netwarp/mpiemul/mpi_results.hpp"

namespace netwarp::mpiemul {

namespace {

// Only this many of the operations a wait names are listed.
constexpr std::size_t kMaxWaitingOps = 4;

std::string rank_name(std::int32_t peer) {
  return peer == kAnySource ? "any" : fmt::format("{}", peer);
}

bool is_point_to_point(CallKind kind) {
  return kind == CallKind::send || kind == CallKind::isend || kind == CallKind::recv ||
         kind == CallKind::irecv || kind == CallKind::sendrecv;
}

bool is_receive(CallKind kind) {
  return kind == CallKind::recv || kind == CallKind::irecv;
}

bool has_root(CallKind kind) {
  return kind == CallKind::bcast || kind == CallKind::reduce || kind == CallKind::gather ||
         kind == CallKind::scatter || kind == CallKind::gatherv || kind == CallKind::scatterv;
}

// " on communicator 2" for operations outside MPI_COMM_WORLD.
std::string comm_suffix(CommId comm) {
  return comm == kWorldComm ? "" : fmt::format(" on communicator {}", comm);
}

std::string describe_op(const Op& op) {
  const std::string on = comm_suffix(comm_of_context(op.comm));
  if (op.kind == OpKind::send) return fmt::format("send to {}{}", op.peer, on);
  return fmt::format("recv from {}{}", rank_name(op.peer), on);
}

// ", on recv from 0, send to 0" for calls whose own peer does not tell what they wait for.
std::string waiting_on(const StuckRank& s) {
  if (s.waiting_on.empty() || s.kind == CallKind::send || s.kind == CallKind::isend ||
      is_receive(s.kind))
    return "";
  std::string out = ", on ";
  const std::size_t shown = std::min(s.waiting_on.size(), kMaxWaitingOps);
  for (std::size_t i = 0; i < shown; ++i)
    out += fmt::format("{}{}", i == 0 ? "" : ", ", describe_op(s.waiting_on[i]));
  if (shown < s.waiting_on.size()) out += fmt::format(", {} more", s.waiting_on.size() - shown);
  return out;
}

std::string describe(const StuckRank& s) {
  if (!s.has_summary) return fmt::format("rank {} did not report", s.rank);
  std::string call(call_kind_name(s.kind));
  std::vector<std::string> details;
  if (is_point_to_point(s.kind)) {
    call += fmt::format(" {} {}", is_receive(s.kind) ? "from" : "to", rank_name(s.peer));
    details.push_back(s.tag == kAnyTag ? "tag any" : fmt::format("tag {}", s.tag));
  }
  if (has_root(s.kind)) details.push_back(fmt::format("root {}", s.peer));
  if (s.bytes != 0 || is_point_to_point(s.kind)) details.push_back(fmt::format("{} B", s.bytes));
  details.push_back(fmt::format("call {}", s.call));
  if (s.comm != kWorldComm) details.push_back(fmt::format("communicator {}", s.comm));
  return fmt::format("rank {} blocked in {} ({}{})", s.rank, call, fmt::join(details, ", "),
                     waiting_on(s));
}

}  // namespace

std::string deadlock_message(const MpiTotals& totals, std::size_t max_ranks) {
  if (totals.stuck.empty()) return "";
  std::string out = "deadlock: ";
  const std::size_t shown = std::min(totals.stuck.size(), std::max<std::size_t>(max_ranks, 1));
  for (std::size_t i = 0; i < shown; ++i)
    out += fmt::format("{}{}", i == 0 ? "" : "; ", describe(totals.stuck[i]));
  if (shown < totals.stuck.size())
    out += fmt::format("; and {} more ranks", totals.stuck.size() - shown);
  return out;
}

std::string unreceived_message(const MpiTotals& totals, std::size_t max_sends) {
  const std::vector<UnreceivedSend>& sends = totals.unreceived;
  if (sends.empty()) return "";
  std::string out = fmt::format("{} send{} never received: ", sends.size(),
                                sends.size() == 1 ? " was" : "s were");
  const std::size_t shown = std::min(sends.size(), std::max<std::size_t>(max_sends, 1));
  for (std::size_t i = 0; i < shown; ++i)
    out += fmt::format("{}rank {}'s send to {} (tag {}, {} B, op {})", i == 0 ? "" : "; ",
                       sends[i].rank, sends[i].peer, sends[i].tag, sends[i].bytes, sends[i].op);
  if (shown < sends.size()) out += fmt::format("; and {} more", sends.size() - shown);
  return out;
}

}  // namespace netwarp::mpiemul
