// TimeWarpPe: one processing element of the optimistic kernel (one per rank). It owns the
// rank's LPs, their future events, and the events handled but not yet committed, with what is
// needed to undo them (undo records, the events they sent, their records) in per-rank logs
// that are appended as events run and reclaimed from the front as they commit (and compacted
// when what is reclaimable sits behind an entry that cannot commit yet). Stragglers and
// anti-messages roll LPs back; GVT lets fossil collection commit. Optimism is capped per rank
// in handled-but-uncommitted events and in bytes of engine memory in use. Events earlier than the
// safe horizon (set after each GVT round; KernelConfig::sync) run as in the sequential kernel:
// nothing logged, committed at once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "../core/event_pool.hpp"
#include "../core/log.hpp"
#include "../core/lp_steps.hpp"
#include "../core/pending_queue.hpp"
#include "netwarp/engine/kernel.hpp"
#include "wire.hpp"

namespace netwarp::engine {

class TimeWarpPe final : public EventRouter {
 public:
  TimeWarpPe(const Model& model, const KernelConfig& config, RankExchange& exchange,
             RecordSink* sink);

  void init_lps();
  // Handles up to `max_events` events with time <= limit (and < end). Returns how many. With
  // SyncMode::conservative only events below the safe horizon and below the limit run.
  std::size_t process_batch(std::size_t max_events, SimTime limit);
  // What this rank contributes to the safe horizon of the next GVT round: no event can reach
  // another rank earlier than its earliest pending event plus the lookahead, or than what waits
  // in its outgoing batches. max() on a single rank; zero when events never run safe.
  SimTime local_horizon();
  // Events earlier than `horizon` can no longer be rolled back (the least of every rank's
  // local_horizon in one GVT round): they run without bookkeeping from now on.
  // (Ignored when events never run safe.)
  void set_safe_horizon(SimTime horizon) {
    if (safe_enabled_) safe_until_ = std::max(safe_until_, horizon);
  }
  SimTime safe_horizon() const { return safe_until_; }
  // Whether the kernel's promise-driven loop runs this rank (conservative; hybrid with a
  // lookahead on several ranks): batches stop at the interval's boundary, and events past the
  // safe horizon run only while speculation is on.
  bool promise_driven() const { return promise_driven_; }
  // Hybrid in the promise-driven loop: lets events past the safe horizon run optimistically
  // (the rank has waited long for a promise), or stops them (it waits for one again).
  void set_speculation(bool on) { speculating_ = on && optimism_; }
  // Whether a batch stopped at an event past its limit since the last call (and forgets it).
  bool take_held_by_window() { return std::exchange(held_by_window_, false); }
  // Takes every message that has arrived; returns how many.
  std::size_t poll_incoming();
  // Between flushes: publishes to the partitions that share memory a promise that also holds for
  // the batches not yet sent (no later than their earliest entry), so one that waits for it need
  // not wait for the next flush. A store, when the promise has moved; nothing otherwise.
  void publish_promise_early();
  // Tells the partitions that share promises whether this one waits for one.
  void want_promise(bool waiting) {
    if (!shared_promise_ranks_.empty()) exchange_.want_promise(waiting);
  }
  void flush_outgoing();
  // While held, sends stay in the outgoing batches, however full (GVT's reduction is running).
  void hold_sends(bool hold) { hold_sends_ = hold; }
  // Smallest time of any pending event or of any entry waiting in an outgoing batch (max()
  // when none).
  SimTime local_min();
  // Commits, in key order per LP, every handled event earlier than `gvt`.
  void fossil_collect(SimTime gvt);
  // Promise-driven: commits, without waiting for a GVT round, what was handled before both the
  // safe horizon (no other rank can send anything earlier any more) and the earliest pending
  // event (nor can this one: its events follow their causes), up to `end`.
  void commit_below_horizon(SimTime end) {
    if (!promise_driven_ || processed_.empty()) return;
    drop_cancelled_top();
    SimTime to = std::min(safe_until_, end);
    if (!pending_.empty()) to = std::min(to, SimTime::from_ps(pending_.top().time_ps));
    if (to > gvt_) fossil_collect(to);
  }
  // Where commits have reached: GVT, or the horizon commit_below_horizon went to.
  SimTime committed_to() const { return gvt_; }
  void finish_lps(SimTime end);  // fills the LP digests

  void route(const Event& event) override;

  // Feeds one received message (exposed for tests).
  void receive(std::span<const std::byte> bytes);

  std::int64_t messages_sent() const { return messages_sent_; }
  std::int64_t messages_received() const { return messages_received_; }
  // Handled events not yet committed (rolled-back entries still in the log excluded).
  std::uint64_t uncommitted() const {
    return processed_.end() - processed_.begin() - dead_entries_;
  }
  // Engine memory in use: pending events and their queue, every log, keys cancelled while
  // pending, held sends. What an explicit max_uncommitted_bytes bounds.
  std::size_t bytes_in_use() const;
  // What the byte cap compares with: bytes_in_use() when max_uncommitted_bytes was set; by
  // default only what optimism adds (the logs, cancelled keys, held sends), so that a big model's
  // own pending events, which the sequential kernel holds as well, never stop it running ahead.
  std::size_t capped_bytes() const;
  std::size_t optimism_bytes() const;  // bytes_in_use() but the pending events and their queue
  // The latest event time a batch may handle: GVT + window. (process_batch applies the caps.)
  static SimTime optimism_limit(SimTime gvt, SimTime window) { return gvt.saturating_add(window); }
  RunStats local_stats() const;
  std::uint64_t events_processed() const { return stats_.events_processed; }
  std::uint64_t events_rolled_back() const { return stats_.events_rolled_back; }
  const std::vector<LpDigest>& local_digests() const { return digests_; }
  std::size_t engine_bytes() const;

 private:
  void send_batch(int dest, std::vector<std::byte> bytes);
  // Keeps a sent batch's buffer, handed back by the exchange, for a later batch.
  void keep_spare(std::vector<std::byte> buffer);
  // Sends what `dest`'s batch holds, the batch going on in a spare buffer.
  void send_outgoing(int dest);
  // One handled, uncommitted event, in a per-rank log in the order of handling. Its undo
  // records, sent events and records are contiguous ranges of the per-rank logs, ending where
  // the next entry's begin. Entries of one LP are chained newest to oldest for rollback.
  struct ProcessedEntry {
    EventId id;
    std::uint32_t sends;
    std::uint32_t slot;
    bool dead;          // rolled back; its ranges are garbage until the front passes them
    bool has_previous;  // previous_of_lp names an entry (live when this one was appended)
    std::uint8_t reserved[2];
    SimTime time;  // the event's, and its hash: committing need not touch the (cold) event
    std::uint64_t hash;
    // Positions in the logs, kept as their low 32 bits (see Short32).
    std::uint32_t previous_of_lp;
    std::uint32_t sent_begin;
    std::uint32_t undo_begin;
    std::uint32_t records_begin;
  };
  static_assert(sizeof(ProcessedEntry) == 48);
  // An event a handler sent, kept to cancel it on rollback. Its creator is the LP of
  // the entry that sent it, so only the rest of the key is stored.
  struct SentRecord {
    std::int64_t time_ps;
    std::int64_t sent_ps;  // the key's send time (EventCtx::send_stamped may set another)
    std::uint64_t counter;
    std::uint64_t chain;   // the key's chain field (fifo_creator)
    std::uint32_t target;  // the event's id when local, its destination LP when remote
    std::uint32_t tie;     // the key's tie field (it may depend on more than the send time)
    bool is_local;
    std::uint8_t reserved[7];
  };
  static_assert(sizeof(SentRecord) == 48);
  struct LpSlot {
    std::unique_ptr<LpBase> lp;
    std::uint64_t send_counter = 0;
    LogPosition newest = kNoPosition;  // newest uncommitted entry in processed_
    CommitTally committed;
  };
  static_assert(sizeof(LpSlot) == 40);
  enum class Cause { primary, secondary, memory };

  LpSlot& slot_of(LpId lp) { return slots_[local_index_[lp]]; }
  EventScope scope_for(LpSlot& slot, const Event& event, EventRouter* router);
  void execute(EventId id, EventRouter* router);
  // Whether the top event, below the safe horizon, may run without bookkeeping: its LP holds no
  // uncommitted handled event (it would commit out of order before them). Always true when
  // nothing is logged.
  bool runs_safe(LpId lp) {
    return processed_.empty() || !processed_.contains(slots_[local_index_[lp]].newest);
  }
  std::size_t run_safe_events(std::size_t max_events, SimTime limit);
  // Defined in time_warp_pe.cpp, its only user, inside run_safe_events's loop.
  [[gnu::always_inline]] inline void execute_safe(EventId id);
  // route's other cases: a send to another rank, or one to remember for cancellation.
  [[gnu::noinline]] void route_logged(const Event& event, int dest_rank);
  void execute_checked(EventId id);
  // Queues a local event. While something is logged, its LP is first rolled back if it handled
  // a later event (deliver_logged); conservative runs, and safe runs, queue at once.
  [[gnu::always_inline]] void deliver_local(EventId id, Cause cause) {
    if (!processed_.empty()) return deliver_logged(id, cause);
    check_above_gvt(pool_[id]);
    pending_.push(id);
  }
  [[gnu::noinline]] void deliver_logged(EventId id, Cause cause);
  void check_above_gvt(const Event& event) const {
    NW_CHECK(event.key.time >= gvt_, "event at {} ps arrived below GVT {} ps", event.key.time.ps(),
             gvt_.ps());
  }
  void rollback(LpSlot& slot, const EventKey& key, Cause cause);
  void undo_entry(LogPosition at);
  void pop_dead_tail();
  void cancel(const SentRecord& sent, LpId creator);
  void receive_positive(const Event& event);
  void receive_anti(const EventKey& key, LpId dest);
  // Per-channel promises (conservative or hybrid, with a lookahead; Chandy-Misra-Bryant's null
  // messages, riding on the batches): what this rank tells every other one as it
  // flushes, the earliest time it may still send anything (its earliest pending event, or the
  // earliest that may still arrive here, whichever is earlier, plus the lookahead), and what it
  // is told: no message earlier than the least promise of the others can arrive any more.
  SimTime promise_to_others();
  void receive_promise(SimTime promise, int sender);
  // Reads the promises published in shared memory (before taking messages, or after where the
  // exchange counts messages), and applies them (after): what was sent before them has arrived
  // by then.
  void publish_shared_promise();
  void read_shared_promises();
  void apply_shared_promises();
  void update_safe_horizon();
  void commit_entry(const ProcessedEntry& entry, LogPosition at, bool with_records);
  // How far ahead of the entry it commits fossil collection starts loading what commit needs.
  static constexpr LogPosition kCommitLookahead = 8;
  void prefetch_for_commit(LogPosition at) const;
  std::uint64_t undo_end(LogPosition at) const;
  std::uint64_t records_end(LogPosition at) const;
  LogPosition previous_of_lp(const ProcessedEntry& e) const;
  LogPosition sent_begin(const ProcessedEntry& e) const;
  std::uint64_t undo_begin(const ProcessedEntry& e) const;
  std::uint64_t records_begin(const ProcessedEntry& e) const;
  void commit_in_place(const ProcessedEntry& entry, std::uint64_t records_from,
                       std::uint64_t records_to);
  void count_commit(const ProcessedEntry& entry);
  // Whether the caps leave room for one more handled event.
  bool has_room() const {
    return uncommitted() < max_uncommitted_ && capped_bytes() < max_uncommitted_bytes_;
  }
  // At the event cap: rolls back the handled event with the greatest key if it is later than
  // `key`, making room for the earlier one. Returns whether it did.
  bool cancel_back_after(const EventKey& key);
  // The local LP whose newest uncommitted event has the greatest key (its index), or none.
  std::optional<std::uint32_t> slot_with_latest_event();
  std::optional<std::uint32_t> slot_with_latest_logged_event();  // the same, by the log
  bool worth_compacting(SimTime gvt) const;
  void compact(SimTime gvt);
  // Frees cancelled events still in the future event set once they make up half of it.
  void purge_cancelled();
  void note_caps_peak();
  void release(EventId id) { pool_.release(id); }
  // Pops and frees the top of the future event set while it is a cancelled event.
  // Inline for the common case, nothing cancelled, which every event of a batch checks.
  [[gnu::always_inline]] void drop_cancelled_top() {
    if (cancelled_in_queue_ != 0 || !cancelled_pending_.empty()) [[unlikely]]
      pop_cancelled_tops();
  }
  [[gnu::noinline]] void pop_cancelled_tops() {
    while (!pending_.empty() && is_cancelled(pool_[pending_.top().id])) {
      release(pending_.top().id);
      --cancelled_in_queue_;
      pending_.pop();
    }
  }
  bool is_cancelled(const Event& event) {
    if (event.state == EventState::cancelled) return true;
    return event.from_remote && !cancelled_pending_.empty() && is_cancelled_remote(event);
  }
  // Looks the event up among keys cancelled while pending (and uses up the match).
  bool is_cancelled_remote(const Event& event);
  void note_memory_peak();

  const Model& model_;
  const KernelConfig& config_;
  RankExchange& exchange_;
  RecordSink* sink_;
  const int rank_;
  const std::uint64_t max_uncommitted_;
  const std::uint64_t max_uncommitted_bytes_;
  const bool safe_enabled_;  // sync is conservative or hybrid (and no reverse check)
  // Events past the safe horizon may run: sync is not conservative (or events never run safe:
  // the reverse check keeps the Time Warp path, whose checks need the undo logs).
  const bool optimism_;
  const SimTime lookahead_;  // the model's, when events may run safe; zero otherwise

  std::vector<std::int32_t> rank_of_;       // by LP id
  std::vector<std::uint32_t> local_index_;  // by LP id, valid for local LPs
  std::vector<LpId> local_lps_;             // by local index
  // Time of each local LP's newest uncommitted event (-1 ps: none), by local index: a compact
  // array, so the straggler check of most sends stays in L1.
  std::vector<SimTime> newest_time_;
  std::vector<LpSlot> slots_;
  std::vector<LpDigest> digests_;  // after finish_lps
  Log<ProcessedEntry> processed_;
  Log<SentRecord> sent_;
  UndoLog undo_;
  RecordBuffer records_;
  EventPool pool_;
  PendingQueue pending_{pool_};
  // Remote events cancelled by anti-messages while still pending, by key. Per (key, LP),
  // events and anti-messages arrive alternately, so every pending event with the key that
  // arrived before the latest anti-message is cancelled, and a later arrival (a re-sent
  // successor) lives. Usually empty.
  struct CancelledKey {
    std::uint32_t arrived_by;  // arrival count at the latest anti-message
    std::uint32_t pending;     // cancelled events not yet dropped
  };
  std::map<EventKey, CancelledKey> cancelled_pending_;
  std::uint32_t arrivals_ = 0;
  std::vector<WireBatch> outgoing_;  // by destination rank
  // Buffers of sent batches that the exchange handed back (RankExchange::send_from), reused for
  // later batches: with received messages viewed where they lie (try_receive_view), partitions
  // as threads allocate no buffer per message, and free none on another thread.
  std::vector<std::vector<std::byte>> spare_buffers_;

  LogPosition current_ = kNoPosition;  // entry of the handler running now
  bool in_init_ = false;
  bool logging_sends_ = true;  // false in init and safe events: nothing to cancel later
  SimTime safe_until_ = SimTime::zero();
  SimTime handling_time_ = SimTime::zero();  // of the event whose handler runs
  RecordBuffer safe_records_;                // a safe event's records, committed as it returns
  const bool channel_promises_;
  const bool promise_driven_;          // see promise_driven()
  bool speculating_;                   // events past the safe horizon may run now
  std::vector<SimTime> promised_;      // by rank: the latest promise sent to it
  std::vector<SimTime> promise_from_;  // by rank: the latest promise received from it
  // The ranks whose promises go through shared memory (RankExchange::shares_promises_with),
  // what they published when last read, and the latest promise this rank published there.
  std::vector<int> shared_promise_ranks_;
  std::vector<SimTime> shared_promises_read_;
  SimTime published_ = SimTime::zero();
  bool hold_sends_ = false;
  bool held_by_window_ = false;
  SimTime gvt_ = SimTime::zero();
  // At or after the key of every uncommitted event: cancel_back_after skips its search when the
  // top event is not before it. Raised as events run, lowered to the truth by a search. A key,
  // not a time: network models tie in time so often that a time bound let every event at the
  // frontier's instant search the whole log again.
  EventKey frontier_;
  std::uint64_t dead_entries_ = 0;        // rolled-back entries still in processed_
  std::uint64_t cancelled_in_queue_ = 0;  // cancelled events still in pending_
  // Per local LP, its newest entry kept by the compaction pass `pass` (kNoPosition: none).
  struct CompactedNewest {
    std::uint64_t pass = 0;
    LogPosition at = kNoPosition;
  };
  std::vector<CompactedNewest> compacted_newest_;
  std::uint64_t compaction_pass_ = 0;
  std::uint64_t peak_uncommitted_ = 0;
  std::size_t peak_bytes_in_use_ = 0;

  std::int64_t messages_sent_ = 0;
  std::int64_t messages_received_ = 0;
  RunStats stats_;
  std::size_t peak_in_memory_ = 0;
  std::size_t engine_bytes_at_peak_ = 0;
  std::size_t event_store_bytes_at_peak_ = 0;
  std::size_t next_peak_check_ = 1024;
};

// What a std::map node of cancelled_pending_ costs: key, value, three pointers, colour.
inline constexpr std::size_t kMapNodeBytes = 64;

// A 64-bit log position stored as its low 32 bits, recovered relative to a later position
// `reference` of the same log; exact while the live part of a log spans less than 2^32.
inline std::uint32_t short32(std::uint64_t position) {
  return static_cast<std::uint32_t>(position);
}
inline std::uint64_t expand32(std::uint32_t low, std::uint64_t reference) {
  return reference - static_cast<std::uint32_t>(static_cast<std::uint32_t>(reference) - low);
}

// What a GVT round finds: GVT, and the safe horizon (the least local_horizon of every rank).
struct GvtResult {
  SimTime gvt;
  SimTime horizon;
};

// Runs GVT passes (drain, reduce) until no message is in transit and returns the global minimum
// of pending and unsent event times with the safe horizon of the same pass; calls `work` (handle
// local events with sends held, return how many) while a reduction runs.
GvtResult compute_gvt(TimeWarpPe& pe, RankExchange& exchange,
                      const std::function<std::size_t()>& work);

}  // namespace netwarp::engine
