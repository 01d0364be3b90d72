// MpiRank: transfers from other ranks. The NIC matches envelopes on arrival; the protocol
// work they need waits in the work queue until the rank is in MPI.
#include <algorithm>

#include "netwarp/engine/check.hpp"
#include "rank/mpi_rank.hpp"

namespace netwarp::mpiemul {

using engine::EventCtx;

void MpiRank::on_transfer(const netmodels::ReceivedTransfer& t, RankId src, EventCtx& ctx) {
  const SimTime o = mpi_.costs().o;
  const std::uint32_t word = t.tag.word;
  switch (static_cast<TransferKind>(t.tag.kind)) {
    case TransferKind::eager:
    case TransferKind::rts:
    case TransferKind::direct:
      on_envelope(src, t.tag, ctx);
      return;
    case TransferKind::cts: {  // clear to send our op `word`
      const Op& op = program().ops[word];
      const SimTime cost = o.saturating_add(send_cost(op.bytes, true));
      queue_work({cost.ps(), t.tag.aux, op.request, src, word, WorkKind::cts_push}, ctx);
      return;
    }
    case TransferKind::data: {  // rendezvous data of the sender's op `word`
      const PeerOp key{src, word};
      const std::uint32_t* request = rendezvous_in_.find(key);
      NW_CHECK(request != nullptr, "rank {}: rendezvous data of ({}, {}) never matched", rank_, src,
               word);
      const std::uint32_t req = *request;
      ctx.erase(rendezvous_in_, key);
      queue_work({recv_cost(t.tag.bytes, true).ps(), 0, req, src, word, WorkKind::rndv_data}, ctx);
      return;
    }
    case TransferKind::fragment: {  // a pipelined fragment before the last: copy it out
      const std::uint32_t* request = rendezvous_in_.find(PeerOp{src, word});
      NW_CHECK(request != nullptr, "rank {}: fragment of ({}, {}) never matched", rank_, src, word);
      const SimTime cost = per_byte(t.tag.bytes, mpi_.costs().recv_rndv_fs_per_byte);
      queue_work({cost.ps(), 0, *request, src, word, WorkKind::rndv_fragment}, ctx);
      return;
    }
    case TransferKind::get: {  // the receiver reads our op's data: the NIC serves it
      const Op& op = program().ops[word];
      Request r = requests_[op.request];
      r.lateness_ps = t.tag.aux;
      ctx.set(requests_, op.request, r);
      link_.send_data(rank_, src, word, op.bytes, ctx);
      return;
    }
    case TransferKind::fin: {
      const Op& op = program().ops[word];  // intra-node, the single copy's FIN brings lateness
      const std::int64_t lateness =
          mpi_.same_host(src, rank_) ? t.tag.aux : requests_[op.request].lateness_ps;
      queue_work({o.ps(), lateness, op.request, src, word, WorkKind::fin}, ctx);
      return;
    }
    case TransferKind::receive_request:
      ctx.put(receive_requests_, PeerSeq{src, 0, static_cast<std::uint64_t>(next_seq_.get())},
              ReceiveRequest{word, static_cast<std::uint32_t>(t.tag.aux)});
      ctx.add(next_seq_, 1);
      return;
    case TransferKind::credit:  // its size: low half in the word, high half in aux
      on_credit(src, static_cast<std::uint64_t>(t.tag.aux) << 32 | word, ctx);
      return;
  }
  NW_CHECK(false, "rank {}: unknown MPI transfer kind {}", rank_, t.tag.kind);
}

// An envelope (eager data, rendezvous request or direct write) matches the oldest posted
// receive it fits, or waits in the unexpected queue.
void MpiRank::on_envelope(RankId src, const netmodels::TransferTag& tag, EventCtx& ctx) {
  const auto kind = static_cast<TransferKind>(tag.kind);
  const Op& send = mpi_.rank_program(src).ops[tag.word];
  if (const auto recv_op = posted_.take(send.comm, src, send.tag, ctx)) {
    const Op& recv = program().ops[*recv_op];
    if (kind == TransferKind::direct)
      ctx.add(recv.request == static_cast<std::uint32_t>(tag.aux) ? direct_hits_ : direct_misses_,
              1);
    match_envelope(src, tag.word, kind, *recv_op, false, ctx.now().ps(), ctx);
    return;
  }
  if (kind == TransferKind::direct) ctx.add(direct_misses_, 1);
  Unexpected u{ctx.now().ps(), src, tag.word, kind};
  u.tag = send.tag;
  unexpected_.add(send.comm, send.tag, static_cast<std::uint64_t>(next_seq_.get()), u, ctx);
  ctx.add(next_seq_, 1);
  ctx.add(unexpected_messages_, 1);
  if (kind != TransferKind::rts) {
    ctx.add(unexpected_bytes_, static_cast<std::int64_t>(send.bytes));
    const auto now_bytes = static_cast<std::uint64_t>(unexpected_bytes_.get());
    if (now_bytes > unexpected_peak_bytes_.get()) ctx.set(unexpected_peak_bytes_, now_bytes);
  }
}

// Receive op `recv_op` takes the message of (src, send_op): record it and queue its work.
void MpiRank::match_envelope(RankId src, std::uint32_t send_op, TransferKind kind,
                             std::uint32_t recv_op, bool unexpected, std::int64_t arrived_ps,
                             EventCtx& ctx) {
  const Op& send = mpi_.rank_program(src).ops[send_op];
  const Op& recv = program().ops[recv_op];
  const Protocol protocol = protocol_of(kind, send.bytes);
  set_phase(recv.request, Phase::recv_copy, ctx);
  note_protocol(protocol, ctx);
  MessageRecord m;
  m.src = src;
  m.dst = rank_;
  m.bytes = send.bytes;
  m.tag = send.tag;
  m.send_op = send_op;
  m.recv_op = recv_op;
  m.comm = send.comm;
  m.protocol = protocol;
  m.unexpected = unexpected ? 1 : 0;
  m.matched_ps = ctx.now().ps();
  ctx.emit(m);
  if (kind == TransferKind::rts) {
    const std::int64_t lateness = ctx.now().ps() - arrived_ps;
    if (mpi_.same_host(src, rank_)) {
      queue_work({local_single_copy_cost(send.bytes).ps(), lateness, recv.request, src, send_op,
                  WorkKind::single_copy},
                 ctx);
      return;
    }
    ctx.put(rendezvous_in_, PeerOp{src, send_op}, recv.request);
    queue_work({(mpi_.costs().o + mpi_.costs().o).ps(), lateness, recv.request, src, send_op,
                WorkKind::rts_reply},
               ctx);
    return;
  }
  if (unexpected) ctx.add(unexpected_bytes_, -static_cast<std::int64_t>(send.bytes));
  const bool long_direct = kind == TransferKind::direct && send.bytes > mpi_.protocol().eager_bytes;
  SimTime cost = recv_cost(send.bytes, long_direct);
  if (unexpected) cost = cost.saturating_add(per_byte(send.bytes, mpi_.costs().copy_fs_per_byte));
  if (kind == TransferKind::eager && mpi_.same_host(src, rank_)) cost = local_copy_cost(send.bytes);
  WorkItem w{cost.ps(), 0, recv.request, src, send_op, WorkKind::eager_copy};
  w.credit = kind == TransferKind::eager && mpi_.credit_share() != 0 ? 1 : 0;
  queue_work(w, ctx);
}

void MpiRank::on_credit(RankId peer, std::uint64_t bytes, EventCtx& ctx) {
  const std::uint64_t* in_use = credit_in_use_.find(peer);
  NW_CHECK(in_use != nullptr && *in_use >= bytes, "rank {}: credit of {} B from {} not owed", rank_,
           bytes, peer);
  ctx.put(credit_in_use_, peer, *in_use - bytes);
  release_held(peer, ctx);
}

// Sends held envelopes to `peer` in order while eager credit allows.
void MpiRank::release_held(RankId peer, EventCtx& ctx) {
  for (auto it = held_.lower_bound(PeerSeq{peer, 0, 0});
       it != held_.end() && it->first.rank == peer;) {
    const Held h = it->second;
    const Op& op = program().ops[h.send_op];
    const std::uint64_t* stored = credit_in_use_.find(peer);
    const std::uint64_t in_use = stored == nullptr ? 0 : *stored;
    if (h.kind == TransferKind::eager && in_use + op.bytes > mpi_.credit_share()) return;
    const PeerSeq key = it->first;
    ++it;
    ctx.erase(held_, key);
    if (h.kind == TransferKind::eager) {
      ctx.put(credit_in_use_, peer, in_use + op.bytes);
      ctx.add(throttle_wait_ps_, ctx.now().ps() - h.since_ps);
      inject(peer, h.kind, h.send_op, mpi_.protocol().envelope_bytes + op.bytes, 0, ctx);
      complete_request(op.request, ctx);
    } else {
      inject(peer, h.kind, h.send_op, mpi_.protocol().envelope_bytes, 0, ctx);
    }
  }
}

}  // namespace netwarp::mpiemul
