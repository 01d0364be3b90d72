// RankModel: sending envelopes (with eager credit) and the protocol work the CPU does; mirrors
// mpi-emul/src/rank/work_items.cpp.
#include "rank_model.hpp"

namespace netwarp::simgrid_check {

using mpiemul::Op;

// Eager data needs credit when the unexpected buffer is bounded; an envelope that cannot go
// (or that would overtake one held back) waits, in order, for credit to return.
void RankModel::send_envelope(std::uint32_t send_op, TransferKind kind) {
  const Op& op = program().ops[send_op];
  const auto peer = static_cast<RankId>(op.peer);
  const bool eager = kind == TransferKind::eager;
  if (credit_share_ != 0) {
    std::deque<Held>& held = held_[peer];
    if (!held.empty() || (eager && credit_in_use_[peer] + op.bytes > credit_share_)) {
      held.push_back({send_op, kind});
      return;
    }
    if (eager) credit_in_use_[peer] += op.bytes;
  }
  const std::uint32_t envelope = config_.protocol.envelope_bytes;
  inject(peer, kind, send_op, eager ? envelope + op.bytes : envelope);
  if (eager) requests_[op.request].complete = true;
}

void RankModel::inject(RankId peer, TransferKind kind, std::uint32_t word, std::uint64_t bytes,
                       std::int64_t aux) {
  Transfer t;
  t.src = rank_;
  t.dst = peer;
  t.kind = kind;
  t.word = word;
  t.bytes = bytes;
  t.aux = aux;
  network_.send(t);
}

void RankModel::work_done(const WorkItem& w) {
  const std::uint32_t envelope = config_.protocol.envelope_bytes;
  const bool get = config_.protocol.rendezvous == mpiemul::RendezvousMode::get;
  switch (w.kind) {
    case WorkKind::eager_copy:
      requests_[w.request].complete = true;
      if (w.credit) {
        const std::uint64_t bytes = peer_op(w.peer, w.peer_op).bytes;
        inject(w.peer, TransferKind::credit, static_cast<std::uint32_t>(bytes), envelope);
      }
      return;
    case WorkKind::rts_reply:
      inject(w.peer, get ? TransferKind::get : TransferKind::cts, w.peer_op, envelope);
      return;
    case WorkKind::cts_push:
      inject(w.peer, TransferKind::data, w.peer_op, program().ops[w.peer_op].bytes);
      requests_[w.request].complete = true;
      return;
    case WorkKind::rndv_data:
      requests_[w.request].complete = true;
      if (get) inject(w.peer, TransferKind::fin, w.peer_op, envelope);
      return;
    case WorkKind::fin:
      requests_[w.request].complete = true;
      return;
    case WorkKind::single_copy:
      requests_[w.request].complete = true;
      inject(w.peer, TransferKind::fin, w.peer_op, envelope);
      return;
  }
}

SimTime RankModel::send_cost(std::uint64_t bytes, bool rendezvous) const {
  return mpiemul::send_cost(config_.costs, bytes, rendezvous);
}

SimTime RankModel::recv_cost(std::uint64_t bytes, bool rendezvous) const {
  return mpiemul::recv_cost(config_.costs, bytes, rendezvous);
}

bool RankModel::same_host(RankId a, RankId b) const {
  return config_.rank_hosts.at(a) == config_.rank_hosts.at(b);
}

bool RankModel::is_local(const Op& op) const {
  return op.peer != mpiemul::kAnySource && same_host(static_cast<RankId>(op.peer), rank_);
}

SimTime RankModel::local_copy_cost(std::uint64_t bytes) const {
  return mpiemul::local_copy_cost(config_.costs, config_.shm, bytes);
}

SimTime RankModel::local_single_copy_cost(std::uint64_t bytes) const {
  return mpiemul::local_single_copy_cost(config_.costs, config_.shm, bytes);
}

}  // namespace netwarp::simgrid_check
