// TimeWarpPe: construction, initial events, handling events optimistically, routing sends.
#include "time_warp_pe.hpp"

#include <algorithm>

namespace netwarp::engine {
namespace {
// A batch to one rank is sent as soon as it holds this many entries.
constexpr std::size_t kFlushEntries = 128;
}  // namespace

TimeWarpPe::TimeWarpPe(const Model& model, const KernelConfig& config, RankExchange& exchange,
                       RecordSink* sink)
    : model_(model),
      config_(config),
      exchange_(exchange),
      sink_(sink),
      rank_(exchange.rank()),
      max_uncommitted_(effective_max_uncommitted(config)),
      max_uncommitted_bytes_(effective_max_uncommitted_bytes(config)),
      safe_enabled_(config.sync != SyncMode::optimistic && !config.check_reverse),
      optimism_(!safe_enabled_ || config.sync != SyncMode::conservative),
      lookahead_(safe_enabled_ ? model.lookahead() : SimTime::zero()),
      outgoing_(static_cast<std::size_t>(exchange.size())),
      channel_promises_(safe_enabled_ && lookahead_ > SimTime::zero() && exchange.size() > 1),
      promise_driven_(!optimism_ || (channel_promises_ && config.sync == SyncMode::hybrid)),
      speculating_(optimism_ && !promise_driven_),
      promised_(static_cast<std::size_t>(exchange.size()), SimTime::zero()),
      promise_from_(static_cast<std::size_t>(exchange.size()), SimTime::zero()) {
  if (channel_promises_)
    for (int r = 0; r < exchange.size(); ++r)
      if (r != rank_ && exchange.shares_promises_with(r)) shared_promise_ranks_.push_back(r);
  shared_promises_read_.resize(shared_promise_ranks_.size(), SimTime::zero());
  const LpId n = model.lp_count();
  rank_of_.resize(n);
  local_index_.assign(n, ~std::uint32_t{0});
  std::uint32_t local = 0;
  for (LpId id = 0; id < n; ++id) {
    const int r = model.rank_of(id, exchange.size());
    NW_CHECK(r >= 0 && r < exchange.size(), "model placed LP {} on rank {} of {}", id, r,
             exchange.size());
    rank_of_[id] = r;
    if (r == rank_) {
      local_index_[id] = local++;
      local_lps_.push_back(id);
    }
  }
  slots_.resize(local);
  newest_time_.assign(local, SimTime::from_ps(-1));
  compacted_newest_.resize(local);
  stats_.kernel = std::string(kernel_name(KernelKind::optimistic));
  stats_.sync = std::string(sync_name(config.sync));
  check_context().rank = rank_;
}

void TimeWarpPe::init_lps() {
  in_init_ = true;
  logging_sends_ = false;
  for (LpId id = 0; id < rank_of_.size(); ++id) {
    if (rank_of_[id] != rank_) continue;
    LpSlot& slot = slot_of(id);
    slot.lp = model_.create_lp(id);
    RecordBuffer init_records;  // init is never rolled back: its records commit at once
    const EventScope scope{.key = EventKey{SimTime::zero(), id, ~std::uint64_t{0}},
                           .seed = config_.seed,
                           .send_counter = &slot.send_counter,
                           .undo = nullptr,
                           .records = &init_records,
                           .router = this,
                           .self = id,
                           .is_init = true,
                           .tie_order = config_.tie_order};
    run_init(*slot.lp, scope);
    commit_loose_records(slot.committed, id, scope.key, init_records, sink_);
  }
  in_init_ = false;
  logging_sends_ = true;
}

EventScope TimeWarpPe::scope_for(LpSlot& slot, const Event& event, EventRouter* router) {
  return EventScope{.key = event.key,
                    .seed = config_.seed,
                    .send_counter = &slot.send_counter,
                    .undo = &undo_,
                    .records = &records_,
                    .router = router,
                    .self = event.dest,
                    .is_init = false,
                    .tie_order = config_.tie_order};
}

// The byte cap is checked once a batch, before its first event (summing the logs for every
// event, or for the many batches that find nothing to do inside the window, costs more than the
// check is worth), so a batch may pass it by its own events' logs.
std::size_t TimeWarpPe::process_batch(std::size_t max_events, SimTime limit) {
  bool bytes_checked = false;
  bool bytes_left = true;
  std::size_t handled = 0;
  std::uint64_t safe = 0;  // counted into stats_ once the batch ends
  while (handled < max_events) {
    const std::size_t run = run_safe_events(max_events - handled, limit);
    handled += run;
    safe += run;
    if (handled == max_events || pending_.empty()) break;
    const EventId id = pending_.top().id;
    const SimTime time = SimTime::from_ps(pending_.top().time_ps);
    if (time >= config_.end_time) break;
    if (promise_driven_ && time >= limit) break;  // the interval's boundary
    // The top is not safe (run_safe_events ran every safe event before it).
    const bool below_horizon = time < safe_until_;
    // Promise-driven: an event below the horizon whose LP still holds uncommitted events (run
    // ahead while speculating) is logged, but it can no longer be rolled back, so it runs
    // whatever the caps say; past the horizon only speculation runs events.
    const bool certain = promise_driven_ && below_horizon;
    if (!speculating_ && !certain) break;  // a promise or the next GVT round moves the horizon
    if (time > limit) {
      held_by_window_ = true;
      break;
    }
    if (!certain && !bytes_checked) {
      bytes_left = capped_bytes() < max_uncommitted_bytes_;
      bytes_checked = true;
    }
    if (!certain && (!bytes_left || uncommitted() >= max_uncommitted_)) {
      if (bytes_left && cancel_back_after(EventKey(pending_.top_key())))
        continue;  // the top changed
      // Past the caps only events at GVT's instant run: without them no rank could move GVT.
      if (time > gvt_) break;
    }
    if (config_.check_reverse) {
      pending_.pop();
      execute_checked(id);
    } else {
      // The handler's first send (or a rollback's first re-queued event) takes the top's slot:
      // one sift-down for pop and push. Handlers and rollbacks only ever push.
      pending_.take_top();
      pending_.prefetch_next([&](LpId lp) { return slots_[local_index_[lp]].lp.get(); });
      execute(id, this);
      pending_.settle();
    }
    if (!pending_.empty()) prefetch(&pool_[pending_.top().id]);
    ++handled;
  }
  stats_.events_processed += safe;
  stats_.events_committed += safe;
  stats_.events_safe += safe;
  if (handled > 0) note_caps_peak();
  return handled;
}

// As the sequential kernel handles an event: no undo records, no log entry, no sent-event
// records; its records commit as it returns. Nothing can arrive from another rank before it,
// and its LP has nothing uncommitted, so it can never be rolled back.
void TimeWarpPe::execute_safe(EventId id) {
  const Event& event = pool_[id];
  LpSlot& slot = slot_of(event.dest);
  EventScope scope = scope_for(slot, event, this);
  scope.undo = nullptr;
  scope.records = &safe_records_;
  handling_time_ = event.key.time;
  logging_sends_ = false;
  run_handler(*slot.lp, event, scope);
  logging_sends_ = true;
  commit_event(slot.committed, event.dest, event.key, event_hash(event), safe_records_,
               safe_records_.mark(), sink_);
  release(id);
}

// The events from the top on that run safe, as the sequential kernel's loop runs them. A safe
// handler receives nothing, so the bound on the run (the safe horizon, the end, the interval's
// boundary) holds until it ends; its sends may roll back an LP that ran ahead, so the top is
// checked for cancelled events and the LP for uncommitted ones at every event.
std::size_t TimeWarpPe::run_safe_events(std::size_t max_events, SimTime limit) {
  std::int64_t bound = std::min(safe_until_.ps(), config_.end_time.ps());
  if (promise_driven_) bound = std::min(bound, limit.ps());
  std::size_t handled = 0;
  while (handled < max_events) {
    drop_cancelled_top();
    if (pending_.empty() || pending_.top().time_ps >= bound || !runs_safe(pending_.top().dest))
      break;
    const EventId id = pending_.top().id;
    pending_.take_top();
    pending_.prefetch_next([&](LpId lp) { return slots_[local_index_[lp]].lp.get(); });
    execute_safe(id);
    pending_.settle();
    ++handled;
  }
  return handled;
}

bool TimeWarpPe::cancel_back_after(const EventKey& key) {
  if (!(key < frontier_)) return false;
  const std::optional<std::uint32_t> latest = slot_with_latest_event();
  if (!latest) return false;
  LpSlot& slot = slots_[*latest];
  const EventKey newest = pool_[processed_[slot.newest].id].key;
  frontier_ = newest;
  if (!(key < newest)) return false;
  rollback(slot, newest, Cause::memory);
  return true;
}

// The handled event with the greatest key is its LP's newest, so the search may go over the LPs'
// newest events or over the log's live entries, whichever are fewer: a rank of a big network
// holds far more LPs than the caps let it hold uncommitted events.
std::optional<std::uint32_t> TimeWarpPe::slot_with_latest_event() {
  const std::uint64_t logged = processed_.end() - processed_.begin();
  if (logged < newest_time_.size()) return slot_with_latest_logged_event();
  std::optional<std::uint32_t> best;
  const Event* best_event = nullptr;
  for (std::uint32_t i = 0; i < newest_time_.size(); ++i) {
    if (best_event && newest_time_[i] < best_event->key.time) continue;
    if (!processed_.contains(slots_[i].newest)) continue;  // its newest time is stale
    const Event& event = pool_[processed_[slots_[i].newest].id];
    if (!best_event || best_event->key < event.key) {
      best = i;
      best_event = &event;
    }
  }
  return best;
}

std::optional<std::uint32_t> TimeWarpPe::slot_with_latest_logged_event() {
  std::optional<std::uint32_t> best;
  const Event* best_event = nullptr;
  for (LogPosition at = processed_.end(); at-- > processed_.begin();) {
    const ProcessedEntry& entry = processed_[at];
    if (entry.dead || (best_event && entry.time < best_event->key.time)) continue;
    const Event& event = pool_[entry.id];
    if (!best_event || best_event->key < event.key) {
      best = entry.slot;
      best_event = &event;
    }
  }
  return best;
}

std::size_t TimeWarpPe::bytes_in_use() const {
  return pool_.live() * EventPool::kBytesPerEvent + pending_.size() * sizeof(PendingQueue::Entry) +
         optimism_bytes();
}

std::size_t TimeWarpPe::optimism_bytes() const {
  std::size_t bytes = (processed_.end() - processed_.begin()) * sizeof(ProcessedEntry) +
                      (sent_.end() - sent_.begin()) * sizeof(SentRecord) + undo_.live_bytes() +
                      records_.live_bytes() + cancelled_pending_.size() * kMapNodeBytes;
  for (const WireBatch& batch : outgoing_) bytes += batch.count() * sizeof(Event);
  return bytes;
}

std::size_t TimeWarpPe::capped_bytes() const {
  return config_.max_uncommitted_bytes > 0 ? bytes_in_use() : optimism_bytes();
}

void TimeWarpPe::note_caps_peak() {
  peak_bytes_in_use_ = std::max(peak_bytes_in_use_, bytes_in_use());
}

// The entry is appended before the handler runs, so a cascade of rollbacks set off by its
// sends only ever meets earlier entries, never the log tails this handler is writing.
void TimeWarpPe::execute(EventId id, EventRouter* router) {
  Event& event = pool_[id];
  const std::uint32_t slot_index = local_index_[event.dest];
  LpSlot& slot = slots_[slot_index];
  event.state = EventState::processed;
  current_ = processed_.push_back(ProcessedEntry{.id = id,
                                                 .sends = 0,
                                                 .slot = slot_index,
                                                 .dead = false,
                                                 .has_previous = processed_.contains(slot.newest),
                                                 .reserved = {},
                                                 .time = event.key.time,
                                                 .hash = event_hash(event),
                                                 .previous_of_lp = short32(slot.newest),
                                                 .sent_begin = short32(sent_.end()),
                                                 .undo_begin = short32(undo_.mark()),
                                                 .records_begin = short32(records_.mark())});
  slot.newest = current_;
  newest_time_[slot_index] = event.key.time;
  if (frontier_ < event.key) frontier_ = event.key;
  peak_uncommitted_ = std::max(peak_uncommitted_, uncommitted());
  handling_time_ = event.key.time;
  run_handler(*slot.lp, event, scope_for(slot, event, router));
  current_ = kNoPosition;
  ++stats_.events_processed;
}

void TimeWarpPe::route(const Event& event) {
  NW_CHECK(event.dest < rank_of_.size(), "event sent to LP {} of {}", event.dest, rank_of_.size());
  const int dest_rank = rank_of_[event.dest];
  if (dest_rank != rank_ || logging_sends_) return route_logged(event, dest_rank);
  // A safe event's local send: nothing to record (the sequential kernel's path; its own function
  // keeps the record-keeping's stack frame off it).
  const EventId id = pool_.allocate();
  pool_[id] = event;
  deliver_local(id, Cause::secondary);
}

void TimeWarpPe::route_logged(const Event& event, int dest_rank) {
  SentRecord record{event.key.time.ps(),
                    event.key.sent.ps(),
                    event.key.counter,
                    event.key.chain,
                    event.dest,
                    event.key.tie,
                    false,
                    {}};
  if (dest_rank == rank_) {
    record.target = pool_.allocate();
    record.is_local = true;
    pool_[record.target] = event;
  } else {
    NW_CHECK(in_init_ || event.key.time.ps() - handling_time_.ps() >= lookahead_.ps(),
             "an event to LP {} on rank {} is {} ps ahead, under the model's lookahead of {} ps",
             event.dest, dest_rank, event.key.time.ps() - handling_time_.ps(), lookahead_.ps());
    WireBatch& batch = outgoing_[static_cast<std::size_t>(dest_rank)];
    batch.add_positive(event);
    ++stats_.remote_events_sent;
    // A batch held through a GVT reduction may have outgrown one message: send_batch splits.
    if (batch.count() >= kFlushEntries && !hold_sends_) send_outgoing(dest_rank);
  }
  if (logging_sends_) {
    sent_.push_back(record);
    ++processed_[current_].sends;
  }
  if (record.is_local) deliver_local(record.target, Cause::secondary);
}

void TimeWarpPe::deliver_logged(EventId id, Cause cause) {
  const Event& event = pool_[id];
  check_above_gvt(event);
  const std::uint32_t index = local_index_[event.dest];
  if (event.key.time <= newest_time_[index]) {
    LpSlot& slot = slots_[index];
    if (processed_.contains(slot.newest) && event.key < pool_[processed_[slot.newest].id].key)
      rollback(slot, event.key, cause);
  }
  pending_.push(id);
}

// Every batch goes out, so a promise made now, with no handler running, holds for all that this
// rank sends later.
void TimeWarpPe::flush_outgoing() {
  NW_CHECK(!hold_sends_, "flush while sends are held");
  const SimTime promise = channel_promises_ ? promise_to_others() : SimTime::zero();
  for (std::size_t r = 0; r < outgoing_.size(); ++r) {
    if (channel_promises_ && static_cast<int>(r) != rank_ && promised_[r] < promise) {
      if (!exchange_.shares_promises_with(static_cast<int>(r)))
        outgoing_[r].add_promise(promise, rank_);
      promised_[r] = promise;
    }
    if (!outgoing_[r].empty()) send_outgoing(static_cast<int>(r));
  }
  publish_shared_promise();  // after the messages it covers
}

// Anything this rank sends later comes from an event it has yet to handle (or to handle again
// after a rollback, which redoes only events later than what set it off: a pending event or an
// arrival), so no earlier than its earliest pending event or the earliest arrival possible (the
// safe horizon: the GVT round's, or the least promise received), plus the lookahead.
SimTime TimeWarpPe::promise_to_others() {
  drop_cancelled_top();
  const SimTime pending =
      pending_.empty() ? SimTime::max() : SimTime::from_ps(pending_.top().time_ps);
  return std::min(pending, safe_until_).saturating_add(lookahead_);
}

void TimeWarpPe::receive_promise(SimTime promise, int sender) {
  NW_CHECK(channel_promises_ && sender >= 0 && sender < exchange_.size() && sender != rank_,
           "a promise from rank {} that rank {} cannot use", sender, rank_);
  promise_from_[static_cast<std::size_t>(sender)] =
      std::max(promise_from_[static_cast<std::size_t>(sender)], promise);
  update_safe_horizon();
}

void TimeWarpPe::publish_promise_early() {
  if (!shared_promise_ranks_.empty() && exchange_.promise_wanted()) publish_shared_promise();
}

// One store for every partition of this process. What still waits in the outgoing batches has
// not reached them, so the promise is no later than it (after a flush, nothing waits there).
void TimeWarpPe::publish_shared_promise() {
  if (shared_promise_ranks_.empty()) return;
  SimTime promise = promise_to_others();
  for (const WireBatch& batch : outgoing_) promise = std::min(promise, batch.min_time());
  if (published_ < promise) {
    exchange_.publish_promise(promise.ps());
    published_ = promise;
  }
}

void TimeWarpPe::update_safe_horizon() {
  SimTime least = SimTime::max();
  for (std::size_t r = 0; r < promise_from_.size(); ++r)
    if (static_cast<int>(r) != rank_) least = std::min(least, promise_from_[r]);
  set_safe_horizon(least);
}

void TimeWarpPe::read_shared_promises() {
  for (std::size_t i = 0; i < shared_promise_ranks_.size(); ++i)
    shared_promises_read_[i] =
        SimTime::from_ps(exchange_.published_promise(shared_promise_ranks_[i]));
}

void TimeWarpPe::apply_shared_promises() {
  bool raised = false;
  for (std::size_t i = 0; i < shared_promise_ranks_.size(); ++i) {
    SimTime& from = promise_from_[static_cast<std::size_t>(shared_promise_ranks_[i])];
    if (shared_promises_read_[i] > from) {
      from = shared_promises_read_[i];
      raised = true;
    }
  }
  if (raised) update_safe_horizon();
}

// Sends a batch in messages of at most kMaxMessageBytes (batches held during a GVT reduction
// can grow past that), in order, so anti-messages still follow their events.
void TimeWarpPe::send_batch(int dest, std::vector<std::byte> bytes) {
  constexpr std::size_t kChunk = kMaxMessageBytes / sizeof(Event) * sizeof(Event);
  if (bytes.size() <= kChunk) {
    exchange_.send_from(dest, bytes);
    ++messages_sent_;
    keep_spare(std::move(bytes));
    return;
  }
  for (std::size_t at = 0; at < bytes.size(); at += kChunk) {
    const auto first = bytes.begin() + static_cast<std::ptrdiff_t>(at);
    const auto last =
        bytes.begin() + static_cast<std::ptrdiff_t>(std::min(at + kChunk, bytes.size()));
    exchange_.send(dest, std::vector<std::byte>(first, last));
    ++messages_sent_;
  }
}

void TimeWarpPe::keep_spare(std::vector<std::byte> buffer) {
  constexpr std::size_t kSpareBuffers = 16;
  if (buffer.capacity() > 0 && spare_buffers_.size() < kSpareBuffers)
    spare_buffers_.push_back(std::move(buffer));
}

void TimeWarpPe::send_outgoing(int dest) {
  std::vector<std::byte> spare;
  if (!spare_buffers_.empty()) {
    spare = std::move(spare_buffers_.back());
    spare_buffers_.pop_back();
  }
  send_batch(dest, outgoing_[static_cast<std::size_t>(dest)].take(std::move(spare)));
}

std::size_t TimeWarpPe::poll_incoming() {
  NW_CHECK(!hold_sends_, "receive while sends are held");
  std::size_t n = 0;
  const bool read_after = exchange_.promises_count_messages();
  if (!read_after) read_shared_promises();
  std::span<const std::byte> message;
  while (exchange_.try_receive_view(message)) {
    receive(message);
    ++n;
  }
  if (read_after) read_shared_promises();  // then it covers what was just taken
  apply_shared_promises();
  return n;
}

SimTime TimeWarpPe::local_horizon() {
  if (!safe_enabled_) return SimTime::zero();
  if (exchange_.size() == 1) return SimTime::max();
  drop_cancelled_top();
  SimTime least = pending_.empty()
                      ? SimTime::max()
                      : SimTime::from_ps(pending_.top().time_ps).saturating_add(lookahead_);
  for (const WireBatch& batch : outgoing_) least = std::min(least, batch.min_time());
  return least;
}

SimTime TimeWarpPe::local_min() {
  drop_cancelled_top();
  SimTime least = pending_.empty() ? SimTime::max() : SimTime::from_ps(pending_.top().time_ps);
  for (const WireBatch& batch : outgoing_) least = std::min(least, batch.min_time());
  return least;
}

}  // namespace netwarp::engine
