// MpiRank: sending envelopes (with eager credit) and the protocol work the CPU does.
#include <algorithm>

#include "netwarp/engine/check.hpp"
#include "rank/mpi_rank.hpp"

namespace netwarp::mpiemul {

using engine::EventCtx;

// Eager data needs credit when the unexpected buffer is bounded; an envelope that cannot go
// (or that would overtake one held back) waits, in order, for credit to return.
void MpiRank::send_envelope(std::uint32_t send_op, TransferKind kind, EventCtx& ctx) {
  const Op& op = program().ops[send_op];
  const auto peer = static_cast<RankId>(op.peer);
  const std::uint32_t envelope = mpi_.protocol().envelope_bytes;
  const bool eager = kind == TransferKind::eager;
  if (mpi_.credit_share() != 0) {
    auto held = held_.lower_bound(PeerSeq{peer, 0, 0});
    const bool queue_busy = held != held_.end() && held->first.rank == peer;
    const std::uint64_t* stored = credit_in_use_.find(peer);
    const std::uint64_t in_use = stored == nullptr ? 0 : *stored;
    if (queue_busy || (eager && in_use + op.bytes > mpi_.credit_share())) {
      ctx.put(held_, PeerSeq{peer, 0, static_cast<std::uint64_t>(next_seq_.get())},
              Held{ctx.now().ps(), send_op, kind});
      ctx.add(next_seq_, 1);
      if (eager) {
        ctx.add(throttled_sends_, 1);
        set_phase(op.request, Phase::send_throttled, ctx);
      }
      return;
    }
    if (eager) ctx.put(credit_in_use_, peer, in_use + op.bytes);
  }
  inject(peer, kind, send_op, eager ? envelope + op.bytes : envelope, 0, ctx);
  if (eager) complete_request(op.request, ctx);
}

void MpiRank::inject(RankId peer, TransferKind kind, std::uint32_t word, std::uint64_t bytes,
                     std::int64_t aux, EventCtx& ctx) {
  netmodels::TransferTag tag;
  tag.bytes = bytes;
  tag.aux = aux;
  tag.word = word;
  tag.kind = static_cast<std::uint8_t>(kind);
  link_.send(rank_, peer, tag, ctx);
}

void MpiRank::queue_work(const WorkItem& w, EventCtx& ctx) {
  ctx.push_back(work_, w);
}

void MpiRank::work_done(const WorkItem& w, EventCtx& ctx) {
  const std::uint32_t envelope = mpi_.protocol().envelope_bytes;
  switch (w.kind) {
    case WorkKind::eager_copy:
      complete_request(w.request, ctx);
      if (w.credit != 0) {  // the credit's size: low half in the word, high half in aux
        const std::uint64_t bytes = mpi_.rank_program(w.peer).ops[w.peer_op].bytes;
        inject(w.peer, TransferKind::credit, static_cast<std::uint32_t>(bytes), envelope,
               static_cast<std::int64_t>(bytes >> 32), ctx);
      }
      return;
    case WorkKind::rts_reply: {
      set_phase(w.request, Phase::recv_rndv, ctx);
      const bool get = mpi_.protocol().rendezvous == RendezvousMode::get;
      inject(w.peer, get ? TransferKind::get : TransferKind::cts, w.peer_op, envelope, w.aux, ctx);
      return;
    }
    case WorkKind::cts_push:
      carve_lateness(w.aux, ctx);
      link_.send_data(rank_, w.peer, w.peer_op, program().ops[w.peer_op].bytes, ctx);
      complete_request(w.request, ctx);
      return;
    case WorkKind::rndv_data:
      complete_request(w.request, ctx);
      if (mpi_.protocol().rendezvous == RendezvousMode::get)
        inject(w.peer, TransferKind::fin, w.peer_op, envelope, 0, ctx);
      return;
    case WorkKind::rndv_fragment:
      return;
    case WorkKind::single_copy:
      complete_request(w.request, ctx);
      inject(w.peer, TransferKind::fin, w.peer_op, envelope, w.aux, ctx);
      return;
    case WorkKind::fin:
      carve_lateness(w.aux, ctx);
      complete_request(w.request, ctx);
      return;
  }
}

void MpiRank::complete_request(std::uint32_t request, EventCtx& ctx) {
  set_phase(request, Phase::complete, ctx);
}

void MpiRank::set_phase(std::uint32_t request, Phase phase, EventCtx& ctx) {
  Request r = requests_[request];
  r.phase = phase;
  ctx.set(requests_, request, r);
}

// A rendezvous sender's wait for clear to send was partly the receiver being late: that part
// is send wait, the rest (the handshake itself) synchronisation.
void MpiRank::carve_lateness(std::int64_t lateness_ps, EventCtx& ctx) {
  if (lateness_ps <= 0 || cpu_.get().op >= program().ops.size()) return;
  update_account(ctx, [&](CallAccount& acc) {
    const std::int64_t moved = std::min(lateness_ps, acc.sync_ps);
    acc.sync_ps -= moved;
    acc.send_wait_ps += moved;
  });
}

Protocol MpiRank::protocol_of(TransferKind kind, std::uint64_t bytes) const {
  switch (kind) {
    case TransferKind::rts:
      return Protocol::rendezvous;
    case TransferKind::direct:
      return Protocol::direct;
    default:
      return bytes <= mpi_.protocol().short_bytes ? Protocol::short_msg : Protocol::eager;
  }
}

// Intra-node eager: o, and the copy into (sender) or out of (receiver) the shared buffer.
SimTime MpiRank::local_copy_cost(std::uint64_t bytes) const {
  return mpiemul::local_copy_cost(mpi_.costs(), mpi_.config().shm, bytes);
}

// Intra-node rendezvous, at the receiver: o for the request, then one copy straight from the
// sender's buffer.
SimTime MpiRank::local_single_copy_cost(std::uint64_t bytes) const {
  return mpiemul::local_single_copy_cost(mpi_.costs(), mpi_.config().shm, bytes);
}

SimTime MpiRank::send_cost(std::uint64_t bytes, bool rendezvous) const {
  return mpiemul::send_cost(mpi_.costs(), bytes, rendezvous);
}

SimTime MpiRank::recv_cost(std::uint64_t bytes, bool rendezvous) const {
  return mpiemul::recv_cost(mpi_.costs(), bytes, rendezvous);
}

}  // namespace netwarp::mpiemul
