// The sequential kernel: the reference execution. One future event set for all LPs, events
// handled in key order and committed at once; no undo logging.
#include <vector>

#include "../core/event_pool.hpp"
#include "../core/lp_steps.hpp"
#include "../core/pending_queue.hpp"
#include "netwarp/engine/kernel.hpp"

namespace netwarp::engine {
namespace {

class SequentialKernel final : public EventRouter {
 public:
  SequentialKernel(const Model& model, const KernelConfig& config, RecordSink* sink)
      : model_(model), config_(config), sink_(sink) {}

  RunResult run();
  void route(const Event& event) override {
    NW_CHECK(event.dest < lps_.size(), "event sent to LP {} of {}", event.dest, lps_.size());
    const EventId id = pool_.allocate();
    pool_[id] = event;
    pending_.push(id);
  }

 private:
  void build_and_init();
  void handle(EventId id);
  void report_progress(std::uint64_t start_ns, SimTime now, double& next_report);

  const Model& model_;
  const KernelConfig& config_;
  RecordSink* sink_;
  std::vector<std::unique_ptr<LpBase>> lps_;
  std::vector<std::uint64_t> send_counters_;
  std::vector<CommitTally> tallies_;
  RecordBuffer records_;
  EventPool pool_;
  PendingQueue pending_{pool_};
};

void SequentialKernel::build_and_init() {
  const LpId n = model_.lp_count();
  lps_.reserve(n);
  for (LpId id = 0; id < n; ++id) lps_.push_back(model_.create_lp(id));
  send_counters_.assign(n, 0);
  tallies_.resize(n);
  for (LpId id = 0; id < n; ++id) {
    const EventScope scope{.key = EventKey{SimTime::zero(), id, ~std::uint64_t{0}},
                           .seed = config_.seed,
                           .send_counter = &send_counters_[id],
                           .undo = nullptr,
                           .records = &records_,
                           .router = this,
                           .self = id,
                           .is_init = true,
                           .tie_order = config_.tie_order};
    run_init(*lps_[id], scope);
    commit_loose_records(tallies_[id], id, scope.key, records_, sink_);
  }
}

void SequentialKernel::handle(EventId id) {
  const Event& event = pool_[id];
  const LpId lp = event.dest;
  const EventScope scope{.key = event.key,
                         .seed = config_.seed,
                         .send_counter = &send_counters_[lp],
                         .undo = nullptr,
                         .records = &records_,
                         .router = this,
                         .self = lp,
                         .is_init = false,
                         .tie_order = config_.tie_order};
  run_handler(*lps_[lp], event, scope);
  commit_event(tallies_[lp], lp, event.key, event_hash(event), records_, records_.mark(), sink_);
  pool_.release(id);
}

void SequentialKernel::report_progress(std::uint64_t start_ns, SimTime now, double& next_report) {
  const double wall = wall_seconds_since(start_ns);
  if (wall < next_report) return;
  next_report = wall + 0.5;
  std::uint64_t committed = 0;
  for (const CommitTally& t : tallies_) committed += t.events;
  config_.on_progress(Progress{now, config_.end_time, committed, wall});
}

RunResult SequentialKernel::run() {
  const std::uint64_t start_ns = wall_clock_ns();
  build_and_init();
  std::uint64_t handled = 0;
  double next_report = 0.5;
  while (!pending_.empty() && pending_.top().time_ps < config_.end_time.ps()) {
    const EventId id = pending_.top().id;
    const SimTime time = SimTime::from_ps(pending_.top().time_ps);
    pending_.take_top();
    pending_.prefetch_next([&](LpId lp) { return lps_[lp].get(); });
    handle(id);
    pending_.settle();
    ++handled;
    if (config_.on_progress && (handled & 0xFFFF) == 0)
      report_progress(start_ns, time, next_report);
  }
  const std::size_t engine_bytes = pool_.capacity_bytes() + pending_.capacity_bytes();
  std::vector<LpDigest> digests;
  digests.reserve(lps_.size());
  for (LpId id = 0; id < lps_.size(); ++id)
    digests.push_back(finish_lp(*lps_[id], id, tallies_[id], config_.end_time, sink_));

  RunResult result;
  RunStats& s = result.stats;
  s.kernel = std::string(kernel_name(KernelKind::sequential));
  s.events_processed = s.events_committed = s.events_safe = handled;
  s.wall_seconds = wall_seconds_since(start_ns);
  s.event_rate = s.wall_seconds > 0 ? static_cast<double>(handled) / s.wall_seconds : 0;
  s.peak_rss_bytes = peak_rss_bytes();
  s.peak_events_in_memory = pool_.peak_live();
  s.engine_bytes_at_peak = engine_bytes;
  s.event_store_bytes_at_peak = engine_bytes;  // nothing but the event store
  s.end_time = config_.end_time;
  s.digest = digest_hex(combine_digests(digests));
  result.lp_digests = std::move(digests);
  return result;
}

}  // namespace

RunResult run_sequential(const Model& model, const KernelConfig& config, RecordSink* sink) {
  SequentialKernel kernel(model, config, sink);
  return kernel.run();
}

}  // namespace netwarp::engine
