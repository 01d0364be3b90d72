// RankExpander: the action loop, checks, and the point-to-point and compute actions. A wait
// names its request as trace.proto says. As in SimGrid's replay, a test that matches no
// pending request and a waitall with nothing pending are dropped, and requests still pending
// after the last action get one final waitall.
#include "rank_expander.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace netwarp::mpiemul {

RankExpander::RankExpander(const proto::Trace& trace, RankId rank, const CommPlan& comms,
                           const CollectivePlan& plan, const TraceProgramOptions& options)
    : trace_(trace),
      rank_(rank),
      comms_(comms),
      plan_(plan),
      options_(options),
      builder_(rank, static_cast<RankId>(trace.ranks_size())) {}

RankProgram RankExpander::expand() {
  const auto& actions = trace_.ranks(static_cast<int>(rank_)).actions();
  std::vector<std::uint32_t> call_lines;
  for (int i = 0; i < actions.size(); ++i) {
    const ActionSite site(trace_, rank_, i, options_.locations);
    const std::size_t first_op = builder_.ops().size();
    try {
      add_on_comm(actions[i], i, site);
    } catch (const std::invalid_argument& e) {
      site.fail_action(e.what());  // from the builder or a collective algorithm
    }
    charge_ops(builder_.ops().subspan(first_op), site);
    call_lines.resize(builder_.call_count(), actions[i].line());
  }
  if (!pending_.empty()) builder_.waitall(pending_.take_all());
  RankProgram program = builder_.take();
  program.source_file = trace_.ranks(static_cast<int>(rank_)).source_file();
  call_lines.resize(program.calls.size(), 0);
  program.call_lines = std::move(call_lines);
  return program;
}

// The action's ranks are ranks of its communicator: the builder translates them.
void RankExpander::add_on_comm(const proto::Action& action, int index, const ActionSite& site) {
  comm_ = comms_.comm_of(rank_, index);
  if (is_comm_creation(action)) {
    const auto kind = action.kind_case();
    builder_.comm_call(kind == proto::Action::kCommSplit ? CallKind::comm_split
                       : kind == proto::Action::kCommDup ? CallKind::comm_dup
                                                         : CallKind::comm_create,
                       comm_);
    return;
  }
  if (comm_ != kWorldComm) builder_.use_communicator(comm_, comms_[comm_]);
  add(action, site);
  builder_.use_world();
}

std::int32_t RankExpander::world_rank(std::int32_t comm_rank) const {
  if (comm_rank < 0) return comm_rank;
  return static_cast<std::int32_t>(comms_[comm_].members[static_cast<std::size_t>(comm_rank)]);
}

void RankExpander::add(const proto::Action& action, const ActionSite& site) {
  if (is_collective(action)) {
    add_collective(action, site);
    ++collective_index_[comm_];
  } else {
    add_point_to_point(action, site);
  }
}

void RankExpander::add_point_to_point(const proto::Action& action, const ActionSite& site) {
  using Kind = proto::Action::KindCase;
  switch (action.kind_case()) {
    case Kind::kCompute:
      return add_compute(action.compute().flops(), true, site);
    case Kind::kSleep:
      return add_compute(action.sleep().seconds(), false, site);
    case Kind::kSend:
      return add_send(action.send(), true, site);
    case Kind::kIsend:
      return add_send(action.isend(), false, site);
    case Kind::kRecv:
      return add_recv(action.recv(), true, site);
    case Kind::kIrecv:
      return add_recv(action.irecv(), false, site);
    case Kind::kWait:
      return add_wait(action.wait(), false, site);
    case Kind::kTest:
      return add_wait(action.test(), true, site);
    case Kind::kWaitall:
      if (!pending_.empty()) builder_.waitall(pending_.take_all());
      return;
    case Kind::kSendrecv:
      return add_sendrecv(action.sendrecv(), site);
    default:
      site.fail("the action has no kind (an empty Action message)");
  }
}

// Sleeps are seconds at "one per second": the same rounding as compute. Both are scaled by
// compute_scale (1 leaves whole flop counts exact).
void RankExpander::add_compute(double amount, bool is_flops, const ActionSite& site) {
  const std::string_view unit = is_flops ? "flops" : "seconds";
  const double per_second = is_flops ? options_.flops_per_second : 1.0;
  if (!std::isfinite(amount) || amount < 0)
    site.fail_action(fmt::format("{} {} is not a finite number >= 0", amount, unit));
  try {
    builder_.compute(compute_time(amount * options_.compute_scale, per_second));
  } catch (const std::invalid_argument&) {
    site.fail_action(
        fmt::format("{} {} last longer than the simulated time can count", amount, unit));
  }
}

// The rank's busy time so far, checked against the time budget at the action that passes it.
void RankExpander::charge(netmodels::WorstCaseTime time, const ActionSite& site) {
  busy_ += time;
  if (!busy_.is_within_budget())
    site.fail_action(
        fmt::format("rank {}'s compute, sleeps and message costs up to here add up to {}", rank_,
                    netmodels::over_budget(busy_)));
}

// The operations of one action (a collective's too): each send against the transport's
// limits, compute times and message costs against the time budget.
void RankExpander::charge_ops(std::span<const Op> ops, const ActionSite& site) {
  for (const Op& op : ops) {
    if (op.kind == OpKind::compute) charge(netmodels::WorstCaseTime::from_ps(op.bytes), site);
    if (op.kind == OpKind::send) check_send(op, site);
    if (op.kind == OpKind::send || op.kind == OpKind::recv)
      charge(netmodels::WorstCaseTime::per_byte(op.bytes, options_.host_ns_per_byte), site);
  }
}

void RankExpander::check_send(const Op& send, const ActionSite& site) {
  const std::uint64_t limit = options_.message_limit_bytes;
  if (limit != 0 && send.bytes >= limit)
    site.fail_action(fmt::format("sends {} B to rank {}: a message must be smaller than {} B",
                                 send.bytes, send.peer, limit));
}

void RankExpander::add_send(const proto::Send& send, bool is_blocking, const ActionSite& site) {
  const RankId dst = checked_rank(send.dst(), "destination", site);
  const std::int32_t tag = checked_tag(send.tag(), false, site);
  if (is_blocking) return builder_.send(dst, tag, send.bytes());
  const std::uint32_t request = builder_.isend(dst, tag, send.bytes());
  pending_.add(static_cast<std::int32_t>(rank_), world_rank(send.dst()), tag, request);
}

void RankExpander::add_recv(const proto::Recv& recv, bool is_blocking, const ActionSite& site) {
  const std::int32_t src = checked_source(recv.src(), "source", site);
  const std::int32_t tag = checked_tag(recv.tag(), true, site);
  if (is_blocking) return builder_.recv(src, tag, recv.bytes());
  const std::uint32_t request = builder_.irecv(src, tag, recv.bytes());
  pending_.add(world_rank(src), static_cast<std::int32_t>(rank_), tag, request);
}

void RankExpander::add_wait(const proto::Wait& wait, bool is_test, const ActionSite& site) {
  const bool has_key = wait.has_request();
  const auto request = wait.collective() ? pending_.oldest_collective()
                       : has_key         ? pending_.find(wait.request())
                                         : pending_.latest();
  if (is_test) {
    if (request) builder_.test(*request);
    return;
  }
  if (!request && pending_.empty()) site.fail_action("no isend or irecv is pending");
  if (!request && wait.collective()) site.fail_action("no non-blocking collective is pending");
  if (!request)
    site.fail_action(fmt::format(
        "no pending isend or irecv has src {}, dst {}, tag {} (pending: {})", wait.request().src(),
        wait.request().dst(), wait.request().tag(), pending_.describe()));
  builder_.wait(*request);
  pending_.remove(*request);
}

void RankExpander::add_sendrecv(const proto::SendRecv& sr, const ActionSite& site) {
  const RankId dst = checked_rank(sr.dst(), "destination", site);
  const std::int32_t src = checked_source(sr.src(), "source", site);
  builder_.sendrecv(dst, checked_tag(sr.send_tag(), false, site), sr.send_bytes(), src,
                    checked_tag(sr.recv_tag(), true, site), sr.recv_bytes());
}

RankId RankExpander::checked_rank(std::int32_t value, std::string_view what,
                                  const ActionSite& site) const {
  if (value < 0 || static_cast<RankId>(value) >= builder_.size()) {
    if (comm_ != kWorldComm)
      site.fail_action(fmt::format("{} rank {} is out of range (communicator {} has ranks 0 to {})",
                                   what, value, comm_, builder_.size() - 1));
    site.fail_action(fmt::format("{} rank {} is out of range (the trace has ranks 0 to {})", what,
                                 value, builder_.size() - 1));
  }
  return static_cast<RankId>(value);
}

std::int32_t RankExpander::checked_source(std::int32_t value, std::string_view what,
                                          const ActionSite& site) const {
  if (value == kAnySource) return value;
  return static_cast<std::int32_t>(checked_rank(value, what, site));
}

std::int32_t RankExpander::checked_tag(std::int32_t value, bool allow_any,
                                       const ActionSite& site) const {
  if (value >= 0 || (allow_any && value == kAnyTag)) return value;
  site.fail_action(fmt::format("tag {} is negative{}", value, allow_any ? " (-1: any tag)" : ""));
}

std::span<const std::uint64_t> RankExpander::checked_list(
    const google::protobuf::RepeatedField<std::uint64_t>& list, std::string_view what,
    const ActionSite& site) const {
  if (static_cast<RankId>(list.size()) != builder_.size())
    site.fail_action(fmt::format("{} has {} entries; it needs one per rank ({})", what, list.size(),
                                 builder_.size()));
  return std::span<const std::uint64_t>(list.data(), static_cast<std::size_t>(list.size()));
}

}  // namespace netwarp::mpiemul
