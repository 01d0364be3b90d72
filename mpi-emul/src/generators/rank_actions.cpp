// RankActions, GeneratorError, the generators' parameter names and trace_totals.
#include "generators/rank_actions.hpp"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <utility>

#include "netwarp/mpiemul/generators.hpp"

namespace netwarp::mpiemul {

namespace generators {

RankActions::RankActions(proto::Trace& trace, RankId rank)
    : trace_(*trace.mutable_ranks(static_cast<int>(rank))), rank_(rank) {}

void RankActions::compute(double flops) {
  pending_flops_ += flops;
}

proto::Action& RankActions::add() {
  if (pending_flops_ > 0) {
    trace_.add_actions()->mutable_compute()->set_flops(pending_flops_);
    pending_flops_ = 0;
  }
  return *trace_.add_actions();
}

void RankActions::finish() {
  if (pending_flops_ > 0) {
    trace_.add_actions()->mutable_compute()->set_flops(pending_flops_);
    pending_flops_ = 0;
  }
}

void RankActions::add_send(bool is_blocking, RankId dst, std::int32_t tag, std::uint64_t bytes) {
  proto::Action& action = add();
  proto::Send& send = is_blocking ? *action.mutable_send() : *action.mutable_isend();
  send.set_dst(static_cast<std::int32_t>(dst));
  send.set_tag(tag);
  send.set_bytes(bytes);
}

void RankActions::add_recv(bool is_blocking, RankId src, std::int32_t tag, std::uint64_t bytes) {
  proto::Action& action = add();
  proto::Recv& recv = is_blocking ? *action.mutable_recv() : *action.mutable_irecv();
  recv.set_src(static_cast<std::int32_t>(src));
  recv.set_tag(tag);
  recv.set_bytes(bytes);
}

void RankActions::send(RankId dst, std::int32_t tag, std::uint64_t bytes) {
  add_send(true, dst, tag, bytes);
}

void RankActions::isend(RankId dst, std::int32_t tag, std::uint64_t bytes) {
  add_send(false, dst, tag, bytes);
}

void RankActions::recv(RankId src, std::int32_t tag, std::uint64_t bytes) {
  add_recv(true, src, tag, bytes);
}

void RankActions::irecv(RankId src, std::int32_t tag, std::uint64_t bytes) {
  add_recv(false, src, tag, bytes);
}

void RankActions::wait_recv(RankId src, std::int32_t tag) {
  proto::RequestKey& key = *add().mutable_wait()->mutable_request();
  key.set_src(static_cast<std::int32_t>(src));
  key.set_dst(static_cast<std::int32_t>(rank_));
  key.set_tag(tag);
}

void RankActions::waitall() {
  add().mutable_waitall();
}

void RankActions::allreduce(std::uint64_t bytes) {
  add().mutable_allreduce()->set_bytes(bytes);
}

void RankActions::barrier() {
  add().mutable_barrier();
}

proto::Trace empty_trace(RankId ranks) {
  proto::Trace trace;
  for (RankId r = 0; r < ranks; ++r) trace.add_ranks();
  return trace;
}

}  // namespace generators

namespace {

constexpr std::array<std::pair<std::string_view, NpbClass>, 4> kClasses = {{
    {"S", NpbClass::S},
    {"W", NpbClass::W},
    {"A", NpbClass::A},
    {"B", NpbClass::B},
}};

// The bytes of a point-to-point send; none for other actions.
std::optional<std::uint64_t> sent_bytes(const proto::Action& a) {
  if (a.has_send()) return a.send().bytes();
  if (a.has_isend()) return a.isend().bytes();
  if (a.has_sendrecv()) return a.sendrecv().send_bytes();
  return std::nullopt;
}

}  // namespace

GeneratorError::GeneratorError(std::string app, std::string parameter, const std::string& message)
    : std::invalid_argument(fmt::format("{}.{}: {}", app, parameter, message)),
      app_(std::move(app)),
      parameter_(std::move(parameter)),
      message_(message) {}

GaussForward gauss_forward(std::string_view name) {
  if (name == "blocking") return GaussForward::blocking;
  if (name == "isend") return GaussForward::isend;
  throw GeneratorError("gauss", "forward",
                       fmt::format("must be blocking or isend, got '{}'", name));
}

std::string_view gauss_forward_name(GaussForward forward) {
  return forward == GaussForward::isend ? "isend" : "blocking";
}

NpbClass npb_class(std::string_view app, std::string_view name) {
  for (const auto& [class_name, size_class] : kClasses)
    if (name == class_name) return size_class;
  throw GeneratorError(std::string(app), "class",
                       fmt::format("must be S, W, A or B, got '{}'", name));
}

std::string_view npb_class_name(NpbClass size_class) {
  return kClasses.at(static_cast<std::size_t>(size_class)).first;
}

TraceTotals trace_totals(const proto::Trace& trace) {
  TraceTotals totals;
  for (const proto::RankTrace& rank : trace.ranks()) {
    totals.actions += static_cast<std::uint64_t>(rank.actions_size());
    for (const proto::Action& action : rank.actions()) {
      const std::optional<std::uint64_t> bytes = sent_bytes(action);
      if (!bytes) continue;
      ++totals.messages;
      totals.bytes += *bytes;
    }
  }
  return totals;
}

}  // namespace netwarp::mpiemul
