// TimeWarpPe: fossil collection (commit below GVT), the final step, and statistics.
#include <algorithm>

#include "netwarp/engine/log.hpp"
#include "time_warp_pe.hpp"

namespace netwarp::engine {

// Commits, oldest first, every entry before GVT (forgetting rolled-back ones) in one pass over
// the front of the processed log, then trims all logs once.
void TimeWarpPe::fossil_collect(SimTime gvt) {
  NW_CHECK(gvt >= gvt_, "GVT went back from {} ps to {} ps", gvt_.ps(), gvt.ps());
  gvt_ = gvt;
  note_memory_peak();
  const bool with_records = !records_.empty();
  std::size_t sends = 0;
  LogPosition at = processed_.begin();
  const std::size_t count = processed_.visit_front_while([&](const ProcessedEntry& entry) {
    if (!entry.dead && entry.time >= gvt) return false;
    sends += entry.sends;
    if (!entry.dead) commit_entry(entry, at, with_records);
    ++at;
    return true;
  });
  if (count == 0) return;
  const LogPosition stop = processed_.begin() + count;
  const bool all = stop == processed_.end();
  undo_.forget_before(all ? undo_.mark() : undo_begin(processed_[stop]));
  records_.discard_to(all ? records_.mark() : records_begin(processed_[stop]));
  NW_CHECK(undo_.mark() - undo_.forgotten() < (std::uint64_t{1} << 31) &&
               processed_.end() - stop < (std::uint64_t{1} << 31),
           "uncommitted logs span more than 2^31 positions");
  sent_.pop_front(sends);
  processed_.pop_front(count);
}

void TimeWarpPe::commit_entry(const ProcessedEntry& entry, LogPosition at, bool with_records) {
  LpSlot& slot = slots_[entry.slot];
  const LpId lp = local_lps_[entry.slot];
  const EventKey key = sink_ ? pool_[entry.id].key : EventKey{};
  if (with_records) {
    records_.discard_to(records_begin(entry));  // records of rolled-back entries before it
    commit_event(slot.committed, lp, key, entry.hash, records_, records_end(at), sink_);
  } else {
    ++slot.committed.events;
    slot.committed.hash = fold_event_hash(slot.committed.hash, entry.hash);
  }
  if (slot.newest == at) slot.newest = kNoPosition;
  release(entry.id);
  ++stats_.events_committed;
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
         slots_.capacity() * sizeof(LpSlot) +
         cancelled_pending_.size() * 64;  // map node: key, value, three pointers, colour
}

RunStats TimeWarpPe::local_stats() const {
  RunStats s = stats_;
  s.peak_events_in_memory = peak_in_memory_;
  s.engine_bytes_at_peak = engine_bytes_at_peak_;
  s.event_store_bytes_at_peak = event_store_bytes_at_peak_;
  return s;
}

}  // namespace netwarp::engine
