// TimeWarpPe: fossil collection (commit below GVT), the final step, and statistics.
#include <algorithm>

#include "netwarp/engine/log.hpp"
#include "time_warp_pe.hpp"

namespace netwarp::engine {

void TimeWarpPe::fossil_collect(SimTime gvt) {
  NW_CHECK(gvt >= gvt_, "GVT went back from {} ps to {} ps", gvt_.ps(), gvt.ps());
  gvt_ = gvt;
  note_memory_peak();
  while (!processed_.empty()) {
    const ProcessedEntry& front = processed_.front();
    if (!front.dead && front.time >= gvt) break;
    retire_front();
  }
}

// Commits the oldest entry (or forgets it, if it was rolled back) and frees its log ranges.
void TimeWarpPe::retire_front() {
  const LogPosition at = processed_.begin();
  const ProcessedEntry entry = processed_[at];
  const std::uint64_t records_stop = records_end(at);
  const std::uint64_t undo_stop = undo_end(at);
  NW_CHECK(sent_.begin() == sent_begin(entry), "sent log out of step with the processed log");
  NW_CHECK(undo_.mark() - undo_stop < (std::uint64_t{1} << 31) &&
               processed_.end() - at < (std::uint64_t{1} << 31),
           "uncommitted logs span more than 2^31 positions");
  if (entry.dead) {
    records_.discard_to(records_stop);
  } else {
    LpSlot& slot = slots_[entry.slot];
    const EventKey key = sink_ || entry.from_remote ? pool_[entry.id].key : EventKey{};
    commit_event(slot.committed, local_lps_[entry.slot], key, entry.hash, records_, records_stop,
                 sink_);
    if (slot.newest == at) slot.newest = kNoPosition;
    if (entry.from_remote) remote_events_.erase(key);
    release(entry.id);
    ++stats_.events_committed;
  }
  undo_.forget_before(undo_stop);
  for (std::uint32_t i = 0; i < entry.sends; ++i) sent_.pop_front();
  processed_.pop_front();
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
  NW_LOG(debug, "engine.memory",
         "rank {}: {} events in memory: pool {} B, pending {} B, processed {} B, sent {} B, "
         "undo {} B, records {} B, LP table {} B, remote index {} B",
         rank_, live, pool_.capacity_bytes(), pending_.capacity_bytes(),
         processed_.capacity_bytes(), sent_.capacity_bytes(), undo_.capacity_bytes(),
         records_.capacity_bytes(), slots_.capacity() * sizeof(LpSlot),
         remote_events_.size() * (sizeof(EventKey) + sizeof(EventId) + 16) +
             remote_events_.bucket_count() * sizeof(void*));
}

std::size_t TimeWarpPe::engine_bytes() const {
  return pool_.capacity_bytes() + pending_.capacity_bytes() + processed_.capacity_bytes() +
         sent_.capacity_bytes() + undo_.capacity_bytes() + records_.capacity_bytes() +
         slots_.capacity() * sizeof(LpSlot) +
         remote_events_.size() * (sizeof(EventKey) + sizeof(EventId) + 16) +
         remote_events_.bucket_count() * sizeof(void*);
}

RunStats TimeWarpPe::local_stats() const {
  RunStats s = stats_;
  s.peak_events_in_memory = peak_in_memory_;
  s.engine_bytes_at_peak = engine_bytes_at_peak_;
  return s;
}

}  // namespace netwarp::engine
