// MpiHostLp: hands the host's events to its ranks and its link.
#include "rank/mpi_host_lp.hpp"

#include <algorithm>

#include "netwarp/engine/check.hpp"

namespace netwarp::mpiemul {

using engine::EventCtx;
using netmodels::NodeId;

MpiHostLp::MpiHostLp(NodeId host, const netmodels::NetworkContext& net, const MpiContext& mpi,
                     netmodels::OutputPort* shared_nic)
    : host_(host), mpi_(mpi), link_(host, net, mpi, shared_nic) {
  const std::vector<RankId>& ranks = mpi.ranks_on(host);
  ranks_.reserve(ranks.size());
  for (RankId r : ranks) ranks_.emplace_back(r, host, link_, mpi);
}

void MpiHostLp::init(engine::InitCtx& ctx) {
  for (MpiRank& r : ranks_) r.init(ctx);
}

// All complete transfers are handed over first, then each rank that got one runs on, in slot
// order.
void MpiHostLp::on(const netmodels::PacketArrived& ev, EventCtx& ctx) {
  arrivals_.clear();
  link_.transport().on_packet(ev.packet, ctx, arrivals_);
  if (arrivals_.empty()) return;
  NW_CHECK(!ranks_.empty(), "host {} without an MPI rank received an MPI message", host_);
  touched_.clear();
  for (netmodels::ReceivedTransfer t : arrivals_) {
    const std::uint32_t to = to_slot_of(t.tag.aux);
    const std::uint32_t from = from_slot_of(t.tag.aux);
    NW_CHECK(to < ranks_.size() && from < mpi_.ranks_on(t.from).size(),
             "host {}: MPI message from host {} slot {} to slot {}, which run no rank", host_,
             t.from, from, to);
    t.tag.aux = value_of(t.tag.aux);
    ranks_[to].on_transfer(t, mpi_.rank_in_slot(t.from, from), ctx);
    if (std::find(touched_.begin(), touched_.end(), to) == touched_.end()) touched_.push_back(to);
  }
  std::sort(touched_.begin(), touched_.end());
  for (std::uint32_t slot : touched_) ranks_[slot].advance_if_idle(ctx);
}

void MpiHostLp::on(const netmodels::CreditReturned& ev, EventCtx& ctx) {
  link_.transport().on_credit(ev, ctx);
}

void MpiHostLp::on(const netmodels::TimerFired& ev, EventCtx& ctx) {
  link_.transport().on_timer(ev, ctx);
}

void MpiHostLp::on(const RankWake& ev, EventCtx& ctx) {
  ranks_[ev.slot()].on_wake(ev, ctx);
}

void MpiHostLp::on(const LocalDelivery& ev, EventCtx& ctx) {
  MpiRank& rank = ranks_[ev.to_slot];
  rank.on_transfer(netmodels::ReceivedTransfer{host_, ev.tag}, ev.from_rank, ctx);
  rank.advance_if_idle(ctx);
}

void MpiHostLp::on(const FragmentDue& ev, EventCtx& ctx) {
  link_.on_fragment_due(ev, ctx);
}

void MpiHostLp::on(const netmodels::LosslessRefillDue& ev, EventCtx& ctx) {
  link_.transport().on_lossless_refill(ev, ctx);
}

void MpiHostLp::finish(engine::FinishCtx& ctx) {
  link_.transport().finish(ctx);
  for (const MpiRank& r : ranks_) r.finish(ctx);
}

void MpiHostLp::visit_state(engine::StateVisitor& v) const {
  link_.visit_state(v);
  for (const MpiRank& r : ranks_) r.visit_state(v);
}

}  // namespace netwarp::mpiemul
