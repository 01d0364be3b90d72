// RankModel: transfers from other ranks. Envelopes are matched on arrival; the protocol work
// they need waits in the work queue until the rank is in MPI. Mirrors
// mpi-emul/src/rank/arrivals.cpp.
#include <stdexcept>

#include <fmt/format.h>

#include "rank_model.hpp"

namespace netwarp::simgrid_check {

using mpiemul::Op;

void RankModel::on_transfer(const Transfer& t) {
  const SimTime o = config_.costs.o;
  const RankId src = t.src;
  switch (t.kind) {
    case TransferKind::eager:
    case TransferKind::rts:
    case TransferKind::direct:
      on_envelope(t);
      return;
    case TransferKind::cts: {  // clear to send our op `word`
      const Op& op = program().ops[t.word];
      work_.push_back({o + send_cost(op.bytes, true), WorkKind::cts_push, op.request, src, t.word});
      return;
    }
    case TransferKind::data: {  // rendezvous data of the sender's op `word`
      const auto found = rendezvous_in_.find({src, t.word});
      if (found == rendezvous_in_.end())
        throw std::logic_error(
            fmt::format("rank {}: rendezvous data of ({}, {}) never matched", rank_, src, t.word));
      const std::uint32_t request = found->second;
      rendezvous_in_.erase(found);
      const std::uint64_t bytes = peer_op(src, t.word).bytes;
      work_.push_back({recv_cost(bytes, true), WorkKind::rndv_data, request, src, t.word});
      return;
    }
    case TransferKind::get:  // the receiver reads our op's data: the NIC serves it
      inject(src, TransferKind::data, t.word, program().ops[t.word].bytes);
      return;
    case TransferKind::fin:
      work_.push_back({o, WorkKind::fin, program().ops[t.word].request, src, t.word});
      return;
    case TransferKind::receive_request:
      receive_requests_[src].push_back({t.word, static_cast<std::uint32_t>(t.aux)});
      return;
    case TransferKind::credit:
      on_credit(src, t.word);
      return;
  }
}

// An envelope (eager data, rendezvous request or direct write) matches the oldest posted
// receive it fits, or waits in the unexpected queue.
void RankModel::on_envelope(const Transfer& t) {
  const Op& send = peer_op(t.src, t.word);
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if (!mpiemul::receive_matches(program().ops[*it], t.src, send)) continue;
    const std::uint32_t recv_op = *it;
    posted_.erase(it);
    match_envelope(t.src, t.word, t.kind, recv_op, false);
    return;
  }
  unexpected_.push_back({t.src, t.word, t.kind});
}

// Receive op `recv_op` takes the message of (src, send_op): queue its work.
void RankModel::match_envelope(RankId src, std::uint32_t send_op, TransferKind kind,
                               std::uint32_t recv_op, bool unexpected) {
  const Op& send = peer_op(src, send_op);
  const std::uint32_t request = program().ops[recv_op].request;
  const mpiemul::HostCosts& costs = config_.costs;
  if (kind == TransferKind::rts && same_host(src, rank_)) {
    work_.push_back(
        {local_single_copy_cost(send.bytes), WorkKind::single_copy, request, src, send_op});
    return;
  }
  if (kind == TransferKind::rts) {
    rendezvous_in_[{src, send_op}] = request;
    work_.push_back({costs.o + costs.o, WorkKind::rts_reply, request, src, send_op});
    return;
  }
  const bool long_direct =
      kind == TransferKind::direct && send.bytes > config_.protocol.eager_bytes;
  SimTime cost = recv_cost(send.bytes, long_direct);
  if (unexpected) cost = cost + mpiemul::per_byte(send.bytes, costs.copy_fs_per_byte);
  if (kind == TransferKind::eager && same_host(src, rank_)) cost = local_copy_cost(send.bytes);
  const bool credit = kind == TransferKind::eager && credit_share_ != 0;
  work_.push_back({cost, WorkKind::eager_copy, request, src, send_op, credit});
}

void RankModel::on_credit(RankId peer, std::uint64_t bytes) {
  if (credit_in_use_[peer] < bytes)
    throw std::logic_error(
        fmt::format("rank {}: credit of {} B from {} not owed", rank_, bytes, peer));
  credit_in_use_[peer] -= bytes;
  release_held(peer);
}

// Sends held envelopes to `peer` in order while eager credit allows.
void RankModel::release_held(RankId peer) {
  std::deque<Held>& held = held_[peer];
  while (!held.empty()) {
    const Held h = held.front();
    const Op& op = program().ops[h.send_op];
    const bool eager = h.kind == TransferKind::eager;
    if (eager && credit_in_use_[peer] + op.bytes > credit_share_) return;
    held.pop_front();
    if (eager) {
      credit_in_use_[peer] += op.bytes;
      inject(peer, h.kind, h.send_op, config_.protocol.envelope_bytes + op.bytes);
      requests_[op.request].complete = true;
    } else {
      inject(peer, h.kind, h.send_op, config_.protocol.envelope_bytes);
    }
  }
}

}  // namespace netwarp::simgrid_check
