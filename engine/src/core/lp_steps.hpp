// The steps both kernels share, so they cannot drift apart: run one handler, and commit one
// event (fold it into the LP digest and hand its records to the sink).
#pragma once

#include "netwarp/engine/digest.hpp"
#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/lp.hpp"
#include "netwarp/engine/process_info.hpp"

namespace netwarp::engine {

inline void run_handler(LpBase& lp, const Event& event, const EventScope& scope) {
  CheckContext& where = check_context();
  where.lp = scope.self;
  where.key = &event.key;
  where.in_event = true;
  EventCtx ctx(scope);
  lp.handle(event, ctx);
  where.in_event = false;
}

inline void run_init(LpBase& lp, const EventScope& scope) {
  EventCtx ctx(scope);
  lp.init(ctx);
}

// What an LP has committed so far: how many events, and the running hash of them.
struct CommitTally {
  std::uint64_t events = 0;
  std::uint64_t hash = 0;
};

// Commits an event, given its hash (event_hash, taken while it was hot): folds it and its
// records, which `for_each_record(fn)` visits in order, into the tally, and hands the records to
// the sink.
template <class ForEachRecord>
void commit_event_with(CommitTally& tally, LpId lp, const EventKey& key, std::uint64_t hash,
                       RecordSink* sink, ForEachRecord&& for_each_record) {
  ++tally.events;
  std::uint64_t running = fold_event_hash(tally.hash, hash);
  for_each_record([&](PayloadTag tag, std::span<const std::byte> bytes) {
    running = fold_record(running, tag, bytes);
    if (sink) sink->write(CommittedRecord{lp, key, tag, bytes});
  });
  tally.hash = running;
}

// Commits an event whose records run from the buffer's front up to `end_mark`, and drains them.
inline void commit_event(CommitTally& tally, LpId lp, const EventKey& key, std::uint64_t hash,
                         RecordBuffer& records, std::uint64_t end_mark, RecordSink* sink) {
  commit_event_with(tally, lp, key, hash, sink, [&](auto&& fn) {
    if (!records.empty()) records.drain_to(end_mark, fn);
  });
}

// Commits records made outside any event (init, finish) under `key`.
inline void commit_loose_records(CommitTally& tally, LpId lp, const EventKey& key,
                                 RecordBuffer& records, RecordSink* sink) {
  records.drain_to(records.mark(), [&](PayloadTag tag, std::span<const std::byte> bytes) {
    tally.hash = fold_record(tally.hash, tag, bytes);
    if (sink) sink->write(CommittedRecord{lp, key, tag, bytes});
  });
}

// Runs an LP's finish step (its records commit at once under the key (end, lp, ~0)) and
// returns the LP's digest.
inline LpDigest finish_lp(LpBase& lp, LpId id, CommitTally& tally, SimTime end, RecordSink* sink) {
  RecordBuffer records;
  FinishCtx ctx(id, end, records);
  lp.finish(ctx);
  commit_loose_records(tally, id, EventKey{end, id, ~std::uint64_t{0}}, records, sink);
  return LpDigest{id, 0, tally.events, tally.hash, state_hash(lp)};
}

}  // namespace netwarp::engine
