// SharedHostLp: one NIC, two senders; each event to its part.
#include "rank/shared_host_lp.hpp"

#include "netwarp/netmodels/stream_transport.hpp"

namespace netwarp::mpiemul {

using engine::EventCtx;

SharedHostLp::SharedHostLp(netmodels::NodeId host, const netmodels::NetworkContext& net,
                           const MpiContext& mpi)
    : flows_(host, net), mpi_(host, net, mpi, &flows_.nic()) {}

void SharedHostLp::init(engine::InitCtx& ctx) {
  flows_.init(ctx);
  mpi_.init(ctx);
}

void SharedHostLp::on(const netmodels::PacketArrived& ev, EventCtx& ctx) {
  if (netmodels::is_stream_packet(ev.packet)) {
    mpi_.on(ev, ctx);
  } else {
    flows_.on(ev, ctx);
  }
}

// The NIC counts the credit once (the workload part owns it); then both senders may go on.
void SharedHostLp::on(const netmodels::CreditReturned& ev, EventCtx& ctx) {
  flows_.on(ev, ctx);
  mpi_.on_shared_nic_credit(ctx);
}

void SharedHostLp::on(const netmodels::TimerFired& ev, EventCtx& ctx) {
  if (netmodels::is_stream_timer(ev)) {
    mpi_.on(ev, ctx);
  } else {
    flows_.on(ev, ctx);
  }
}

// Each sender ignores a refill it did not request (LosslessSender::on_refill_due).
void SharedHostLp::on(const netmodels::LosslessRefillDue& ev, EventCtx& ctx) {
  flows_.on(ev, ctx);
  mpi_.on(ev, ctx);
}

void SharedHostLp::finish(engine::FinishCtx& ctx) {
  flows_.finish(ctx);
  mpi_.finish(ctx);
}

void SharedHostLp::visit_state(engine::StateVisitor& v) const {
  flows_.visit_state(v);
  mpi_.visit_state(v);
}

}  // namespace netwarp::mpiemul
