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

// Undoes every handled event of `slot` whose key is >= key, newest first, and puts each back
// in the future event set. An entry is unlinked before its sends are cancelled, so a cascade
// that comes back to this LP only ever meets pending events.
void TimeWarpPe::rollback(LpSlot& slot, const EventKey& key, Cause cause) {
  ++stats_.rollbacks;
  while (processed_.contains(slot.newest)) {
    const LogPosition at = slot.newest;
    ProcessedEntry& entry = processed_[at];
    Event& event = pool_[entry.id];
    if (event.key < key) break;
    NW_CHECK(event.key.time >= gvt_, "rollback of an event at {} ps below GVT {} ps",
             event.key.time.ps(), gvt_.ps());
    slot.newest = entry.previous_of_lp;
    slot.newest_time = processed_.contains(slot.newest) ? pool_[processed_[slot.newest].id].key.time
                                                        : SimTime::from_ps(-1);
    slot.send_counter -= entry.sends;
    entry.dead = true;
    event.state = EventState::pending;
    pending_.push(event.key, entry.id);
    undo_entry(at);
    ++stats_.events_rolled_back;
    ++(cause == Cause::primary ? stats_.rolled_back_primary : stats_.rolled_back_secondary);
  }
  pop_dead_tail();
}

std::uint64_t TimeWarpPe::undo_end(LogPosition at) const {
  return at + 1 < processed_.end() ? processed_[at + 1].undo_begin : undo_.mark();
}

std::uint64_t TimeWarpPe::records_end(LogPosition at) const {
  return at + 1 < processed_.end() ? processed_[at + 1].records_begin : records_.mark();
}

// Restores the state the entry's handler changed and cancels what it sent (newest first).
void TimeWarpPe::undo_entry(LogPosition at) {
  const ProcessedEntry entry = processed_[at];
  undo_.undo_range(entry.undo_begin, undo_end(at));
  for (std::uint32_t i = entry.sends; i-- > 0;) cancel(sent_[entry.sent_begin + i]);
}

// Drops rolled-back entries at the tail of the logs, so a rollback of the newest work leaves no
// garbage behind.
void TimeWarpPe::pop_dead_tail() {
  while (!processed_.empty() && processed_.end() - 1 != current_ &&
         processed_[processed_.end() - 1].dead) {
    const ProcessedEntry& tail = processed_[processed_.end() - 1];
    undo_.truncate(tail.undo_begin);  // undone already in rollback
    records_.truncate(tail.records_begin);
    for (std::uint32_t i = 0; i < tail.sends; ++i) sent_.pop_back();
    processed_.pop_back();
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
