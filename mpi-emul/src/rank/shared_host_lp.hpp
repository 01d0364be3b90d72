// SharedHostLp: a host that runs MPI ranks and packet workloads at once (a job beside other
// traffic on one fabric). The host has one NIC: the workload part (netmodels::HostLp) owns it
// and the MPI part (MpiHostLp) sends through it, so both queue for the same link. Each event
// goes to the part it belongs to: packets and timers by the stream transport's marks
// (netmodels::is_stream_packet, is_stream_timer), the ranks' own events to the MPI part,
// MessageDue to the workload part; returned credit and lossless refills wake both senders.
#pragma once

#include "netwarp/engine/lp.hpp"
#include "netwarp/netmodels/host_lp.hpp"
#include "rank/mpi_host_lp.hpp"

namespace netwarp::mpiemul {

class SharedHostLp {
 public:
  using Handles =
      engine::EventSet<netmodels::PacketArrived, netmodels::CreditReturned, netmodels::MessageDue,
                       netmodels::TimerFired, netmodels::LosslessRefillDue, RankWake, LocalDelivery,
                       FragmentDue>;
  SharedHostLp(netmodels::NodeId host, const netmodels::NetworkContext& net, const MpiContext& mpi);

  void init(engine::InitCtx& ctx);
  void on(const netmodels::PacketArrived& ev, engine::EventCtx& ctx);
  void on(const netmodels::CreditReturned& ev, engine::EventCtx& ctx);
  void on(const netmodels::MessageDue& ev, engine::EventCtx& ctx) { flows_.on(ev, ctx); }
  void on(const netmodels::TimerFired& ev, engine::EventCtx& ctx);
  void on(const netmodels::LosslessRefillDue& ev, engine::EventCtx& ctx);
  void on(const RankWake& ev, engine::EventCtx& ctx) { mpi_.on(ev, ctx); }
  void on(const LocalDelivery& ev, engine::EventCtx& ctx) { mpi_.on(ev, ctx); }
  void on(const FragmentDue& ev, engine::EventCtx& ctx) { mpi_.on(ev, ctx); }
  void finish(engine::FinishCtx& ctx);
  void visit_state(engine::StateVisitor& v) const;

 private:
  netmodels::HostLp flows_;  // first: it owns the NIC that mpi_ sends through
  MpiHostLp mpi_;
};

}  // namespace netwarp::mpiemul
