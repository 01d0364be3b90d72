// MpiHostLp: a host that runs the MPI ranks placed on it, each on its own CPU (MpiRank), over
// one shared NIC (HostLink: the StreamTransport and the intra-node transport).
//
// Why the ranks of a host share one LP rather than one LP each: the NIC and the connections
// (one per peer host) belong to the host, so separate rank LPs would need a NIC arbiter LP
// between them and the network, and every intra-node message would be an event crossing LPs
// (possibly kernel ranks, and a rollback across them). In one LP an intra-node message is a
// local state change: a LocalDelivery event to this same LP after the shared-memory latency.
// Every rank keeps its own state, call records, timeline and summary, as with one rank per
// host.
#pragma once

#include <vector>

#include "netwarp/engine/lp.hpp"
#include "rank/host_link.hpp"
#include "rank/mpi_rank.hpp"

namespace netwarp::mpiemul {

class MpiHostLp {
 public:
  using Handles =
      engine::EventSet<netmodels::PacketArrived, netmodels::CreditReturned, netmodels::TimerFired,
                       RankWake, LocalDelivery, FragmentDue, netmodels::LosslessRefillDue>;
  // shared_nic: see HostLink (a host that also runs packet workloads, SharedHostLp).
  MpiHostLp(netmodels::NodeId host, const netmodels::NetworkContext& net, const MpiContext& mpi,
            netmodels::OutputPort* shared_nic = nullptr);

  void init(engine::InitCtx& ctx);
  void on(const netmodels::PacketArrived& ev, engine::EventCtx& ctx);
  void on(const netmodels::CreditReturned& ev, engine::EventCtx& ctx);
  // The shared NIC (its owner counted the credit): lossless transfers may go on.
  void on_shared_nic_credit(engine::EventCtx& ctx) { link_.transport().on_shared_nic_credit(ctx); }
  void on(const netmodels::TimerFired& ev, engine::EventCtx& ctx);
  void on(const RankWake& ev, engine::EventCtx& ctx);
  void on(const LocalDelivery& ev, engine::EventCtx& ctx);
  void on(const FragmentDue& ev, engine::EventCtx& ctx);
  void on(const netmodels::LosslessRefillDue& ev, engine::EventCtx& ctx);
  void finish(engine::FinishCtx& ctx);
  void visit_state(engine::StateVisitor& v) const;

 private:
  const netmodels::NodeId host_;
  const MpiContext& mpi_;
  HostLink link_;
  std::vector<MpiRank> ranks_;  // by slot; built once, never resized (ranks hold state)
  std::vector<netmodels::ReceivedTransfer> arrivals_;  // scratch for one handler call
  std::vector<std::uint32_t> touched_;                 // scratch: slots that got a transfer
};

}  // namespace netwarp::mpiemul
