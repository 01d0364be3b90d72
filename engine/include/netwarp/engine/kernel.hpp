// Running a model: the sequential kernel (the reference) and the optimistic Time Warp kernel
// over a RankExchange. Both commit the same events in the same per-LP order and produce the
// same digest for the same model, seed and end time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "netwarp/engine/digest.hpp"
#include "netwarp/engine/event.hpp"
#include "netwarp/engine/model.hpp"
#include "netwarp/engine/rank_exchange.hpp"

namespace netwarp::engine {

enum class KernelKind { sequential, optimistic };
std::string_view kernel_name(KernelKind kind);

// How the optimistic kernel synchronises its ranks. Events earlier than a rank's safe horizon
// (the least of every rank's earliest pending event plus the model's lookahead and of every
// unsent message, found by the GVT round) can never be rolled back: with `conservative` and
// `hybrid` the kernel handles them as the sequential kernel does (no undo records, handled-event
// log entry or sent-event record; committed at once).
//  optimistic:   Time Warp only (every event logged, as before 2026-11-28).
//  conservative: YAWNS: each rank handles the events below the horizon, then a GVT round sets the
//                next horizon; nothing is ever handled past it, so nothing rolls back. Needs a
//                model with a lookahead > 0.
//  hybrid:       safe events without bookkeeping, Time Warp past the horizon.
enum class SyncMode { optimistic, conservative, hybrid };
std::string_view sync_name(SyncMode mode);

struct Progress {
  SimTime now;  // GVT for the optimistic kernel
  SimTime end;
  std::uint64_t events_committed = 0;
  double wall_seconds = 0;
};

struct KernelConfig {
  KernelKind kind = KernelKind::sequential;
  SimTime end_time = SimTime::max();  // events at or after it are not processed
  std::uint64_t seed = 1;
  TieOrder tie_order = TieOrder::fifo;  // order of events at one instant (event_key.hpp)
  // Optimistic kernel only.
  SyncMode sync = SyncMode::hybrid;
  std::uint32_t batch_size = 16;    // events per scheduler iteration between message polls
  std::uint32_t gvt_interval = 64;  // scheduler iterations between GVT rounds
  SimTime window = SimTime::max();  // never process events later than GVT + window
  // Adapt the window on each rank, starting from `window` (a finite one), judged after GVT
  // rounds that handled at least 1024 events: halve it when more than 1/16 of them were rolled
  // back, grow it by a quarter when at most 1/64 were and the window held the rank back (double it
  // when none were or the rank idled at its edge); within
  // [window / 8, window x 4096] (optimism_window.hpp). Only timing depends on it, never results.
  bool adaptive_window = false;
  // Hard bounds on optimism per rank. A rank never holds more than max_uncommitted handled but
  // uncommitted events (0: two GVT rounds' worth, 2 x gvt_interval x batch_size), and stops
  // handling events while the engine's memory in use (pending events, the handled-event log, the
  // undo log, sent-event and record logs) is at max_uncommitted_bytes or more. By default (0) the
  // bound is 64 events' worth per uncommitted event, at least 16 MiB, on what optimism adds only
  // (the logs, cancelled keys, held sends): a big model's own pending events, which the
  // sequential kernel holds as well, would otherwise stop every rank from running ahead (the
  // 50^3 torus holds 113 MB of them). At the count cap, an event earlier than
  // handled work still runs after that work is rolled back (cancelback). Events at GVT's instant
  // always run, so GVT advances even when every rank is at its caps.
  std::uint64_t max_uncommitted = 0;
  std::uint64_t max_uncommitted_bytes = 0;
  // Hybrid with a lookahead on several ranks: how long (wall time) a rank waits for a promise,
  // with nothing arriving, before it runs events past its safe horizon. Waits are usually a few
  // microseconds; a longer one means a neighbour works through a burst within one lookahead.
  // Only timing depends on it, never results (tests set 0: speculate whenever blocked).
  std::uint64_t speculate_after_ns = 50'000;
  bool check_reverse = false;  // forward, rollback, forward again on every event
  // Called on rank 0 about twice a second of wall time.
  std::function<void(const Progress&)> on_progress;
};

// The uncommitted-event bound in force: max_uncommitted, or two GVT rounds' worth when 0.
inline std::uint64_t effective_max_uncommitted(const KernelConfig& c) {
  return c.max_uncommitted > 0 ? c.max_uncommitted
                               : 2 * std::uint64_t{c.gvt_interval} * c.batch_size;
}

// The byte bound in force: max_uncommitted_bytes, or by default room for 64 events (with their
// queue entries and logs) per uncommitted event allowed, and never below 16 MiB (on optimism's
// own memory then: see max_uncommitted_bytes).
inline std::uint64_t effective_max_uncommitted_bytes(const KernelConfig& c) {
  constexpr std::uint64_t kEventsPerUncommitted = 64;
  constexpr std::uint64_t kFloor = std::uint64_t{16} << 20;
  if (c.max_uncommitted_bytes > 0) return c.max_uncommitted_bytes;
  return std::max(kFloor, effective_max_uncommitted(c) * kEventsPerUncommitted * sizeof(Event));
}

// One partition's (rank's) share of an optimistic run: what the totals and maxima of RunStats
// are made of, for how evenly the run's work was spread.
struct PartitionStats {
  std::uint64_t events_processed = 0;
  std::uint64_t events_committed = 0;
  std::uint64_t remote_events_sent = 0;
  double handling_seconds = 0;
  double communication_seconds = 0;
  double gvt_seconds = 0;
  double fossil_seconds = 0;
};

struct RunStats {
  std::string kernel;
  std::string sync;  // the optimistic kernel's SyncMode (sync_name); empty for the sequential one
  int ranks = 1;
  std::uint64_t events_processed = 0;  // handler executions, re-executions included
  std::uint64_t events_committed = 0;
  // Handled with no Time Warp bookkeeping (below the safe horizon, or by the sequential kernel
  // or a sole rank, which keep none).
  std::uint64_t events_safe = 0;
  std::uint64_t events_rolled_back = 0;
  std::uint64_t rolled_back_primary = 0;     // undone by a remote straggler or anti-message
  std::uint64_t rolled_back_secondary = 0;   // undone by a cascade on the same rank
  std::uint64_t rolled_back_for_memory = 0;  // undone to make room under max_uncommitted
  std::uint64_t rollbacks = 0;               // straggler or cancellation episodes
  std::uint64_t remote_events_sent = 0;
  std::uint64_t anti_messages_sent = 0;
  std::uint64_t gvt_rounds = 0;
  // The optimistic kernel on several ranks, when one rank held every LP: that rank (which then
  // handled the events in key order with no state saving: nothing could roll back); -1 otherwise.
  int sole_rank = -1;
  // The optimism window's narrowest and widest width on any rank (max(): unbounded).
  SimTime window_narrowest = SimTime::max();
  SimTime window_widest = SimTime::max();
  double efficiency = 1.0;  // committed / processed
  double wall_seconds = 0;
  double event_rate = 0;  // committed events per wall second
  // Where the optimistic kernel's wall time went (seconds, largest over ranks).
  double handling_seconds = 0;       // running handlers, rollbacks included
  double communication_seconds = 0;  // flushing and receiving between batches
  double gvt_seconds = 0;            // GVT rounds, waiting for other ranks included
  double fossil_seconds = 0;         // committing
  // Every partition's share, in rank order (the optimistic kernel; empty for the sequential one).
  std::vector<PartitionStats> partitions;
  std::uint64_t peak_rss_bytes = 0;  // largest over ranks
  // Largest over ranks: handled but uncommitted events, and the engine memory in use (the
  // quantities max_uncommitted and max_uncommitted_bytes bound).
  std::uint64_t peak_uncommitted = 0;
  std::uint64_t peak_engine_bytes_in_use = 0;
  std::uint64_t peak_events_in_memory = 0;  // pending + uncommitted, summed over ranks
  std::uint64_t engine_bytes_at_peak = 0;   // event pool, queues and logs at that peak
  // Of which the event store: the pool's slots and the future event set. A pending event costs
  // this much; rollback logs are extra, for handled events not yet committed.
  std::uint64_t event_store_bytes_at_peak = 0;
  SimTime end_time;
  std::string digest;  // hex; identical across kernels and rank counts
};

struct RunResult {
  RunStats stats;
  std::vector<LpDigest> lp_digests;  // every LP, in id order (rank 0 only)
};

// Model behaviour the kernel can detect but not survive (a broken undo path, a payload an LP
// does not handle). Carries a readable report.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RecordSink;

RunResult run_sequential(const Model& model, const KernelConfig& config,
                         RecordSink* sink = nullptr);
RunResult run_optimistic(const Model& model, const KernelConfig& config, RankExchange& exchange,
                         RecordSink* sink = nullptr);

}  // namespace netwarp::engine
