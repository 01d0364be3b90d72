// TimeWarpPe: fossil collection (commit below GVT), the final step, and statistics.
#include <algorithm>

#include "time_warp_pe.hpp"

namespace netwarp::engine {

void TimeWarpPe::fossil_collect(SimTime gvt) {
  NW_CHECK(gvt >= gvt_, "GVT went back from {} ps to {} ps", gvt_.ps(), gvt.ps());
  gvt_ = gvt;
  note_memory_peak();
  for (LpSlot& slot : slots_) {
    while (!slot.processed.empty() && pool_[slot.processed.front().id].key.time < gvt)
      commit_front(slot);
  }
}

// Commits the oldest handled event of `slot`; its log entries end where the next one's begin.
void TimeWarpPe::commit_front(LpSlot& slot) {
  const ProcessedEntry entry = slot.processed.front();
  const bool last = slot.processed.size() == 1;
  const std::uint64_t undo_end = last ? slot.undo.mark() : slot.processed[1].undo_mark;
  const std::uint64_t records_end = last ? slot.records.mark() : slot.processed[1].records_mark;
  const Event& event = pool_[entry.id];
  commit_event(slot.digest, event, slot.records, records_end, sink_);
  slot.undo.forget_before(undo_end);
  for (std::uint32_t i = 0; i < entry.sends; ++i) slot.sent.pop_front();
  if (event.from_remote) remote_events_.erase(event.key);
  slot.processed.pop_front();
  release(entry.id);
  ++stats_.events_committed;
}

void TimeWarpPe::finish_lps(SimTime end) {
  for (LpSlot& slot : slots_) {
    NW_CHECK(slot.processed.empty(), "LP {} finishes with {} uncommitted events", slot.digest.lp,
             slot.processed.size());
    finish_lp(*slot.lp, slot.digest, end, sink_);
  }
}

void TimeWarpPe::note_memory_peak() {
  const std::size_t live = pool_.live();
  if (live <= peak_in_memory_) return;
  peak_in_memory_ = live;
  engine_bytes_at_peak_ = engine_bytes();
}

std::size_t TimeWarpPe::engine_bytes() const {
  std::size_t bytes = pool_.capacity_bytes() + pending_.capacity_bytes() +
                      slots_.capacity() * sizeof(LpSlot) +
                      remote_events_.size() * (sizeof(EventKey) + sizeof(EventId) + 16) +
                      remote_events_.bucket_count() * sizeof(void*);
  for (const LpSlot& slot : slots_)
    bytes += slot.processed.capacity_bytes() + slot.sent.capacity_bytes() +
             slot.undo.capacity_bytes() + slot.records.capacity_bytes();
  return bytes;
}

RunStats TimeWarpPe::local_stats() const {
  RunStats s = stats_;
  s.peak_events_in_memory = peak_in_memory_;
  s.engine_bytes_at_peak = engine_bytes_at_peak_;
  return s;
}

std::vector<LpDigest> TimeWarpPe::local_digests() const {
  std::vector<LpDigest> out;
  out.reserve(slots_.size());
  for (const LpSlot& slot : slots_) out.push_back(slot.digest);
  return out;
}

}  // namespace netwarp::engine
