// LosslessSender: the lossless transport's send queue, cut into packets as the NIC has room.
#include "netwarp/netmodels/lossless_sender.hpp"

#include <algorithm>

#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {

using engine::EventCtx;

void LosslessSender::enqueue(const PendingSend& send, EventCtx& ctx) {
  ctx.push_back(queue_, send);
}

// An empty NIC takes any packet, so a window smaller than a packet still makes progress.
bool LosslessSender::has_room(const OutputPort& nic, SimTime now, const PacketCut& cut) const {
  const std::uint64_t queued = nic.queued_bytes(now);
  return queued == 0 || queued + format_.wire_bytes(cut.length) <= kLosslessWindowBytes;
}

PacketCut LosslessSender::cut_at(std::uint64_t offset) const {
  PacketCut cut;
  cut.send = queue_.front();
  cut.offset = offset;
  cut.length = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(max_payload_, cut.send.bytes - cut.offset));
  cut.last = cut.offset + cut.length == cut.send.bytes;
  return cut;
}

// When the backlog will have fallen to half the window (the line's schedule says when), or,
// if the line empties sooner (a packet near the window's size), when it is empty. Packets that
// wait for credit have no schedule: the CreditReturned that lets them go calls fill.
void LosslessSender::request_refill(const OutputPort& nic, EventCtx& ctx) {
  if (used_past_window_.get() == 0) ctx.set(used_past_window_, std::uint8_t{1});
  if (refill_due_ps_.get() >= 0) return;  // the pending one comes first
  const SimTime half = serialisation_time(kLosslessWindowBytes / 2, nic.link().rate_bps);
  const SimTime free_at = nic.free_at();
  SimTime at = free_at > half ? free_at - half : SimTime{};
  if (at <= ctx.now()) at = free_at;
  if (at <= ctx.now()) return;
  ctx.set(refill_due_ps_, at.ps());
  ctx.send_self(at - ctx.now(), LosslessRefillDue{at.ps()});
}

bool LosslessSender::on_refill_due(const LosslessRefillDue& ev, EventCtx& ctx) {
  if (ev.due_ps != refill_due_ps_.get()) return false;
  ctx.set(refill_due_ps_, std::int64_t{-1});
  return true;
}

void LosslessSender::visit_state(engine::StateVisitor& v) const {
  if (used_past_window_.get() == 0) return;
  v("lossless_queue", queue_);
  v("lossless_head_sent", head_sent_);
  v("lossless_refill_due_ps", refill_due_ps_);
  v("lossless_used_past_window", used_past_window_);
}

}  // namespace netwarp::netmodels
