// LosslessSender: the lossless transport's send queue of one host. Messages (or stream
// transfers) wait in FIFO order and are cut into packets only as the NIC has room: at most
// kLosslessWindowBytes queued in the NIC at once, so a message of any size costs a window of
// packets, not memory proportional to its size. A host whose NIC backlog stays within the
// window sends exactly as if every packet had been queued at the message's start (same order,
// same departure times, no extra events). Past it, the next packets are cut when the backlog
// has fallen to half the window (a LosslessRefillDue event, timed from the line's schedule) or
// when credit returns, so the line never idles while packets wait here.
//
// Part of an LP: its state is reversible and visited by the owner.
#pragma once

#include <cstdint>
#include <type_traits>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/reversible.hpp"
#include "netwarp/netmodels/output_port.hpp"

namespace netwarp::netmodels {

// The NIC backlog the lossless transport fills up to (bytes on the wire).
inline constexpr std::uint64_t kLosslessWindowBytes = std::uint64_t{4} << 20;

// The NIC's backlog fell to half the window: cut more packets (`due_ps` names the request).
struct LosslessRefillDue {
  std::int64_t due_ps = 0;
};

// A message waiting to be cut into packets: `first_offset` is the stream offset of its first
// byte (its packets' seq counts from it), `bytes` its size. The rest is the owner's: HostLp
// keeps the message id in `id`; StreamTransport the peer and the transfer's tag.
struct PendingSend {
  std::uint64_t first_offset = 0;
  std::uint64_t bytes = 0;
  std::int64_t aux = 0;
  std::uint32_t id = 0;
  std::uint32_t word = 0;
  std::uint8_t kind = 0;
  std::uint8_t reserved[7] = {};
};
static_assert(std::has_unique_object_representations_v<PendingSend>);

// One packet to cut: its place in the message.
struct PacketCut {
  PendingSend send;
  std::uint64_t offset = 0;  // within the message
  std::uint32_t length = 0;
  bool last = false;
};

class LosslessSender {
 public:
  LosslessSender(std::uint32_t max_payload, const PacketFormat& format)
      : max_payload_(max_payload), format_(format) {}

  // Queues a message; then call fill.
  void enqueue(const PendingSend& send, engine::EventCtx& ctx);
  // Cuts packets while the NIC has room, handing each to `emit(const PacketCut&)`, and asks
  // for a refill if packets are left.
  template <class Emit>
  void fill(const OutputPort& nic, engine::EventCtx& ctx, Emit&& emit);
  // A refill event: true if it is the pending one (then call fill).
  bool on_refill_due(const LosslessRefillDue& ev, engine::EventCtx& ctx);
  // Visited only once used past the window, so runs within it keep their digests.
  void visit_state(engine::StateVisitor& v) const;

 private:
  bool has_room(const OutputPort& nic, SimTime now, const PacketCut& cut) const;
  PacketCut cut_at(std::uint64_t offset) const;  // the front message's packet at `offset`
  void request_refill(const OutputPort& nic, engine::EventCtx& ctx);

  const std::uint32_t max_payload_;
  const PacketFormat& format_;
  engine::RevFifo<PendingSend> queue_;
  engine::Rev<std::uint64_t> head_sent_;         // bytes of the front message already cut
  engine::Rev<std::int64_t> refill_due_ps_{-1};  // the pending LosslessRefillDue; -1: none
  engine::Rev<std::uint8_t> used_past_window_;   // 1 once packets waited here
};

// The front message's progress is kept in a local and stored once: one undo entry per call,
// not one per packet.
template <class Emit>
void LosslessSender::fill(const OutputPort& nic, engine::EventCtx& ctx, Emit&& emit) {
  std::uint64_t sent = head_sent_.get();
  while (!queue_.empty()) {
    const PacketCut cut = cut_at(sent);
    if (!has_room(nic, ctx.now(), cut)) break;
    sent = cut.last ? 0 : cut.offset + cut.length;
    if (cut.last) ctx.pop_front(queue_);
    emit(cut);
  }
  if (sent != head_sent_.get()) ctx.set(head_sent_, sent);
  if (!queue_.empty()) request_refill(nic, ctx);
}

}  // namespace netwarp::netmodels
