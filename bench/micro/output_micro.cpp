// Micro-benchmarks of the output writers' inner loops: CSV rows of the two shapes the default
// incast writes most (ports_timeseries.csv, queues.csv) and the merge of sorted record runs that
// feeds every table (bench/SCALE.md, "Outputs: rows formatted inline, files taken from one queue").
#include <benchmark/benchmark.h>

#include <cstdint>
#include <ostream>
#include <span>
#include <streambuf>
#include <string>
#include <vector>

#include "netwarp/engine/splitmix.hpp"
#include "netwarp/netmodels/csv_text.hpp"
#include "netwarp/netmodels/records.hpp"
#include "netwarp/netmodels/results_source.hpp"

namespace {

using netwarp::netmodels::CsvBuffer;
using netwarp::netmodels::QueueSample;

// Takes the text and keeps none of it: what is measured is the formatting.
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

std::vector<std::string> node_names() {
  std::vector<std::string> names;
  for (int i = 0; i < 64; ++i) names.push_back("host" + std::to_string(i));
  names.push_back("sw0");
  return names;
}

// A ports_timeseries.csv row: 100 us intervals, a quarter of them busy, as the incast's.
void BM_CsvPortRows(benchmark::State& state) {
  const std::vector<std::string> names = node_names();
  netwarp::engine::SplitMix64 rng(1);
  NullBuffer null;
  std::ostream out(&null);
  CsvBuffer csv(out);
  std::int64_t interval = 0;
  for (auto _ : state) {
    const std::uint64_t r = rng.next();
    const bool busy = r % 4 == 0;
    interval += r % 128 == 0 ? 100'000'000 : 0;
    csv.number(interval).comma().text(names[r % names.size()]).comma().number(r % 2);
    csv.comma().text(names.back()).comma().number(busy ? (r >> 8) % 65536 : 0).comma();
    csv.number(busy ? (r >> 24) % 30000 : 0).comma();
    csv.fixed6(busy ? static_cast<double>((r >> 32) % 100'000'000) / 1e8 : 0.0).comma();
    csv.number(0).comma().number(0).comma().number(1);
    csv.end_row();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("rows");
}
BENCHMARK(BM_CsvPortRows);

// A queues.csv row: the switch's port, an event, the queue's bytes and packets.
void BM_CsvQueueRows(benchmark::State& state) {
  static constexpr std::string_view kEvents[] = {"admitted", "departed", "dropped"};
  const std::vector<std::string> names = node_names();
  netwarp::engine::SplitMix64 rng(2);
  NullBuffer null;
  std::ostream out(&null);
  CsvBuffer csv(out);
  std::int64_t time = 5'624'000;
  for (auto _ : state) {
    const std::uint64_t r = rng.next();
    time += r % 3 == 0 ? 12'000 : 0;
    csv.number(time).comma().text(names.back()).comma().number(r % 65);
    csv.comma().text(kEvents[(r >> 8) % 3]).comma().number((r >> 16) % 65536).comma();
    csv.number((r >> 32) % 44).end_row();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("rows");
}
BENCHMARK(BM_CsvQueueRows);

// Queue samples of 65 ports in `runs` runs spilled one after another in time, each sorted by
// (node, port, time): the merge reads a port's records from each run in turn.
void BM_MergeRuns(benchmark::State& state) {
  const auto runs = static_cast<std::size_t>(state.range(0));
  constexpr std::size_t kPerRun = 1 << 16;
  std::vector<std::vector<QueueSample>> spilled(runs);
  netwarp::engine::SplitMix64 rng(3);
  for (std::size_t r = 0; r < runs; ++r) {
    for (std::size_t i = 0; i < kPerRun; ++i) {
      QueueSample s;
      s.node = static_cast<netwarp::netmodels::NodeId>(i * 65 / kPerRun);
      s.time_ps = static_cast<std::int64_t>(r * kPerRun + i);
      s.bytes = rng.next();
      spilled[r].push_back(s);
    }
  }
  for (auto _ : state) {
    std::vector<netwarp::netmodels::RecordRun<QueueSample>> inputs;
    for (const auto& run : spilled) inputs.emplace_back(std::span<const QueueSample>(run));
    netwarp::netmodels::MergedRecords<QueueSample> merged(std::move(inputs));
    std::uint64_t sum = 0;
    for (; const QueueSample* s = merged.peek(); merged.pop()) sum += s->bytes;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(runs * kPerRun));
  state.SetLabel("records");
}
BENCHMARK(BM_MergeRuns)->Arg(2)->Arg(8);

}  // namespace

BENCHMARK_MAIN();
