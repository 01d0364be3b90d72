// TimeWarpPe: rollback on stragglers, cancellation (local and by anti-message), and the
// receiving side of rank-to-rank messages.
#include "time_warp_pe.hpp"

namespace netwarp::engine {

void TimeWarpPe::receive(const std::vector<std::byte>& bytes) {
  ++messages_received_;
  WireBatch::for_each(bytes, [&](WireKind kind, const Event& event) {
    if (kind == WireKind::positive) {
      receive_positive(event);
    } else {
      receive_anti(event.key, event.dest);
    }
  });
}

void TimeWarpPe::receive_positive(const Event& event) {
  NW_CHECK(rank_of_[event.dest] == rank_, "LP {} is not on rank {}", event.dest, rank_);
  const EventId id = pool_.allocate();
  pool_[id] = event;
  pool_[id].from_remote = true;
  const bool inserted = remote_events_.emplace(event.key, id).second;
  NW_CHECK(inserted, "two live events with key ({} ps, {}, #{})", event.key.time.ps(),
           event.key.creator, event.key.counter);
  deliver_local(id, Cause::primary);
}

void TimeWarpPe::receive_anti(const EventKey& key, LpId dest) {
  const auto it = remote_events_.find(key);
  NW_CHECK(it != remote_events_.end(), "anti-message for unknown event ({} ps, {}, #{}) to LP {}",
           key.time.ps(), key.creator, key.counter, dest);
  const EventId id = it->second;
  remote_events_.erase(it);
  Event& event = pool_[id];
  NW_CHECK(event.key.time >= gvt_, "anti-message at {} ps below GVT {} ps", key.time.ps(),
           gvt_.ps());
  if (event.state == EventState::processed) rollback(slot_of(dest), key, Cause::primary);
  event.state = EventState::cancelled;
}

// Undoes every handled event of `slot` whose key is >= key and puts it back in the future
// event set. The entry is popped before its sends are cancelled, so a cascade that comes back
// to this LP only ever meets pending events.
void TimeWarpPe::rollback(LpSlot& slot, const EventKey& key, Cause cause) {
  ++stats_.rollbacks;
  while (!slot.processed.empty()) {
    const ProcessedEntry entry = slot.processed.back();
    Event& event = pool_[entry.id];
    if (event.key < key) break;
    NW_CHECK(event.key.time >= gvt_, "rollback of an event at {} ps below GVT {} ps",
             event.key.time.ps(), gvt_.ps());
    slot.processed.pop_back();
    undo_entry(slot, entry);
    event.state = EventState::pending;
    pending_.push(event.key, entry.id);
    ++stats_.events_rolled_back;
    ++(cause == Cause::primary ? stats_.rolled_back_primary : stats_.rolled_back_secondary);
  }
}

void TimeWarpPe::undo_entry(LpSlot& slot, const ProcessedEntry& entry) {
  slot.undo.undo_to(entry.undo_mark);
  slot.records.truncate(entry.records_mark);
  slot.send_counter = entry.counter_before;
  for (std::uint32_t i = 0; i < entry.sends; ++i) {
    const SentRecord sent = slot.sent.back();
    slot.sent.pop_back();
    cancel(sent);
  }
}

void TimeWarpPe::cancel(const SentRecord& sent) {
  if (sent.local_id == kNoEvent) {
    outgoing_[static_cast<std::size_t>(rank_of_[sent.dest])].add_anti(sent.key, sent.dest);
    ++stats_.anti_messages_sent;
    return;
  }
  Event& target = pool_[sent.local_id];
  NW_CHECK(target.key == sent.key && target.dest == sent.dest,
           "sent-event record does not match its event");
  if (target.state == EventState::processed)
    rollback(slot_of(target.dest), target.key, Cause::secondary);
  target.state = EventState::cancelled;  // dropped when it reaches the top of the queue
}

}  // namespace netwarp::engine
