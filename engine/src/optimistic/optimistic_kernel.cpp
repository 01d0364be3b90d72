// The optimistic kernel's main loop: scheduler iterations (poll, handle a batch within the
// optimism bound, flush), a GVT round every gvt_interval iterations, fossil collection, and at
// the end the statistics and digests of all ranks combined.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <iterator>
#include <optional>
#include <vector>

#include "idle_wait.hpp"
#include "optimism_window.hpp"
#include "time_warp_pe.hpp"

namespace netwarp::engine {
namespace {

// GVT rounds between collective progress reports.
constexpr std::uint64_t kProgressRounds = 64;
// Scheduler iterations between exchanges with other ranks (flush outgoing batches, receive):
// an MPI probe costs about as much as handling a few events, so exchange every few batches,
// at the price of remote events arriving a little later.
constexpr std::uint32_t kExchangeIterations = 4;
// Scheduler iterations in a row that handle and receive nothing (two exchanges' worth) after
// which a rank starts the GVT round at once: only GVT can give it work then (a wider window,
// room under the caps), and waiting out the interval would only delay the round.
constexpr std::uint32_t kIdleIterations = 2 * kExchangeIterations;

std::vector<std::byte> to_bytes(const std::vector<LpDigest>& digests) {
  std::vector<std::byte> bytes(digests.size() * sizeof(LpDigest));
  if (!digests.empty()) std::memcpy(bytes.data(), digests.data(), bytes.size());
  return bytes;
}

std::vector<LpDigest> gather_digests(const std::vector<LpDigest>& local, RankExchange& exchange) {
  std::vector<LpDigest> all;
  for (const auto& part : exchange.gather(to_bytes(local))) {
    const std::size_t n = part.size() / sizeof(LpDigest);
    const std::size_t at = all.size();
    all.resize(at + n);
    if (n > 0) std::memcpy(&all[at], part.data(), part.size());
  }
  std::sort(all.begin(), all.end(),
            [](const LpDigest& a, const LpDigest& b) { return a.lp < b.lp; });
  return all;
}

// Wall time per phase of the main loop.
struct PhaseClock {
  std::uint64_t handling = 0, communication = 0, gvt = 0, fossil = 0;
  std::uint64_t last = wall_clock_ns();
  void lap(std::uint64_t& phase) {
    const std::uint64_t now = wall_clock_ns();
    phase += now - last;
    last = now;
  }
};

// Every rank's share, each rank filling its own slots of one sum.
std::vector<PartitionStats> partition_stats(const RunStats& local, RankExchange& exchange,
                                            const PhaseClock& clock) {
  constexpr std::size_t kFields = 7;
  const auto ranks = static_cast<std::size_t>(exchange.size());
  std::vector<std::int64_t> all(ranks * kFields, 0);
  const std::int64_t own[kFields] = {static_cast<std::int64_t>(local.events_processed),
                                     static_cast<std::int64_t>(local.events_committed),
                                     static_cast<std::int64_t>(local.remote_events_sent),
                                     static_cast<std::int64_t>(clock.handling),
                                     static_cast<std::int64_t>(clock.communication),
                                     static_cast<std::int64_t>(clock.gvt),
                                     static_cast<std::int64_t>(clock.fossil)};
  std::copy(std::begin(own), std::end(own),
            all.begin() +
                static_cast<std::ptrdiff_t>(static_cast<std::size_t>(exchange.rank()) * kFields));
  exchange.sum(all);
  std::vector<PartitionStats> partitions(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    const std::int64_t* v = all.data() + r * kFields;
    partitions[r] = {.events_processed = static_cast<std::uint64_t>(v[0]),
                     .events_committed = static_cast<std::uint64_t>(v[1]),
                     .remote_events_sent = static_cast<std::uint64_t>(v[2]),
                     .handling_seconds = static_cast<double>(v[3]) * 1e-9,
                     .communication_seconds = static_cast<double>(v[4]) * 1e-9,
                     .gvt_seconds = static_cast<double>(v[5]) * 1e-9,
                     .fossil_seconds = static_cast<double>(v[6]) * 1e-9};
  }
  return partitions;
}

// The run's totals and largest phase times, from its partitions'.
void set_partition_totals(RunStats& s) {
  s.events_processed = s.events_committed = s.remote_events_sent = 0;
  s.handling_seconds = s.communication_seconds = s.gvt_seconds = s.fossil_seconds = 0;
  for (const PartitionStats& p : s.partitions) {
    s.events_processed += p.events_processed;
    s.events_committed += p.events_committed;
    s.remote_events_sent += p.remote_events_sent;
    s.handling_seconds = std::max(s.handling_seconds, p.handling_seconds);
    s.communication_seconds = std::max(s.communication_seconds, p.communication_seconds);
    s.gvt_seconds = std::max(s.gvt_seconds, p.gvt_seconds);
    s.fossil_seconds = std::max(s.fossil_seconds, p.fossil_seconds);
  }
}

RunStats combine_stats(RunStats local, RankExchange& exchange, double wall,
                       const PhaseClock& clock) {
  std::int64_t sums[] = {static_cast<std::int64_t>(local.events_safe),
                         static_cast<std::int64_t>(local.events_rolled_back),
                         static_cast<std::int64_t>(local.rolled_back_primary),
                         static_cast<std::int64_t>(local.rolled_back_secondary),
                         static_cast<std::int64_t>(local.rolled_back_for_memory),
                         static_cast<std::int64_t>(local.rollbacks),
                         static_cast<std::int64_t>(local.anti_messages_sent),
                         static_cast<std::int64_t>(local.peak_events_in_memory),
                         static_cast<std::int64_t>(local.engine_bytes_at_peak),
                         static_cast<std::int64_t>(local.event_store_bytes_at_peak)};
  exchange.sum(sums);
  std::int64_t maxima[] = {static_cast<std::int64_t>(peak_rss_bytes()),
                           static_cast<std::int64_t>(wall * 1e9),
                           static_cast<std::int64_t>(local.peak_uncommitted),
                           static_cast<std::int64_t>(local.peak_engine_bytes_in_use)};
  exchange.max(maxima);
  RunStats s = local;
  std::uint64_t* fields[] = {&s.events_safe,
                             &s.events_rolled_back,
                             &s.rolled_back_primary,
                             &s.rolled_back_secondary,
                             &s.rolled_back_for_memory,
                             &s.rollbacks,
                             &s.anti_messages_sent,
                             &s.peak_events_in_memory,
                             &s.engine_bytes_at_peak,
                             &s.event_store_bytes_at_peak};
  for (std::size_t i = 0; i < std::size(fields); ++i)
    *fields[i] = static_cast<std::uint64_t>(sums[i]);
  s.peak_rss_bytes = static_cast<std::uint64_t>(maxima[0]);
  s.wall_seconds = static_cast<double>(maxima[1]) * 1e-9;
  s.peak_uncommitted = static_cast<std::uint64_t>(maxima[2]);
  s.peak_engine_bytes_in_use = static_cast<std::uint64_t>(maxima[3]);
  s.ranks = exchange.size();
  s.partitions = partition_stats(local, exchange, clock);
  set_partition_totals(s);
  s.efficiency = s.events_processed > 0 ? static_cast<double>(s.events_committed) /
                                              static_cast<double>(s.events_processed)
                                        : 1.0;
  s.event_rate = s.wall_seconds > 0 ? static_cast<double>(s.events_committed) / s.wall_seconds : 0;
  return s;
}

void report_progress(const KernelConfig& config, RankExchange& exchange, const TimeWarpPe& pe,
                     SimTime gvt, std::uint64_t start_ns, double& next_report) {
  const std::int64_t committed =
      exchange.sum(static_cast<std::int64_t>(pe.local_stats().events_committed));
  const double wall = wall_seconds_since(start_ns);
  if (exchange.rank() != 0 || wall < next_report) return;
  next_report = wall + 0.5;
  config.on_progress(Progress{gvt, config.end_time, static_cast<std::uint64_t>(committed), wall});
}

// The promise-driven loop (conservative; hybrid with a lookahead on several ranks): the horizon
// moves with the other ranks' promises between rounds, so a GVT round is needed only to end the
// run, to report progress, to commit what hybrid ran optimistically, and to move the horizon over
// a span where no rank has anything to do (promises step by one lookahead per exchange there). A
// rank handles what is safe, promises and polls every few batches (every time round while it
// waits), up to a boundary of simulated time that every rank shares (the next multiple of
// kRoundPeriodLookaheads lookaheads, or the end), so all reach the round together: it
// leaves once it holds nothing before the boundary and nothing earlier can reach it any more, or
// once it has found nothing to handle, received nothing and seen its horizon stand still for
// kIdleBeforeRoundNs (another rank may be in the round already, holding its promises, or have
// lost its core). Leaving for that reason, it asks the ranks it shares memory with to join the
// round at their next exchange (RankExchange::request_round): in the round it publishes no
// promises, and a busy partition would otherwise run on until it waited for them, then idle
// kIdleBeforeRoundNs itself before joining. Conservative never runs past its horizon. Hybrid does,
// but only once it has waited KernelConfig::speculate_after_ns for a promise with nothing arriving
// (a neighbour works through a burst of events within one lookahead), and commits what it ran ahead
// as its horizon passes it: waits of a few microseconds, the usual ones, cost less than the
// rollbacks that running ahead at once brings in tightly coupled networks (bench/SCALE.md).
constexpr std::int64_t kRoundPeriodLookaheads = 1024;
constexpr std::uint64_t kIdleBeforeRoundNs = 1'000'000;

SimTime shared_boundary(SimTime gvt, SimTime lookahead, SimTime end) {
  const std::int64_t period = lookahead.ps() * kRoundPeriodLookaheads;
  if (period <= 0 || gvt.ps() > end.ps() - period) return end;
  return std::min(end, SimTime::from_ps((gvt.ps() / period + 1) * period));
}

void run_promise_interval(TimeWarpPe& pe, RankExchange& exchange, const KernelConfig& config,
                          SimTime boundary, PhaseClock& clock) {
  // Spins, then yields (IdleWait); the interval ends before it would nap.
  IdleWait wait(std::chrono::microseconds(20), exchange.shares_cpus());
  SimTime idle_horizon = SimTime::zero();
  std::uint64_t rolled_back = pe.events_rolled_back();
  for (std::uint32_t batch = 1;; ++batch) {
    const std::size_t handled = pe.process_batch(config.batch_size, boundary);
    if (handled > 0 && batch % kExchangeIterations != 0) {  // as the other modes
      pe.publish_promise_early();
      continue;
    }
    clock.lap(clock.handling);  // a clock read costs as much as a small event: once per exchange
    pe.flush_outgoing();
    const std::size_t received = pe.poll_incoming();
    if (exchange.round_requested()) break;  // another rank waits in the round: join it
    // A move of the horizon, or a rollback, ends speculation (hybrid): the rank waits for
    // promises again first (running ahead again at once would only be rolled back again).
    const bool horizon_moved = pe.safe_horizon() != idle_horizon;
    if (horizon_moved || pe.events_rolled_back() != rolled_back) {
      idle_horizon = pe.safe_horizon();
      rolled_back = pe.events_rolled_back();
      pe.set_speculation(false);
      pe.commit_below_horizon(config.end_time);
    }
    pe.want_promise(handled == 0);
    if (handled > 0) {
      wait.busy();
      clock.lap(clock.communication);
      continue;
    }
    if (pe.local_min() >= boundary && pe.safe_horizon() >= boundary) {
      pe.flush_outgoing();  // the promise that lets the others reach the boundary too
      break;
    }
    // Idle time counts from the last message or move of the horizon: a rank whose neighbour
    // works through a burst gets its events and promises, if not yet past its next event, and
    // leaving for the round would take its own promises away from that neighbour.
    if (received > 0 || horizon_moved) wait.busy();
    if (wait.idle_ns() > kIdleBeforeRoundNs) {
      exchange.request_round();
      break;
    }
    if (wait.idle_ns() >= config.speculate_after_ns) pe.set_speculation(true);
    wait.idle();
    clock.lap(clock.communication);  // waiting for a promise counts as communication
  }
  pe.want_promise(false);
  pe.set_speculation(false);  // the round handles what is safe only
}

// One GVT interval of scheduler iterations (optimistic; hybrid without a lookahead, so without
// promises): exchange every few, handle a batch in each. Ends early once the rank has been idle
// for kIdleIterations.
void run_interval(TimeWarpPe& pe, const KernelConfig& config, SimTime limit, PhaseClock& clock) {
  std::uint32_t idle = 0;
  for (std::uint32_t i = 0; i < config.gvt_interval; ++i) {
    std::size_t received = 0;
    if (i % kExchangeIterations == 0) {
      pe.flush_outgoing();
      received = pe.poll_incoming();
      clock.lap(clock.communication);
    }
    const std::size_t handled = pe.process_batch(config.batch_size, limit);
    clock.lap(clock.handling);
    idle = handled == 0 && received == 0 ? idle + 1 : 0;
    if (idle >= kIdleIterations) return;
  }
}

// What the rank did between two GVT rounds, for the optimism window.
class RoundCounter {
 public:
  explicit RoundCounter(TimeWarpPe& pe) : pe_(pe) {}
  OptimismWindow::Round next() {
    const OptimismWindow::Round round{.processed = pe_.events_processed() - processed_,
                                      .rolled_back = pe_.events_rolled_back() - rolled_back_,
                                      .held_by_window = pe_.take_held_by_window()};
    processed_ = pe_.events_processed();
    rolled_back_ = pe_.events_rolled_back();
    return round;
  }

 private:
  TimeWarpPe& pe_;
  std::uint64_t processed_ = 0;
  std::uint64_t rolled_back_ = 0;
};

// The rank that holds every LP, if one does (a star kept on one rank: engine.few_groups). No
// event can then arrive from another rank, so nothing can roll back: that rank handles the events
// in key order, as the sequential kernel does, with no state saving, and the others wait.
std::optional<int> sole_rank_with_lps(const Model& model, const KernelConfig& config, int ranks) {
  if (ranks < 2 || model.lp_count() == 0 || config.check_reverse) return std::nullopt;
  const int first = model.rank_of(0, ranks);
  for (LpId id = 1; id < model.lp_count(); ++id)
    if (model.rank_of(id, ranks) != first) return std::nullopt;
  return first;
}

// The statistics, LP digests and run digest of all ranks, the same everywhere but the digests
// (rank 0 only).
RunResult combine_result(const RunStats& local, const std::vector<LpDigest>& local_digests,
                         RankExchange& exchange, double wall, const PhaseClock& clock) {
  RunResult result;
  result.stats = combine_stats(local, exchange, wall, clock);
  result.stats.kernel = std::string(kernel_name(KernelKind::optimistic));
  result.stats.sync = local.sync;
  result.lp_digests = gather_digests(local_digests, exchange);
  std::vector<std::byte> digest;
  if (exchange.rank() == 0) {
    const std::string hex = digest_hex(combine_digests(result.lp_digests));
    digest.resize(hex.size());
    std::memcpy(digest.data(), hex.data(), hex.size());
  }
  exchange.broadcast(digest);
  result.stats.digest.assign(reinterpret_cast<const char*>(digest.data()), digest.size());
  return result;
}

// Returns once every rank has called it, waiting as IdleWait does with naps of up to a
// millisecond: the working rank may take seconds, and each wake-up costs it.
void wait_for_every_rank(RankExchange& exchange) {
  IdleWait wait(std::chrono::microseconds(1000), exchange.shares_cpus());
  exchange.start_sum_and_min(0, 0, 0);
  std::int64_t total = 0;
  std::int64_t least = 0;
  std::int64_t horizon = 0;
  while (!exchange.try_finish_sum_and_min(total, least, horizon)) wait.idle();
}

RunResult run_on_sole_rank(const Model& model, const KernelConfig& config, RankExchange& exchange,
                           RecordSink* sink, int sole) {
  exchange.barrier();  // as in run_optimistic: unequal build times are not run time
  PhaseClock clock;
  RunResult own;
  if (exchange.rank() == sole) {
    KernelConfig config_here = config;
    if (sole != 0) config_here.on_progress = nullptr;  // progress is rank 0's to print
    own = run_sequential(model, config_here, sink);
    clock.lap(clock.handling);
  }
  // The run's wall time is the working rank's sequential kernel's, the span a sequential run
  // reports (its LPs built, its events handled): the others only waited, and how soon a napping
  // rank wakes to the reduction below is not time the run took.
  const double wall = exchange.rank() == sole ? own.stats.wall_seconds : 0.0;
  wait_for_every_rank(exchange);
  RunStats local = own.stats;
  local.sole_rank = sole;
  local.sync = std::string(sync_name(config.sync));
  RunResult result = combine_result(local, own.lp_digests, exchange, wall, clock);
  result.stats.end_time = config.end_time;
  return result;
}

}  // namespace

RunResult run_optimistic(const Model& model, const KernelConfig& config, RankExchange& exchange,
                         RecordSink* sink) {
  if (config.sync == SyncMode::conservative && exchange.size() > 1 &&
      model.lookahead() <= SimTime::zero())
    throw ModelError(
        "engine.sync: CONSERVATIVE needs a lookahead > 0, and this model declares none (a link "
        "of zero latency?); use HYBRID or OPTIMISTIC");
  if (const std::optional<int> sole = sole_rank_with_lps(model, config, exchange.size()))
    return run_on_sole_rank(model, config, exchange, sink, *sole);
  // Ranks arrive here after building their parts of the model, which can take unequal times:
  // without the barrier the slower build would be counted as the others' GVT time.
  exchange.begin_run();
  exchange.barrier();
  const std::uint64_t start_ns = wall_clock_ns();
  TimeWarpPe pe(model, config, exchange, sink);
  pe.init_lps();
  exchange.barrier();  // creating and initialising LPs may take unequal times too
  // The first horizon, so the first interval runs safe events too (a GVT round: init may have
  // sent messages).
  if (config.sync != SyncMode::optimistic)
    pe.set_safe_horizon(compute_gvt(pe, exchange, [] { return std::size_t{0}; }).horizon);
  SimTime gvt = SimTime::zero();
  std::uint64_t rounds = 0;
  double next_report = 0.5;
  PhaseClock clock;
  OptimismWindow window(config.window, config.adaptive_window);
  RoundCounter round(pe);
  for (;;) {
    // Promise-driven: the shared boundary of this interval; otherwise the optimism window.
    const SimTime limit = pe.promise_driven()
                              ? shared_boundary(gvt, model.lookahead(), config.end_time)
                              : window.limit(gvt);
    if (pe.promise_driven()) {
      run_promise_interval(pe, exchange, config, limit, clock);
    } else {
      run_interval(pe, config, limit, clock);
    }
    const GvtResult round_result =
        compute_gvt(pe, exchange, [&] { return pe.process_batch(config.batch_size, limit); });
    gvt = round_result.gvt;
    pe.set_safe_horizon(round_result.horizon);
    clock.lap(clock.gvt);
    // (Hybrid may have committed past GVT already, below its horizon.)
    pe.fossil_collect(std::max(pe.committed_to(), std::min(gvt, config.end_time)));
    clock.lap(clock.fossil);
    window.adapt(round.next());
    ++rounds;
    if (gvt >= config.end_time) break;
    if (config.on_progress && rounds % kProgressRounds == 0)
      report_progress(config, exchange, pe, gvt, start_ns, next_report);
  }
  pe.finish_lps(config.end_time);
  exchange.complete_sends();

  RunResult result = combine_result(pe.local_stats(), pe.local_digests(), exchange,
                                    wall_seconds_since(start_ns), clock);
  result.stats.gvt_rounds = rounds;
  result.stats.window_narrowest = SimTime::from_ps(exchange.min(window.narrowest().ps()));
  result.stats.window_widest = SimTime::from_ps(exchange.max(window.widest().ps()));
  result.stats.end_time = config.end_time;
  return result;
}

}  // namespace netwarp::engine
