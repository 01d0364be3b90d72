// TimeWarpPe: fossil collection (commit below GVT), the final step, and statistics.
#include <algorithm>

#include "netwarp/engine/log.hpp"
#include "time_warp_pe.hpp"

namespace netwarp::engine {

// Commits, oldest first, every entry before GVT (forgetting rolled-back ones) in one pass over
// the front of the processed log, then trims all logs once. The front stops at the first live
// entry at or after GVT; what is reclaimable behind it is left to compaction.
void TimeWarpPe::fossil_collect(SimTime gvt) {
  NW_CHECK(gvt >= gvt_, "GVT went back from {} ps to {} ps", gvt_.ps(), gvt.ps());
  gvt_ = gvt;
  note_memory_peak();
  note_caps_peak();
  const bool with_records = !records_.empty();
  std::size_t sends = 0;
  std::size_t dead = 0;
  LogPosition at = processed_.begin();
  const std::size_t count = processed_.visit_front_while([&](const ProcessedEntry& entry) {
    if (!entry.dead && entry.time >= gvt) return false;
    prefetch_for_commit(at + kCommitLookahead);
    sends += entry.sends;
    if (entry.dead) {
      ++dead;
    } else {
      commit_entry(entry, at, with_records);
    }
    ++at;
    return true;
  });
  if (count > 0) {
    const LogPosition stop = processed_.begin() + count;
    const bool all = stop == processed_.end();
    undo_.forget_before(all ? undo_.mark() : undo_begin(processed_[stop]));
    records_.discard_to(all ? records_.mark() : records_begin(processed_[stop]));
    NW_CHECK(undo_.mark() - undo_.forgotten() < (std::uint64_t{1} << 31) &&
                 processed_.end() - stop < (std::uint64_t{1} << 31),
             "uncommitted logs span more than 2^31 positions");
    sent_.pop_front(sends);
    processed_.pop_front(count);
    dead_entries_ -= dead;
  }
  if (worth_compacting(gvt)) compact(gvt);
  purge_cancelled();
}

// Committing reads the entry's event (its key, for the sink) and its LP's slot: in a big model
// both are long out of the caches, a miss each per event unless loaded ahead.
void TimeWarpPe::prefetch_for_commit(LogPosition at) const {
  if (at >= processed_.end()) return;
  const ProcessedEntry& entry = processed_[at];
  if (sink_) prefetch(&pool_[entry.id]);
  prefetch(&slots_[entry.slot]);
}

void TimeWarpPe::commit_entry(const ProcessedEntry& entry, LogPosition at, bool with_records) {
  const LpId lp = local_lps_[entry.slot];
  CommitTally& tally = slots_[entry.slot].committed;
  const EventKey key = sink_ ? pool_[entry.id].key : EventKey{};
  if (with_records) {
    records_.discard_to(records_begin(entry));  // records of rolled-back entries before it
    commit_event(tally, lp, key, entry.hash, records_, records_end(at), sink_);
  } else {
    ++tally.events;
    tally.hash = fold_event_hash(tally.hash, entry.hash);
  }
  if (slots_[entry.slot].newest == at) slots_[entry.slot].newest = kNoPosition;
  count_commit(entry);
}

// Commits an entry behind the front, reading its records where they are.
void TimeWarpPe::commit_in_place(const ProcessedEntry& entry, std::uint64_t records_from,
                                 std::uint64_t records_to) {
  const EventKey key = sink_ ? pool_[entry.id].key : EventKey{};
  commit_event_with(slots_[entry.slot].committed, local_lps_[entry.slot], key, entry.hash, sink_,
                    [&](auto&& fn) { records_.for_each_in(records_from, records_to, fn); });
  count_commit(entry);
}

void TimeWarpPe::count_commit(const ProcessedEntry& entry) {
  release(entry.id);
  ++stats_.events_committed;
}

// Compaction costs a pass over the log; it runs when the log holds at least half of either cap
// and there is something to win: an eighth of the log, or anything at all when the caps are
// reached (the rank handles nothing more until they are not).
bool TimeWarpPe::worth_compacting(SimTime gvt) const {
  if (processed_.empty()) return false;
  const std::uint64_t occupied = processed_.end() - processed_.begin();
  if (2 * occupied < max_uncommitted_ && 2 * capped_bytes() < max_uncommitted_bytes_) return false;
  std::uint64_t reclaimable = 0;
  for (LogPosition at = processed_.begin(); at < processed_.end(); ++at) {
    const ProcessedEntry& entry = processed_[at];
    reclaimable += entry.dead || entry.time < gvt ? 1 : 0;
  }
  return reclaimable > 0 && (8 * reclaimable >= occupied || !has_room());
}

// One pass over the whole log: rolled-back entries are dropped, entries before GVT (behind an
// uncommittable one of another LP: an LP's own later entries are later still) are committed,
// and the rest move down in every log, keeping their order. An LP's live entries are its chain,
// oldest first, so each kept entry's previous is the last one kept for its LP in this pass.
void TimeWarpPe::compact(SimTime gvt) {
  ++compaction_pass_;
  LogPosition write = processed_.begin();
  LogPosition sent_write = sent_begin(processed_[write]);
  std::uint64_t undo_write = undo_begin(processed_[write]);
  std::uint64_t records_write = records_begin(processed_[write]);
  const LogPosition end = processed_.end();
  for (LogPosition read = processed_.begin(); read < end; ++read) {
    // Read before anything moves: only entries before `read` are written.
    const ProcessedEntry entry = processed_[read];
    const std::uint64_t undo_from = undo_begin(entry), undo_to = undo_end(read);
    const std::uint64_t records_from = records_begin(entry), records_to = records_end(read);
    const LogPosition sent_from = sent_begin(entry);
    if (entry.dead) {
      --dead_entries_;
      continue;
    }
    CompactedNewest& newest = compacted_newest_[entry.slot];
    const bool has_previous = newest.pass == compaction_pass_ && newest.at != kNoPosition;
    if (entry.time < gvt) {
      commit_in_place(entry, records_from, records_to);
      newest = {compaction_pass_, kNoPosition};
      slots_[entry.slot].newest = kNoPosition;
      continue;
    }
    ProcessedEntry moved = entry;
    moved.has_previous = has_previous;
    moved.previous_of_lp = short32(has_previous ? newest.at : 0);
    moved.sent_begin = short32(sent_write);
    moved.undo_begin = short32(undo_write);
    moved.records_begin = short32(records_write);
    for (std::uint32_t i = 0; i < entry.sends; ++i) sent_[sent_write + i] = sent_[sent_from + i];
    sent_write += entry.sends;
    undo_write = undo_.move_down(undo_write, undo_from, undo_to);
    records_write = records_.move_down(records_write, records_from, records_to);
    processed_[write] = moved;
    newest = {compaction_pass_, write};
    slots_[entry.slot].newest = write;
    ++write;
  }
  processed_.truncate(write);
  sent_.truncate(sent_write);
  undo_.truncate(undo_write);
  records_.truncate(records_write);
}

void TimeWarpPe::purge_cancelled() {
  constexpr std::uint64_t kWorthIt = 1024;
  if (cancelled_in_queue_ == 0) return;
  const bool many = cancelled_in_queue_ >= kWorthIt && 2 * cancelled_in_queue_ >= pending_.size();
  if (!many && capped_bytes() < max_uncommitted_bytes_) return;
  pending_.remove_if([&](const PendingQueue::Entry& entry) {
    if (!is_cancelled(pool_[entry.id])) return false;
    release(entry.id);
    --cancelled_in_queue_;
    return true;
  });
}

void TimeWarpPe::finish_lps(SimTime end) {
  NW_CHECK(processed_.empty(), "{} events left uncommitted at the end",
           processed_.end() - processed_.begin());
  for (LpId id = 0; id < rank_of_.size(); ++id)
    if (rank_of_[id] == rank_) {
      LpSlot& slot = slot_of(id);
      digests_.push_back(finish_lp(*slot.lp, id, slot.committed, end, sink_));
    }
}

void TimeWarpPe::note_memory_peak() {
  const std::size_t live = pool_.live();
  if (live <= peak_in_memory_) return;
  peak_in_memory_ = live;
  engine_bytes_at_peak_ = engine_bytes();
  event_store_bytes_at_peak_ = pool_.capacity_bytes() + pending_.capacity_bytes();
  NW_LOG(debug, "engine.memory",
         "rank {}: {} events in memory: pool {} B, pending {} B, processed {} B, sent {} B, "
         "undo {} B, records {} B, LP table {} B, cancelled-pending keys {} B",
         rank_, live, pool_.capacity_bytes(), pending_.capacity_bytes(),
         processed_.capacity_bytes(), sent_.capacity_bytes(), undo_.capacity_bytes(),
         records_.capacity_bytes(), slots_.capacity() * sizeof(LpSlot),
         cancelled_pending_.size() * 64);
}

std::size_t TimeWarpPe::engine_bytes() const {
  return pool_.capacity_bytes() + pending_.capacity_bytes() + processed_.capacity_bytes() +
         sent_.capacity_bytes() + undo_.capacity_bytes() + records_.capacity_bytes() +
         slots_.capacity() * sizeof(LpSlot) + cancelled_pending_.size() * kMapNodeBytes;
}

RunStats TimeWarpPe::local_stats() const {
  RunStats s = stats_;
  s.peak_events_in_memory = peak_in_memory_;
  s.engine_bytes_at_peak = engine_bytes_at_peak_;
  s.event_store_bytes_at_peak = event_store_bytes_at_peak_;
  s.peak_uncommitted = peak_uncommitted_;
  s.peak_engine_bytes_in_use = peak_bytes_in_use_;
  return s;
}

}  // namespace netwarp::engine
