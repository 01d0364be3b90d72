// The steps both kernels share, so they cannot drift apart: run one handler, and commit one
// event (fold it into the LP digest and hand its records to the sink).
#pragma once

#include "netwarp/engine/digest.hpp"
#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/lp.hpp"

namespace netwarp::engine {

inline void run_handler(LpBase& lp, const Event& event, const EventScope& scope) {
  CheckContext& where = check_context();
  where.lp = scope.self;
  where.key = event.key;
  where.in_event = true;
  EventCtx ctx(scope);
  lp.handle(event, ctx);
  where.in_event = false;
}

inline void run_init(LpBase& lp, const EventScope& scope) {
  EventCtx ctx(scope);
  lp.init(ctx);
}

// Commits `event` for `digest`: records in [records.mark() at call, end_mark) go to the sink.
inline void commit_event(LpDigest& digest, const Event& event, RecordBuffer& records,
                         std::uint64_t end_mark, RecordSink* sink) {
  ++digest.committed_events;
  std::uint64_t running = fold_event(digest.committed_hash, event);
  records.drain_to(end_mark, [&](PayloadTag tag, std::span<const std::byte> bytes) {
    running = fold_record(running, tag, bytes);
    if (sink) sink->write(CommittedRecord{event.dest, event.key, tag, bytes});
  });
  digest.committed_hash = running;
}

// Runs an LP's finish step; its records commit at once under the key (end, lp, ~0).
inline void finish_lp(LpBase& lp, LpDigest& digest, SimTime end, RecordSink* sink) {
  RecordBuffer records;
  FinishCtx ctx(digest.lp, end, records);
  lp.finish(ctx);
  const EventKey key{end, digest.lp, ~std::uint64_t{0}};
  records.drain_to(records.mark(), [&](PayloadTag tag, std::span<const std::byte> bytes) {
    digest.committed_hash = fold_record(digest.committed_hash, tag, bytes);
    if (sink) sink->write(CommittedRecord{digest.lp, key, tag, bytes});
  });
  digest.state_hash = state_hash(lp);
}

std::uint64_t peak_rss_bytes();
double wall_seconds_since(std::uint64_t start_ns);
std::uint64_t wall_clock_ns();

}  // namespace netwarp::engine
