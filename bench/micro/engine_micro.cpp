// Micro-benchmarks of the engine's hot paths: the future event set, the counter-based RNG, the
// undo log behind reversible state, and a whole small sequential PHOLD run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "core/pending_queue.hpp"
#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/kernel.hpp"
#include "netwarp/engine/random.hpp"
#include "netwarp/engine/reversible.hpp"
#include "netwarp/engine/splitmix.hpp"
#include "netwarp/engine/undo_log.hpp"
#include "netwarp/phold/phold.hpp"

namespace {

using netwarp::engine::EventKey;
using netwarp::engine::EventRng;
using netwarp::engine::LpId;
using netwarp::engine::SimTime;

// Benchmark inputs come from a plain SplitMix64 sequence, so that no EventRng (under test) drives
// the workload.
using InputRng = netwarp::engine::SplitMix64;

// Hold model: a queue of steady size; each step pops the minimum and pushes a key at its time
// plus a random increment (up to about 2 us), as a simulator does on every event.
void BM_PendingQueueHold(benchmark::State& state) {
  const auto size = static_cast<std::size_t>(state.range(0));
  constexpr std::uint64_t kIncrementMask = (std::uint64_t{1} << 21) - 1;  // ps
  InputRng rng(42);
  netwarp::engine::EventPool pool;
  netwarp::engine::PendingQueue queue(pool);
  std::uint64_t counter = 0;
  for (std::size_t i = 0; i < size; ++i) {
    const auto lp = static_cast<LpId>(i);
    const auto t = static_cast<std::int64_t>(rng.next() & kIncrementMask);
    const netwarp::engine::EventId id = pool.allocate();
    pool[id].key = EventKey{SimTime::from_ps(t), lp, counter++};
    queue.push(id);
  }
  for (auto _ : state) {
    const netwarp::engine::PendingQueue::Entry top = queue.top();
    queue.pop();
    const auto increment = static_cast<std::int64_t>(rng.next() & kIncrementMask) + 1;
    EventKey& key = pool[top.id].key;
    key = EventKey{SimTime::from_ps(top.time_ps + increment), key.creator, counter++};
    queue.push(top.id);
  }
  benchmark::DoNotOptimize(queue.top());
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("push+pop");
}
BENCHMARK(BM_PendingQueueHold)->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 22);

void BM_EventRngNextU64(benchmark::State& state) {
  EventRng rng(1, 7, EventKey{netwarp::engine::us(3), 5, 11});
  for (auto _ : state) benchmark::DoNotOptimize(rng.next_u64());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EventRngNextU64);

void BM_EventRngExponential(benchmark::State& state) {
  EventRng rng(1, 7, EventKey{netwarp::engine::us(3), 5, 11});
  for (auto _ : state) benchmark::DoNotOptimize(rng.exponential(0.9));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EventRngExponential);

// What a PHOLD handler does with its stream: create it for a fresh event key, then draw a
// uniform, an LP index and an exponential delay.
void BM_EventRngPerEvent(benchmark::State& state) {
  std::uint64_t counter = 0;
  for (auto _ : state) {
    EventRng rng(1, 7, EventKey{netwarp::engine::us(3), 5, counter++});
    benchmark::DoNotOptimize(rng.uniform());
    benchmark::DoNotOptimize(rng.below(2048));
    benchmark::DoNotOptimize(rng.exponential(0.9));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EventRngPerEvent);

netwarp::engine::EventScope logging_scope(netwarp::engine::UndoLog& log,
                                          std::uint64_t& send_counter) {
  netwarp::engine::EventScope scope;
  scope.self = 0;
  scope.key = EventKey{netwarp::engine::us(1), 0, 0};
  scope.seed = 1;
  scope.send_counter = &send_counter;
  scope.undo = &log;
  return scope;
}

// One "event" makes range(0) reversible counter adds through the context; then it is rolled
// back with undo_to (range(1) = 0) or committed with forget_before (range(1) = 1). Items are adds.
void BM_UndoLogAdds(benchmark::State& state) {
  const auto adds = state.range(0);
  const bool commit = state.range(1) != 0;
  netwarp::engine::UndoLog log;
  std::uint64_t send_counter = 0;
  netwarp::engine::EventCtx ctx(logging_scope(log, send_counter));
  std::vector<netwarp::engine::RevCounter> counters(8);
  for (auto _ : state) {
    const std::uint64_t mark = log.mark();
    for (std::int64_t i = 0; i < adds; ++i) ctx.add(counters[static_cast<std::size_t>(i & 7)], 1);
    if (commit) {
      log.forget_before(log.mark());
    } else {
      log.undo_to(mark);
    }
  }
  benchmark::DoNotOptimize(counters.front().get());
  if (!commit && counters.front().get() != 0) state.SkipWithError("undo did not restore");
  state.SetItemsProcessed(state.iterations() * adds);
}
BENCHMARK(BM_UndoLogAdds)->ArgNames({"adds", "commit"})->ArgsProduct({{1, 8}, {0, 1}});

// A whole sequential PHOLD run: 256 LPs, remote 0.1, 200 us. Items are committed events.
void BM_PholdSequential(benchmark::State& state) {
  netwarp::phold::PholdConfig model_config;
  model_config.lps_per_rank = 256;
  model_config.end = 200;
  const netwarp::phold::PholdModel model(model_config);
  netwarp::engine::KernelConfig config;
  config.kind = netwarp::engine::KernelKind::sequential;
  config.end_time = SimTime::from_us(model_config.end);
  config.seed = model_config.seed;
  std::uint64_t committed = 0;
  for (auto _ : state) {
    const netwarp::engine::RunResult result = netwarp::engine::run_sequential(model, config);
    committed += result.stats.events_committed;
    benchmark::DoNotOptimize(result.stats.digest.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(committed));
  state.counters["events_per_run"] =
      static_cast<double>(committed) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_PholdSequential)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
