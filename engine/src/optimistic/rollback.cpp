// TimeWarpPe: rollback on stragglers, cancellation (local and by anti-message), and the
// receiving side of rank-to-rank messages.
#include "time_warp_pe.hpp"

namespace netwarp::engine {

void TimeWarpPe::receive(std::span<const std::byte> bytes) {
  ++messages_received_;
  WireBatch::for_each(bytes, [&](WireKind kind, const Event& event) {
    if (kind == WireKind::positive) {
      receive_positive(event);
    } else if (kind == WireKind::promise) {
      receive_promise(event.key.time, static_cast<int>(event.dest));
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
  pool_[id].arrival = ++arrivals_;
  deliver_local(id, Cause::primary);
}

// The target of an anti-message arrived earlier (per-sender order). If its LP handled it, it is
// on the LP's chain of handled events: roll back to it and cancel it. Otherwise it is pending:
// remember the key, and drop the event when it reaches the top of the future event set.
void TimeWarpPe::receive_anti(const EventKey& key, LpId dest) {
  NW_CHECK(key.time >= gvt_, "anti-message at {} ps below GVT {} ps", key.time.ps(), gvt_.ps());
  LpSlot& slot = slot_of(dest);
  for (LogPosition at = slot.newest; processed_.contains(at);) {
    const ProcessedEntry& entry = processed_[at];
    const Event& handled = pool_[entry.id];
    if (handled.key < key) break;
    if (handled.key == key) {
      const EventId id = entry.id;
      rollback(slot, key, Cause::primary);
      pool_[id].state = EventState::cancelled;
      ++cancelled_in_queue_;
      return;
    }
    at = previous_of_lp(entry);
  }
  CancelledKey& cancelled = cancelled_pending_[key];
  cancelled.arrived_by = arrivals_;
  ++cancelled.pending;
  ++cancelled_in_queue_;
}

bool TimeWarpPe::is_cancelled_remote(const Event& event) {
  const auto it = cancelled_pending_.find(event.key);
  if (it == cancelled_pending_.end() || event.arrival > it->second.arrived_by) return false;
  if (--it->second.pending == 0) cancelled_pending_.erase(it);
  return true;
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
    slot.newest = previous_of_lp(entry);
    newest_time_[entry.slot] =
        processed_.contains(slot.newest) ? processed_[slot.newest].time : SimTime::from_ps(-1);
    slot.send_counter -= entry.sends;
    entry.dead = true;
    ++dead_entries_;
    event.state = EventState::pending;
    pending_.push(entry.id);
    undo_entry(at);
    ++stats_.events_rolled_back;
    ++(cause == Cause::primary     ? stats_.rolled_back_primary
       : cause == Cause::secondary ? stats_.rolled_back_secondary
                                   : stats_.rolled_back_for_memory);
  }
  pop_dead_tail();
}

// The previous entry was live when `e` was appended, so it is less than 2^31 positions behind
// `e`, and `e` less than 2^31 behind the end: the expansion is exact even after it committed.
LogPosition TimeWarpPe::previous_of_lp(const ProcessedEntry& e) const {
  return e.has_previous ? expand32(e.previous_of_lp, processed_.end()) : kNoPosition;
}
LogPosition TimeWarpPe::sent_begin(const ProcessedEntry& e) const {
  return expand32(e.sent_begin, sent_.end());
}
std::uint64_t TimeWarpPe::undo_begin(const ProcessedEntry& e) const {
  return expand32(e.undo_begin, undo_.mark());
}
std::uint64_t TimeWarpPe::records_begin(const ProcessedEntry& e) const {
  return expand32(e.records_begin, records_.mark());
}

std::uint64_t TimeWarpPe::undo_end(LogPosition at) const {
  return at + 1 < processed_.end() ? undo_begin(processed_[at + 1]) : undo_.mark();
}

std::uint64_t TimeWarpPe::records_end(LogPosition at) const {
  return at + 1 < processed_.end() ? records_begin(processed_[at + 1]) : records_.mark();
}

// Restores the state the entry's handler changed and cancels what it sent (newest first).
void TimeWarpPe::undo_entry(LogPosition at) {
  const ProcessedEntry entry = processed_[at];
  undo_.undo_range(undo_begin(entry), undo_end(at));
  const LogPosition first_sent = sent_begin(entry);
  for (std::uint32_t i = entry.sends; i-- > 0;)
    cancel(sent_[first_sent + i], local_lps_[entry.slot]);
}

// Drops rolled-back entries at the tail of the logs, so a rollback of the newest work leaves no
// garbage behind.
void TimeWarpPe::pop_dead_tail() {
  while (!processed_.empty() && processed_.end() - 1 != current_ &&
         processed_[processed_.end() - 1].dead) {
    const ProcessedEntry& tail = processed_[processed_.end() - 1];
    undo_.truncate(undo_begin(tail));  // undone already in rollback
    records_.truncate(records_begin(tail));
    for (std::uint32_t i = 0; i < tail.sends; ++i) sent_.pop_back();
    processed_.pop_back();
    --dead_entries_;
  }
}

// The key is rebuilt from the record and the sending entry: `sent_at` is the time of the event
// whose handler sent it (the key's send time unless the order keeps none), the tie is recorded.
void TimeWarpPe::cancel(const SentRecord& sent, LpId creator) {
  const EventKey key{SimTime::from_ps(sent.time_ps),
                     SimTime::from_ps(sent.sent_ps),
                     sent.tie,
                     sent.chain,
                     creator,
                     sent.counter};
  if (!sent.is_local) {
    outgoing_[static_cast<std::size_t>(rank_of_[sent.target])].add_anti(key, sent.target);
    ++stats_.anti_messages_sent;
    return;
  }
  Event& target = pool_[sent.target];
  NW_CHECK(target.key == key, "sent-event record does not match its event");
  if (target.state == EventState::processed)
    rollback(slot_of(target.dest), target.key, Cause::secondary);
  target.state = EventState::cancelled;  // dropped when it reaches the top of the queue
  ++cancelled_in_queue_;
}

}  // namespace netwarp::engine
