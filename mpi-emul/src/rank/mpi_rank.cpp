// MpiRank: the CPU loop and call accounting.
#include "rank/mpi_rank.hpp"

#include "netwarp/engine/check.hpp"

namespace netwarp::mpiemul {

using engine::EventCtx;
using netmodels::NodeId;

MpiRank::MpiRank(RankId rank, NodeId host, HostLink& link, const MpiContext& mpi)
    : host_(host),
      mpi_(mpi),
      rank_(rank),
      link_(link),
      requests_(mpi.rank_program(rank).request_count, Request{}) {}

void MpiRank::init(engine::InitCtx& ctx) {
  ctx.send_self(engine::ps(1), RankWake::of(mpi_.slot_of(rank_), 0));
}

// The first wake (seq 0) starts the program at 1 ps; later ones end the current activity.
void MpiRank::on_wake(const RankWake& ev, EventCtx& ctx) {
  if (ev.count() != 0) {
    NW_CHECK(ev.count() == (cpu_.get().wake_seq & RankWake::kCountMask), "rank {}: stale wake {}",
             rank_, ev.count());
    activity_done(ctx);
  }
  advance(ctx);
}

void MpiRank::advance_if_idle(EventCtx& ctx) {
  if (cpu_.get().activity == Activity::none) advance(ctx);
}

bool MpiRank::in_mpi() const {
  const Cpu& c = cpu_.get();
  if (c.op >= program().ops.size()) return true;  // finalize: progress the rest
  return program().calls[c.call].kind != CallKind::compute;
}

// Runs the rank until its CPU is busy or it must wait for a message.
void MpiRank::advance(EventCtx& ctx) {
  while (cpu_.get().activity == Activity::none) {
    begin_call_if_due(ctx);
    const Cpu& c = cpu_.get();
    if (in_mpi() && !work_.empty()) {
      unblock(ctx);
      start_activity(Activity::work, SimTime::from_ps(work_.front().cost_ps), ctx);
      continue;
    }
    if (c.op >= program().ops.size()) return;
    const Op& op = program().ops[c.op];
    if (c.op_started == 0) {
      start_own_action(op, ctx);
      continue;
    }
    note_wait_progress(op, ctx);
    if (op_complete(op)) {
      unblock(ctx);
      finish_op(ctx);
    } else {
      block(ctx);
      return;
    }
  }
}

// Zero-cost activities end at once, so hand-computed times stay exact.
void MpiRank::start_activity(Activity a, SimTime cost, EventCtx& ctx) {
  Cpu c = cpu_.get();
  c.activity = a;
  c.activity_cost_ps = cost.ps();
  if (cost.ps() == 0) {
    ctx.set(cpu_, c);
    activity_done(ctx);
    return;
  }
  ++c.wake_seq;
  if ((c.wake_seq & RankWake::kCountMask) == 0) ++c.wake_seq;  // count 0 is the first wake
  ctx.set(cpu_, c);
  ctx.send_self(cost, RankWake::of(mpi_.slot_of(rank_), c.wake_seq));
}

void MpiRank::activity_done(EventCtx& ctx) {
  Cpu c = cpu_.get();
  const Activity a = c.activity;
  const std::int64_t cost = c.activity_cost_ps;
  c.activity = Activity::none;
  ctx.set(cpu_, c);
  switch (a) {
    case Activity::compute:
      update_account(ctx, [&](CallAccount& acc) { acc.compute_ps += cost; });
      finish_op(ctx);
      break;
    case Activity::own:
      update_account(ctx, [&](CallAccount& acc) { acc.overhead_ps += cost; });
      own_action_done(program().ops[c.op], ctx);
      break;
    case Activity::work: {
      if (c.op < program().ops.size())
        update_account(ctx, [&](CallAccount& acc) { acc.overhead_ps += cost; });
      const WorkItem w = ctx.pop_front(work_);
      work_done(w, ctx);
      break;
    }
    case Activity::none:
      NW_CHECK(false, "rank {}: an activity ended while none ran", rank_);
  }
}

void MpiRank::block(EventCtx& ctx) {
  Cpu c = cpu_.get();
  const Phase phase = waiting_phase(program().ops[c.op]);
  if (c.blocked != 0 && c.block_phase == phase) return;
  unblock(ctx);
  c = cpu_.get();
  c.blocked = 1;
  c.block_phase = phase;
  c.block_start_ps = ctx.now().ps();
  ctx.set(cpu_, c);
}

// Closes the blocked interval into the bucket of what the rank waited for.
void MpiRank::unblock(EventCtx& ctx) {
  Cpu c = cpu_.get();
  if (c.blocked == 0) return;
  const std::int64_t waited = ctx.now().ps() - c.block_start_ps;
  const Phase phase = c.block_phase;
  c.blocked = 0;
  ctx.set(cpu_, c);
  update_account(ctx, [&](CallAccount& acc) {
    switch (phase) {
      case Phase::send_throttled:
        acc.send_wait_ps += waited;
        break;
      case Phase::send_rts:
      case Phase::recv_rndv:
        acc.sync_ps += waited;
        break;
      default:
        acc.recv_wait_ps += waited;
        break;
    }
  });
}

void MpiRank::begin_call_if_due(EventCtx& ctx) {
  while (cpu_.get().call < program().calls.size() && account_.get().started == 0) {
    CallAccount acc;
    acc.start_ps = ctx.now().ps();
    acc.started = 1;
    ctx.set(account_, acc);
    if (program().calls[cpu_.get().call].op_count != 0) return;
    end_call(ctx);  // a call without operations (e.g. a barrier of one rank)
  }
  if (program().calls.empty() && cpu_.get().done_ps < 0) {
    Cpu c = cpu_.get();
    c.done_ps = ctx.now().ps();
    ctx.set(cpu_, c);
  }
}

void MpiRank::finish_op(EventCtx& ctx) {
  Cpu c = cpu_.get();
  ++c.op;
  c.op_started = 0;
  c.wait_done = 0;
  ctx.set(cpu_, c);
  const Call& call = program().calls[c.call];
  if (c.op == call.first_op + call.op_count) end_call(ctx);
}

void MpiRank::end_call(EventCtx& ctx) {
  Cpu c = cpu_.get();
  const Call& call = program().calls[c.call];
  const CallAccount& acc = account_.get();
  CallRecord r;
  r.rank = rank_;
  r.call = c.call;
  r.start_ps = acc.start_ps;
  r.end_ps = ctx.now().ps();
  r.overhead_ps = acc.overhead_ps;
  r.send_wait_ps = acc.send_wait_ps;
  r.recv_wait_ps = acc.recv_wait_ps;
  r.sync_ps = acc.sync_ps;
  r.compute_ps = acc.compute_ps;
  r.bytes = call.bytes;
  r.peer = call.peer;
  r.tag = call.tag;
  r.kind = call.kind;
  r.protocol = acc.protocol;
  ctx.emit(r);
  ++c.call;
  if (c.call == program().calls.size()) c.done_ps = ctx.now().ps();
  ctx.set(cpu_, c);
  ctx.set(account_, CallAccount{});
}

void MpiRank::note_protocol(Protocol p, EventCtx& ctx) {
  update_account(ctx, [&](CallAccount& acc) {
    if (acc.protocol == Protocol::none) {
      acc.protocol = p;
    } else if (acc.protocol != p) {
      acc.protocol = Protocol::mixed;
    }
  });
}

void MpiRank::finish(engine::FinishCtx& ctx) const {
  const Cpu& c = cpu_.get();
  RankSummary s;
  s.rank = rank_;
  s.host = host_;
  s.end_ps = c.done_ps;
  s.calls_done = c.call;
  s.stuck_op = c.op;
  s.throttled_sends = static_cast<std::uint64_t>(throttled_sends_.get());
  s.throttle_wait_ps = throttle_wait_ps_.get();
  s.unexpected_messages = static_cast<std::uint64_t>(unexpected_messages_.get());
  s.unexpected_peak_bytes = unexpected_peak_bytes_.get();
  s.direct_hits = static_cast<std::uint64_t>(direct_hits_.get());
  s.direct_misses = static_cast<std::uint64_t>(direct_misses_.get());
  ctx.emit(s);
}

void MpiRank::visit_state(engine::StateVisitor& v) const {
  v("cpu", cpu_);
  v("account", account_);
  v("requests", requests_);
  v("work", work_);
  v("posted", posted_.entries());
  v("posted_wildcards", posted_.wildcards());
  v("unexpected", unexpected_.entries());
  v("rendezvous_in", rendezvous_in_);
  v("credit_in_use", credit_in_use_);
  v("held", held_);
  v("receive_requests", receive_requests_);
  v("next_seq", next_seq_);
  v("unexpected_bytes", unexpected_bytes_);
  v("unexpected_peak_bytes", unexpected_peak_bytes_);
  v("unexpected_messages", unexpected_messages_);
  v("throttled_sends", throttled_sends_);
  v("throttle_wait_ps", throttle_wait_ps_);
  v("direct_hits", direct_hits_);
  v("direct_misses", direct_misses_);
}

}  // namespace netwarp::mpiemul
