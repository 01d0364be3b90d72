// HostLink: local (shared-memory) and network delivery, and the fragment pacer.
#include "rank/host_link.hpp"

#include <algorithm>

#include "netwarp/engine/check.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::mpiemul {

using engine::EventCtx;

HostLink::HostLink(netmodels::NodeId host, const netmodels::NetworkContext& net,
                   const MpiContext& mpi, netmodels::OutputPort* shared_nic)
    : host_(host),
      mpi_(mpi),
      nic_rate_bps_(net.port_settings(host, 0).link.rate_bps),
      transport_(host, net, shared_nic) {}

void HostLink::send(RankId from, RankId to, netmodels::TransferTag tag, EventCtx& ctx) {
  if (!mpi_.same_host(from, to)) return send_network(from, to, tag, ctx);
  // Handlers may not schedule at zero delay; a zero latency becomes 1 ps.
  const SimTime latency = std::max(mpi_.config().shm.latency, engine::ps(1));
  ctx.send_self(latency, LocalDelivery{tag, from, mpi_.slot_of(to)});
}

void HostLink::send_network(RankId from, RankId to, netmodels::TransferTag tag, EventCtx& ctx) {
  tag.aux = pack_slots(tag.aux, mpi_.slot_of(from), mpi_.slot_of(to));
  transport_.send(mpi_.host_of(to), tag, ctx);
}

void HostLink::send_data(RankId from, RankId to, std::uint32_t word, std::uint64_t bytes,
                         EventCtx& ctx) {
  const std::uint64_t size = mpi_.protocol().fragment_bytes;
  netmodels::TransferTag tag;
  tag.word = word;
  tag.kind = static_cast<std::uint8_t>(TransferKind::data);
  if (size == 0 || bytes <= size || mpi_.same_host(from, to)) {
    tag.bytes = bytes;
    return send(from, to, tag, ctx);
  }
  ctx.push_back(fragments_, Fragment{bytes, from, to, word});
  if (pacer_.get().due_seq == 0) send_next_fragment(ctx);
}

void HostLink::on_fragment_due(const FragmentDue& ev, EventCtx& ctx) {
  NW_CHECK(ev.seq == pacer_.get().due_seq, "host {}: stale fragment pacer {}", host_, ev.seq);
  Pacer p = pacer_.get();
  p.due_seq = 0;
  ctx.set(pacer_, p);
  if (!fragments_.empty()) send_next_fragment(ctx);
}

// Hands the next fragment of the oldest message to the transport and schedules the one after
// for when the NIC has serialised this one's payload (headers left out, so the NIC never runs
// dry between them). A message is cut here, fragment by fragment, so one of any size costs one
// queue entry.
void HostLink::send_next_fragment(EventCtx& ctx) {
  const Fragment f = fragments_.front();
  const std::uint64_t sent = head_sent_.get();
  const std::uint64_t piece = std::min(mpi_.protocol().fragment_bytes, f.bytes - sent);
  const bool is_last = sent + piece == f.bytes;
  if (is_last) {
    ctx.pop_front(fragments_);
    if (sent != 0) ctx.set(head_sent_, std::uint64_t{0});
  } else {
    ctx.set(head_sent_, sent + piece);
  }
  netmodels::TransferTag tag;
  tag.bytes = piece;
  tag.word = f.word;
  tag.kind = static_cast<std::uint8_t>(is_last ? TransferKind::data : TransferKind::fragment);
  send_network(f.from, f.to, tag, ctx);
  ctx.add(fragments_sent_, 1);
  if (fragments_.empty()) return;
  Pacer p = pacer_.get();
  p.due_seq = p.next_seq++;
  ctx.set(pacer_, p);
  const SimTime gap = std::max(netmodels::serialisation_time(piece, nic_rate_bps_), engine::ps(1));
  ctx.send_self(gap, FragmentDue{p.due_seq});
}

void HostLink::visit_state(engine::StateVisitor& v) const {
  transport_.visit_state(v);
  // Without pipelining the pacer never changes: leaving it out keeps the digests of such runs
  // what they were before it existed.
  if (mpi_.protocol().fragment_bytes == 0) return;
  v("fragments", fragments_);
  v("pacer", pacer_);
  v("fragments_sent", fragments_sent_);
  // Zero between messages: left out then, so a run's final state hashes as it did when the
  // queue held one entry per fragment.
  if (head_sent_.get() != 0) v("fragment_head_sent", head_sent_);
}

}  // namespace netwarp::mpiemul
