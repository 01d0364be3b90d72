// MpiRank: what each operation does itself (its own overhead and action), and what it
// waits for.
#include "netwarp/engine/check.hpp"
#include "rank/mpi_rank.hpp"

namespace netwarp::mpiemul {

using engine::EventCtx;

void MpiRank::start_own_action(const Op& op, EventCtx& ctx) {
  const SimTime o = mpi_.costs().o;
  switch (op.kind) {
    case OpKind::compute:
      start_activity(Activity::compute, SimTime::from_ps(static_cast<SimTime::Rep>(op.bytes)), ctx);
      return;
    case OpKind::send: {
      const bool direct = mpi_.protocol().sender_side_matching && take_receive_request(op, ctx);
      Request r = requests_[op.request];
      r.protocol = choose_protocol(op, direct);
      r.phase = Phase::idle;
      ctx.set(requests_, op.request, r);
      note_protocol(r.protocol, ctx);
      const bool long_message = op.bytes > mpi_.protocol().eager_bytes;
      SimTime cost = o;
      if (r.protocol != Protocol::rendezvous) cost = send_cost(op.bytes, long_message);
      if (r.protocol != Protocol::rendezvous && is_local(op)) cost = local_copy_cost(op.bytes);
      start_activity(Activity::own, cost, ctx);
      return;
    }
    case OpKind::recv:
      start_activity(Activity::own, op.blocking != 0 ? SimTime{} : o, ctx);
      return;
    case OpKind::wait:
      if (!op_complete(op)) {  // nothing of its own: it only waits
        Cpu c = cpu_.get();
        c.op_started = 1;
        ctx.set(cpu_, c);
        return;
      }
      start_activity(Activity::own, o, ctx);
      return;
    case OpKind::test:
      start_activity(Activity::own, o, ctx);
      return;
  }
}

void MpiRank::own_action_done(const Op& op, EventCtx& ctx) {
  const std::uint32_t index = cpu_.get().op;
  switch (op.kind) {
    case OpKind::send: {
      const Request& r = requests_[op.request];
      if (r.protocol == Protocol::direct) {
        inject(static_cast<RankId>(op.peer), TransferKind::direct, index,
               mpi_.protocol().envelope_bytes + op.bytes, r.target, ctx);
        complete_request(op.request, ctx);
      } else if (r.protocol == Protocol::rendezvous) {
        set_phase(op.request, Phase::send_rts, ctx);
        send_envelope(index, TransferKind::rts, ctx);
      } else {
        send_envelope(index, TransferKind::eager, ctx);
      }
      break;
    }
    case OpKind::recv:
      post_receive(op, ctx);
      break;
    default:
      finish_op(ctx);
      return;
  }
  if (op.blocking != 0) {
    Cpu c = cpu_.get();
    c.op_started = 1;
    ctx.set(cpu_, c);
  } else {
    finish_op(ctx);
  }
}

bool MpiRank::op_complete(const Op& op) const {
  switch (op.kind) {
    case OpKind::send:
    case OpKind::recv:
      return requests_[op.request].phase == Phase::complete;
    case OpKind::wait:
    case OpKind::test:
      for (std::uint32_t i = cpu_.get().wait_done; i < op.count; ++i)
        if (requests_[program().wait_list[op.request + i]].phase != Phase::complete) return false;
      return true;
    case OpKind::compute:
      return true;
  }
  return true;
}

// What the first unfinished request the operation waits for is waiting for.
MpiRank::Phase MpiRank::waiting_phase(const Op& op) const {
  if (op.kind == OpKind::send || op.kind == OpKind::recv) return requests_[op.request].phase;
  for (std::uint32_t i = cpu_.get().wait_done; i < op.count; ++i) {
    const Phase p = requests_[program().wait_list[op.request + i]].phase;
    if (p != Phase::complete) return p;
  }
  return Phase::complete;
}

void MpiRank::note_wait_progress(const Op& op, EventCtx& ctx) {
  if (op.kind != OpKind::wait && op.kind != OpKind::test) return;
  std::uint32_t i = cpu_.get().wait_done;
  while (i < op.count && requests_[program().wait_list[op.request + i]].phase == Phase::complete)
    ++i;
  if (i == cpu_.get().wait_done) return;
  Cpu c = cpu_.get();
  c.wait_done = i;
  ctx.set(cpu_, c);
}

Protocol MpiRank::choose_protocol(const Op& op, bool direct) const {
  if (direct) return Protocol::direct;
  const ProtocolConfig& pc = mpi_.protocol();
  const std::uint64_t eager_limit = is_local(op) ? mpi_.config().shm.eager_bytes : pc.eager_bytes;
  if (op.bytes > eager_limit) return Protocol::rendezvous;
  // A message larger than the whole eager credit toward one peer could never go eagerly.
  if (mpi_.credit_share() != 0 && op.bytes > mpi_.credit_share()) return Protocol::rendezvous;
  return op.bytes <= pc.short_bytes ? Protocol::short_msg : Protocol::eager;
}

// Sender-side matching: the first receive request from the destination that this send
// matches, unless envelopes to it are held back (a direct write must not overtake them).
bool MpiRank::take_receive_request(const Op& op, EventCtx& ctx) {
  const auto peer = static_cast<RankId>(op.peer);
  auto held = held_.lower_bound(PeerSeq{peer, 0, 0});
  if (held != held_.end() && held->first.rank == peer) return false;
  const RankProgram& receiver = mpi_.rank_program(peer);
  for (auto it = receive_requests_.lower_bound(PeerSeq{peer, 0, 0});
       it != receive_requests_.end() && it->first.rank == peer; ++it) {
    const Op& recv = receiver.ops[it->second.recv_op];
    if (recv.comm != op.comm || (recv.tag != kAnyTag && recv.tag != op.tag)) continue;
    Request r = requests_[op.request];
    r.target = it->second.request;
    ctx.set(requests_, op.request, r);
    ctx.erase(receive_requests_, it->first);
    return true;
  }
  return false;
}

// A receive is posted: the oldest unexpected envelope that matches is its message; otherwise
// it waits in the posted queue (and, with sender-side matching, tells its source).
void MpiRank::post_receive(const Op& op, EventCtx& ctx) {
  const std::uint32_t index = cpu_.get().op;
  if (const auto found = unexpected_.take(op.comm, op.peer, op.tag, ctx)) {
    match_envelope(found->src, found->send_op, found->kind, index, true, found->arrived_ps, ctx);
    return;
  }
  posted_.post(op, index, static_cast<std::uint64_t>(next_seq_.get()), ctx);
  ctx.add(next_seq_, 1);
  set_phase(op.request, Phase::recv_posted, ctx);
  if (mpi_.protocol().sender_side_matching && op.peer != kAnySource)
    inject(static_cast<RankId>(op.peer), TransferKind::receive_request, index,
           mpi_.protocol().envelope_bytes, op.request, ctx);
}

}  // namespace netwarp::mpiemul
