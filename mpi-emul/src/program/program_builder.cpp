// RankProgramBuilder: calls and their operations, appended in program order.
#include <array>
#include <stdexcept>

#include "netwarp/engine/check.hpp"
#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul {

namespace {
constexpr std::array<std::string_view, kCallKindCount> kCallKindNames = {
    "compute",     "send",     "isend",      "recv",           "irecv",      "wait",
    "waitall",     "test",     "sendrecv",   "barrier",        "bcast",      "reduce",
    "allreduce",   "alltoall", "alltoallv",  "gather",         "scatter",    "allgather",
    "gatherv",     "scatterv", "allgatherv", "reduce_scatter", "comm_split", "comm_dup",
    "comm_create", "ibarrier", "ibcast",     "iallreduce",     "ialltoall"};
}  // namespace

std::string_view call_kind_name(CallKind kind) {
  return kCallKindNames.at(static_cast<std::size_t>(kind));
}

std::uint32_t RankProgramBuilder::add_op(Op op) {
  if (capturing_) {
    deferred_.back().ops.push_back(op);
    return 0;
  }
  program_.ops.push_back(op);
  return static_cast<std::uint32_t>(program_.ops.size() - 1);
}

void RankProgramBuilder::use_communicator(CommId id, const Communicator& comm) {
  NW_CHECK(!in_call_, "communicator changed inside a call");
  const std::int32_t own = comm.rank_of(rank_);
  if (own < 0)
    throw std::invalid_argument("rank " + std::to_string(rank_) +
                                " is not a member of communicator " + std::to_string(id) + " (" +
                                comm.origin + ")");
  comm_ = &comm;
  comm_id_ = id;
  comm_rank_ = static_cast<RankId>(own);
}

void RankProgramBuilder::use_world() {
  NW_CHECK(!in_call_, "communicator changed inside a call");
  comm_ = nullptr;
  comm_id_ = kWorldComm;
  comm_rank_ = rank_;
}

void RankProgramBuilder::comm_call(CallKind kind, CommId parent) {
  single_call(kind, -1, -1, 0);
  program_.calls.back().comm = parent;
  close_single_call();
}

// A rank of the communicator in use as a world rank (kAnySource stays).
std::int32_t RankProgramBuilder::to_world(std::int32_t peer) const {
  if (peer == kAnySource) return peer;
  if (peer < 0 || static_cast<RankId>(peer) >= size())
    throw std::invalid_argument("rank " + std::to_string(rank()) + ": peer " +
                                std::to_string(peer) + " is not a rank (size " +
                                std::to_string(size()) + ")");
  if (comm_ == nullptr) return peer;
  return static_cast<std::int32_t>(comm_->members[static_cast<std::size_t>(peer)]);
}

std::uint32_t RankProgramBuilder::add_message_op(OpKind kind, bool blocking, std::uint16_t comm,
                                                 std::int32_t peer, std::int32_t tag,
                                                 std::uint64_t bytes) {
  Op op;
  op.kind = kind;
  op.blocking = blocking ? 1 : 0;
  op.comm = comm;
  op.peer = to_world(peer);
  op.tag = capturing_ ? tag | kNonblockingTag : tag;
  op.request = program_.request_count++;
  op.bytes = bytes;
  add_op(op);
  return op.request;
}

void RankProgramBuilder::add_wait(OpKind kind, std::span<const std::uint32_t> requests) {
  Op op;
  op.kind = kind;
  op.request = static_cast<std::uint32_t>(program_.wait_list.size());
  op.count = static_cast<std::uint32_t>(requests.size());
  for (std::uint32_t r : requests) {
    NW_CHECK(r < program_.request_count, "wait on request {} that was never started", r);
    program_.wait_list.push_back(r);
  }
  add_op(op);
}

void RankProgramBuilder::single_call(CallKind kind, std::int32_t peer, std::int32_t tag,
                                     std::uint64_t bytes) {
  NW_CHECK(!in_call_, "a call inside a collective call");
  Call c;
  c.kind = kind;
  c.comm = comm_id_;
  c.peer = peer < 0 ? peer : to_world(peer);
  c.tag = tag;
  c.bytes = bytes;
  c.first_op = static_cast<std::uint32_t>(program_.ops.size());
  program_.calls.push_back(c);
}

void RankProgramBuilder::close_single_call() {
  Call& c = program_.calls.back();
  c.op_count = static_cast<std::uint32_t>(program_.ops.size()) - c.first_op;
}

void RankProgramBuilder::compute(SimTime duration) {
  single_call(CallKind::compute, -1, -1, 0);
  post_compute(duration);
  close_single_call();
}

void RankProgramBuilder::send(RankId dst, std::int32_t tag, std::uint64_t bytes) {
  single_call(CallKind::send, static_cast<std::int32_t>(dst), tag, bytes);
  add_message_op(OpKind::send, true, point_to_point_context(comm_id_),
                 static_cast<std::int32_t>(dst), tag, bytes);
  close_single_call();
}

std::uint32_t RankProgramBuilder::isend(RankId dst, std::int32_t tag, std::uint64_t bytes) {
  single_call(CallKind::isend, static_cast<std::int32_t>(dst), tag, bytes);
  const std::uint32_t r = add_message_op(OpKind::send, false, point_to_point_context(comm_id_),
                                         static_cast<std::int32_t>(dst), tag, bytes);
  close_single_call();
  return r;
}

void RankProgramBuilder::recv(std::int32_t src, std::int32_t tag, std::uint64_t bytes) {
  single_call(CallKind::recv, src, tag, bytes);
  add_message_op(OpKind::recv, true, point_to_point_context(comm_id_), src, tag, bytes);
  close_single_call();
}

std::uint32_t RankProgramBuilder::irecv(std::int32_t src, std::int32_t tag, std::uint64_t bytes) {
  single_call(CallKind::irecv, src, tag, bytes);
  const std::uint32_t r =
      add_message_op(OpKind::recv, false, point_to_point_context(comm_id_), src, tag, bytes);
  close_single_call();
  return r;
}

bool RankProgramBuilder::is_nonblocking_handle(std::uint32_t request) const {
  return (request & kNonblockingHandle) != 0;
}

// Appends a non-blocking collective's schedule to the current call (once).
void RankProgramBuilder::run_nonblocking(std::uint32_t handle) {
  const std::uint32_t index = handle & ~kNonblockingHandle;
  NW_CHECK(index < deferred_.size(), "wait on non-blocking collective {} that was never started",
           index);
  Deferred& d = deferred_[index];
  if (d.done) return;
  program_.ops.insert(program_.ops.end(), d.ops.begin(), d.ops.end());
  d.done = true;
  d.ops = {};
}

// The non-blocking collectives among `requests` run first, then one wait (or test) covers the
// point-to-point requests.
void RankProgramBuilder::wait_requests(OpKind kind, std::span<const std::uint32_t> requests) {
  std::vector<std::uint32_t> plain;
  for (std::uint32_t r : requests) {
    if (is_nonblocking_handle(r))
      run_nonblocking(r);
    else
      plain.push_back(r);
  }
  if (!plain.empty() || requests.empty()) add_wait(kind, plain);
}

void RankProgramBuilder::wait(std::uint32_t request) {
  single_call(CallKind::wait, -1, -1, 0);
  wait_requests(OpKind::wait, std::span<const std::uint32_t>(&request, 1));
  close_single_call();
}

void RankProgramBuilder::waitall(std::span<const std::uint32_t> requests) {
  single_call(CallKind::waitall, -1, -1, 0);
  wait_requests(OpKind::wait, requests);
  close_single_call();
}

void RankProgramBuilder::test(std::uint32_t request) {
  single_call(CallKind::test, -1, -1, 0);
  wait_requests(OpKind::test, std::span<const std::uint32_t>(&request, 1));
  close_single_call();
}

void RankProgramBuilder::begin_nonblocking(CallKind kind) {
  NW_CHECK(!in_call_ && !nonblocking_next_, "begin_nonblocking inside a call");
  nonblocking_kind_ = kind;
  nonblocking_next_ = true;
}

std::uint32_t RankProgramBuilder::end_nonblocking() {
  NW_CHECK(!in_call_ && !nonblocking_next_ && !deferred_.empty(),
           "end_nonblocking without a collective call after begin_nonblocking");
  return kNonblockingHandle | static_cast<std::uint32_t>(deferred_.size() - 1);
}

void RankProgramBuilder::sendrecv(RankId dst, std::int32_t send_tag, std::uint64_t send_bytes,
                                  std::int32_t src, std::int32_t recv_tag,
                                  std::uint64_t recv_bytes) {
  single_call(CallKind::sendrecv, static_cast<std::int32_t>(dst), send_tag, send_bytes);
  const std::array<std::uint32_t, 2> r = {
      add_message_op(OpKind::recv, false, point_to_point_context(comm_id_), src, recv_tag,
                     recv_bytes),
      add_message_op(OpKind::send, false, point_to_point_context(comm_id_),
                     static_cast<std::int32_t>(dst), send_tag, send_bytes)};
  add_wait(OpKind::wait, r);
  close_single_call();
}

void RankProgramBuilder::begin_call(CallKind kind, std::int32_t root, std::uint64_t bytes) {
  single_call(nonblocking_next_ ? nonblocking_kind_ : kind, root, -1, bytes);
  in_call_ = true;
  if (!nonblocking_next_) return;
  nonblocking_next_ = false;
  capturing_ = true;
  deferred_.emplace_back();
}

std::uint32_t RankProgramBuilder::post_isend(RankId dst, std::int32_t tag, std::uint64_t bytes) {
  NW_CHECK(in_call_, "post_isend outside begin_call/end_call");
  return add_message_op(OpKind::send, false, collective_context(comm_id_),
                        static_cast<std::int32_t>(dst), tag, bytes);
}

std::uint32_t RankProgramBuilder::post_irecv(std::int32_t src, std::int32_t tag,
                                             std::uint64_t bytes) {
  NW_CHECK(in_call_, "post_irecv outside begin_call/end_call");
  return add_message_op(OpKind::recv, false, collective_context(comm_id_), src, tag, bytes);
}

void RankProgramBuilder::post_send(RankId dst, std::int32_t tag, std::uint64_t bytes) {
  NW_CHECK(in_call_, "post_send outside begin_call/end_call");
  add_message_op(OpKind::send, true, collective_context(comm_id_), static_cast<std::int32_t>(dst),
                 tag, bytes);
}

void RankProgramBuilder::post_recv(std::int32_t src, std::int32_t tag, std::uint64_t bytes) {
  NW_CHECK(in_call_, "post_recv outside begin_call/end_call");
  add_message_op(OpKind::recv, true, collective_context(comm_id_), src, tag, bytes);
}

void RankProgramBuilder::post_waitall(std::span<const std::uint32_t> requests) {
  NW_CHECK(in_call_, "post_waitall outside begin_call/end_call");
  add_wait(OpKind::wait, requests);
}

void RankProgramBuilder::post_compute(SimTime duration) {
  Op op;
  op.kind = OpKind::compute;
  op.bytes = static_cast<std::uint64_t>(duration.ps());
  add_op(op);
}

void RankProgramBuilder::end_call() {
  NW_CHECK(in_call_, "end_call without begin_call");
  in_call_ = false;
  capturing_ = false;
  close_single_call();
}

RankProgram RankProgramBuilder::take() {
  NW_CHECK(!in_call_, "program taken inside a call");
  for (const Deferred& d : deferred_)
    NW_CHECK(d.done, "rank {}: a non-blocking collective is never waited for", rank_);
  return std::move(program_);
}

}  // namespace netwarp::mpiemul
