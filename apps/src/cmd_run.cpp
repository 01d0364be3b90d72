// `netwarp run`: scenario -> NetworkSpec -> engine run -> every rank's records -> rank 0 streams
// the outputs.
#include "cmd_run.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>

#include "cmd_plot.hpp"
#include "exit_codes.hpp"
#include "huge_pages.hpp"
#include "mpi_run.hpp"
#include "netwarp/engine/cpu_pinning.hpp"
#include "netwarp/engine/process_info.hpp"
#include "netwarp/netmodels/network_model.hpp"
#include "netwarp/netmodels/network_results.hpp"
#include "netwarp/netmodels/results_source.hpp"
#include "netwarp/netmodels/spilling_results.hpp"
#include "netwarp/scenarios/memory_estimate.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "network_outputs.hpp"
#include "pfc_report.hpp"
#include "run_report.hpp"
#include "run_sweep.hpp"
#include "staged_folder.hpp"
#include "thread_results.hpp"
#include "unit_options.hpp"

namespace netwarp::apps {
namespace {

// The default optimism window of a network run: 10 x the smallest link latency (unbounded when
// every link has zero latency). Without a bound in simulated time, tightly coupled networks (an
// incast through one switch) run far ahead and thrash: efficiency below 1 % on 2 ranks.
double default_window_us(const netmodels::Topology& topology) {
  std::int64_t least = 0;
  for (const auto& node : topology.nodes)
    for (const auto& port : node.ports)
      if (port.latency.ps() > 0 && (least == 0 || port.latency.ps() < least))
        least = port.latency.ps();
  return least == 0 ? -1 : 10 * static_cast<double>(least) * 1e-6;
}

// The scenario's engine block, then whatever the command line set explicitly.
KernelOptions merged_kernel_options(const RunOptions& o, const scenarios::EngineSettings& s,
                                    const netmodels::Topology& topology) {
  KernelOptions k;
  k.kernel = s.kernel;
  if (s.kernel_is_set) k.kernel_chosen_by = "engine.kernel";
  k.gvt_interval = s.gvt_interval;
  k.batch = s.batch;
  k.window_us = s.window_is_set ? s.window_us : default_window_us(topology);
  k.adaptive_window = s.adaptive_window;
  k.max_uncommitted = s.max_uncommitted;
  k.max_uncommitted_bytes = s.max_uncommitted_bytes;
  if (!s.sync.empty()) k.sync = s.sync;
  const CLI::App& c = *o.command;
  if (c.count("--kernel") > 0) {
    k.kernel = o.kernel.kernel;
    k.kernel_chosen_by = "--kernel";
  }
  if (c.count("--gvt-interval") > 0) k.gvt_interval = o.kernel.gvt_interval;
  if (c.count("--batch") > 0) k.batch = o.kernel.batch;
  if (c.count("--window") > 0) k.window_us = o.kernel.window_us;
  if (c.count("--adaptive-window") > 0) k.adaptive_window = o.kernel.adaptive_window;
  if (c.count("--max-uncommitted") > 0) k.max_uncommitted = o.kernel.max_uncommitted;
  if (c.count("--sync") > 0) k.sync = o.kernel.sync;
  if (c.count("--max-uncommitted-bytes") > 0)
    k.max_uncommitted_bytes = o.kernel.max_uncommitted_bytes;
  k.check_reverse = o.kernel.check_reverse;
  return k;
}

// 0, or incomplete (said on stderr) when messages are undelivered: end_time stopped the run,
// or the traffic stopped by itself.
int exit_status(const NetworkRunReport& report, bool has_end_time) {
  const netmodels::NetworkTotals& t = report.totals;
  if (t.messages_delivered == t.messages) return exit_code::kSuccess;
  std::fprintf(stderr, "netwarp: incomplete: %llu of %llu messages undelivered %s\n",
               static_cast<unsigned long long>(t.messages - t.messages_delivered),
               static_cast<unsigned long long>(t.messages),
               has_end_time ? "when end_time stopped the run"
                            : "when the traffic stopped (no event was left to run)");
  return exit_code::kIncomplete;
}

// Under PFC: bad input when a lossless class lost packets beyond its headroom (the error names
// the port and the missing headroom), a deadlock when pauses form a cycle at the end of a run
// with messages undelivered (the cycle's ports named), success otherwise.
int pfc_verdict(const NetworkRunReport& report) {
  if (!report.spec->switches.pfc.enabled) return exit_code::kSuccess;
  const PfcSummary pfc = summarise_pfc(*report.spec, *report.results);
  if (!pfc.overflow.empty()) {
    std::fprintf(stderr, "netwarp: error: %s\n", pfc.overflow.c_str());
    return exit_code::kBadInput;
  }
  const bool has_work_left = report.totals.messages_delivered < report.totals.messages;
  if (pfc.cycle.empty() || !has_work_left) return exit_code::kSuccess;
  std::fprintf(stderr, "netwarp: deadlock: PFC pauses in a cycle hold every port of it: %s\n",
               pfc.cycle.c_str());
  return exit_code::kDeadlock;
}

// Rank 0's folder for the part files, named to every rank (SpillingResults makes it when it first
// writes there).
std::string parts_dir(const StagedFolder& out, const AppContext& context) {
  std::vector<std::byte> bytes;
  if (context.is_root()) {
    const std::string dir = out.path() + "/.parts";
    bytes.resize(dir.size());
    std::memcpy(bytes.data(), dir.data(), dir.size());
  }
  context.exchange->broadcast(bytes);
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// Every rank's committed records in canonical order, for rank 0 to stream. On one rank, the runs
// it spilled (if any) and its sorted buffer, merged as they are read; with partitions that are
// all threads of this process, every partition's runs and buffer likewise (ThreadResults: no part
// files); otherwise each rank merges what it spilled and what it still holds into its part files
// in rank 0's output folder, and rank 0 merges those as it reads, so no rank ever holds more than
// its record buffer. Collective; returns on rank 0 every rank's memory (`mine` with its peak so
// far; the ranks other than 0 are done then).
std::vector<RankMemory> share_results(netmodels::SpillingResults& local, const AppContext& context,
                                      std::unique_ptr<netmodels::ResultsSource>& source,
                                      RankMemory mine) {
  const int ranks = context.exchange->size();
  if (ranks == 1) {
    try {
      source = std::make_unique<netmodels::ResultsSource>(local.finish_in_place(), &local.buffer());
    } catch (const std::exception& e) {
      throw UsageError(e.what());
    }
    return {mine};  // the caller reads its peak once the outputs are written
  }
  std::string error;
  try {
    if (context.thread_results != nullptr) {  // all in this process: records stay in memory
      std::vector<std::string> stems = local.finish_in_place();
      context.thread_results->leave(context.exchange->rank(), std::move(stems),
                                    std::move(local.buffer()));
    } else {
      local.finish();
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (context.exchange->max(error.empty() ? 0 : 1) != 0)
    throw UsageError(error.empty() ? "another rank could not write its results" : error);
  source = context.thread_results != nullptr
               ? context.thread_results->source()
               : std::make_unique<netmodels::ResultsSource>(local.dir(), ranks);
  mine.peak_bytes = static_cast<std::int64_t>(engine::peak_rss_bytes());
  std::vector<std::byte> bytes(sizeof mine);
  std::memcpy(bytes.data(), &mine, sizeof mine);
  std::vector<RankMemory> memory;
  for (const auto& part : context.exchange->gather(std::move(bytes))) {
    RankMemory m;
    std::memcpy(&m, part.data(), std::min(part.size(), sizeof m));
    memory.push_back(m);
  }
  return memory;
}

// How the model is split over the ranks: LPs, hosts and memory of each (shown on several ranks,
// where each rank should hold about its share). A rank's own part is its peak beyond what it
// held once the model was built (scenario, topology and workload, which every rank holds).
// Threads share one process's memory: no memory per partition then. It also says when the
// partitions outnumber the CPUs (RankExchange::shares_cpus), which slows a run down.
std::string format_partition(const netmodels::NetworkModel& model, int ranks,
                             const std::vector<RankMemory>& memory, const AppContext& context) {
  const bool threads = context.threads;
  std::vector<std::uint64_t> lps(static_cast<std::size_t>(ranks));
  std::vector<std::uint64_t> hosts(lps.size());
  for (engine::LpId id = 0; id < model.lp_count(); ++id) {
    const auto rank = static_cast<std::size_t>(model.rank_of(id, ranks));
    ++lps[rank];
    if (model.spec().topology.is_host(id)) ++hosts[rank];
  }
  const auto mib = [](std::int64_t bytes) { return static_cast<double>(bytes) / (1 << 20); };
  std::string out = "partition    ";
  for (std::size_t r = 0; r < lps.size(); ++r) {
    out += fmt::format("{} {} {}: {} LPs ({} hosts)", r == 0 ? "" : ";",
                       threads ? "thread" : "rank", r, lps[r], hosts[r]);
    if (threads || r >= memory.size()) continue;
    const RankMemory& m = memory[r];
    out +=
        fmt::format(", peak RSS {:.1f} MiB ({:.1f} at start, {:.1f} once built, own part {:.1f})",
                    mib(m.peak_bytes), mib(m.start_bytes), mib(m.built_bytes), mib(m.own_bytes()));
  }
  if (context.exchange->shares_cpus())
    out += fmt::format(
        "; more partitions than the {} CPUs they may use: each yields its CPU while "
        "it waits",
        engine::usable_cpus());
  return out + "\n";
}

int run_mpi(const RunOptions& o, const AppContext& context, const scenarios::LoadedScenario& loaded,
            const scenarios::EngineSettings& settings) {
  if (!scenarios::is_mpi_scenario(loaded))
    throw UsageError(fmt::format(
        "--trace: {} has no mpi section to replay the trace on; use a platform such as {}/"
        "cluster.pbtxt",
        loaded.path, scenarios::scenario_library_dir()));
  scenarios::MpiRunSpec spec = scenarios::build_mpi_run(loaded, o.trace, o.compute_scale);
  const KernelOptions kernel = merged_kernel_options(o, settings, spec.network.topology);
  MpiRunInputs in;
  in.loaded = &loaded;
  in.spec = &spec;
  in.config = make_kernel_config(kernel, context);
  in.config.end_time = settings.end_time;
  in.config.seed = settings.seed;
  in.config.tie_order = settings.tie_order;
  in.window_us = in.config.kind == engine::KernelKind::optimistic ? kernel.window_us : -1;
  in.out_dir = out_dir_or_default(o.out_dir, loaded.scenario.name(), "run");
  in.point_totals = o.point_totals;
  if (o.baseline)
    in.baseline_run_time_ps = run_job_alone(loaded, o.trace, o.compute_scale, in.config, context);
  return run_mpi_scenario(std::move(in), context);
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return UINT64_MAX;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

// Refuses a run whose estimated memory passes the limit before anything is built (exit 5),
// instead of growing until the allocator fails minutes later.
int check_memory(const RunOptions& o, const scenarios::LoadedScenario& loaded,
                 const AppContext& context) {
  const std::uint64_t limit =
      o.max_memory_bytes != 0 ? o.max_memory_bytes : physical_memory_bytes();
  const scenarios::MemoryEstimate need = scenarios::estimate_memory(loaded, o.trace);
  if (need.bytes <= limit) return exit_code::kSuccess;
  if (context.is_root())
    std::fprintf(stderr,
                 "netwarp: error: out of memory: %s needs an estimated %.3g GiB (largest part: "
                 "%s), more than the %.3g GiB limit; reduce the scenario or raise --max-memory "
                 "SIZE (default: the physical memory)\n",
                 loaded.path.c_str(), static_cast<double>(need.bytes) / (1ull << 30),
                 need.largest_part.c_str(), static_cast<double>(limit) / (1ull << 30));
  return exit_code::kOutOfMemory;
}

}  // namespace

CLI::App* add_run_command(CLI::App& app, RunOptions& o) {
  CLI::App* run = app.add_subcommand(
      "run",
      "Run a scenario (.pbtxt): packet traffic or MPI ranks; without one, a built-in incast");
  run->add_option("scenario", o.scenario, "Scenario file in protobuf text format");
  run->add_option("--out", o.out_dir, "Folder for results.json, CSV tables and traces")
      ->default_str("out/<scenario name>");
  run->add_option("--set", o.sets, "Override a scenario field: path.to.field=value (repeatable)")
      ->allow_extra_args(false);
  run->add_option("--trace", o.trace,
                  "Replay an MPI trace (SimGrid TIT file or folder, .pb/.pbtxt, or an OTF2 "
                  "archive DIR/traces.otf2) on the scenario's platform (default: "
                  "scenarios/cluster.pbtxt)");
  run->add_option("--compute-scale", o.compute_scale,
                  "--trace: multiply its compute times (OTF2: the measured time between MPI "
                  "calls; TIT: flops at the host's rate) by this factor, >= 0")
      ->capture_default_str()
      ->check(non_negative_number());
  run->add_option("--max-memory", o.max_memory_bytes,
                  "Refuse (exit 5) a run whose estimated memory passes SIZE (bytes; 2GiB, 512MiB)")
      ->transform(bytes_with_unit())
      ->default_str("the physical memory");
  run->add_flag("--plot", o.plot,
                "Afterwards draw the figures into OUT/plots, as `netwarp plot OUT` does");
  run->add_option("--sweep", o.sweeps,
                  "Run a point per value, one after another in this process, each into OUT/p<i> "
                  "as --set field=value would, and their table into OUT/sweep.csv: "
                  "path.to.field=v1,v2,... (';' between values that are lists: "
                  "topology.torus.dims=10,10;12,12); several --sweep make a grid of every "
                  "combination")
      ->allow_extra_args(false);
  run->add_option("--jobs", o.jobs,
                  "--sweep: run up to N points at once, each in a process of its own forked from "
                  "this one (their summaries as each ends; sweep.csv in the points' order)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  run->add_flag("--baseline", o.baseline,
                "With workloads beside an MPI job: also run the job alone and report the slowdown "
                "the other traffic caused (results.json classes, summary)");
  add_kernel_options(*run, o.kernel);
  o.command = run;
  return run;
}

namespace {

int run_scenario(RunOptions& o, const AppContext& context);

// `--plot`: the figures of a run that wrote results (success, deadlock or incomplete).
int plot_after_run(const RunOptions& o, const std::string& dir, int status,
                   const AppContext& context) {
  const bool has_results = status == exit_code::kSuccess || status == exit_code::kDeadlock ||
                           status == exit_code::kIncomplete;
  if (!o.plot || !has_results || !context.is_root()) return status;
  const std::vector<std::string> images = plot_run_folder(dir, PlotOptions{});
  std::printf("plots         %zu files in %s/plots\n", images.size(), dir.c_str());
  return status;
}

}  // namespace

// Without a scenario: the built-in incast, or for a trace the default replay platform.
scenarios::LoadedScenario load_run_scenario(const RunOptions& o) {
  if (!o.scenario.empty()) return scenarios::load_scenario(o.scenario, o.sets);
  if (!o.trace.empty())
    return scenarios::load_scenario(scenarios::scenario_library_dir() + "/cluster.pbtxt", o.sets);
  return scenarios::built_in_default_scenario(o.sets);
}

int run_command(RunOptions& o, const AppContext& context) {
  const auto run_one = [&](RunOptions& point) {
    const int status = run_scenario(point, context);
    return plot_after_run(point, point.out_dir, status, context);
  };
  if (!o.sweeps.empty()) return run_sweep(o, context, run_one);
  if (o.jobs > 1)
    throw UsageError("--jobs runs the points of a --sweep side by side: give --sweep");
  return run_one(o);
}

namespace {

int run_scenario(RunOptions& o, const AppContext& context) {
  RankMemory memory{.start_bytes = static_cast<std::int64_t>(engine::rss_bytes())};
  std::optional<scenarios::LoadedScenario> own;
  const scenarios::LoadedScenario& loaded =
      o.loaded != nullptr ? *o.loaded : own.emplace(load_run_scenario(o));
  o.out_dir = out_dir_or_default(o.out_dir, loaded.scenario.name(), "run");
  if (const int status = check_memory(o, loaded, context); status != exit_code::kSuccess)
    return status;
  const scenarios::EngineSettings settings = scenarios::engine_settings(loaded);
  if (o.command->count("--compute-scale") > 0 && o.trace.empty())
    throw UsageError("--compute-scale applies to a --trace replay only");
  if (o.baseline && !scenarios::has_workloads_beside_job(loaded))
    throw UsageError(fmt::format(
        "--baseline: {} has no MPI job with workloads beside it: nothing to compare with",
        loaded.path));
  if (scenarios::is_mpi_scenario(loaded) || !o.trace.empty())
    return run_mpi(o, context, loaded, settings);
  netmodels::NetworkSpec spec = scenarios::build_network_spec(loaded);
  const KernelOptions kernel = merged_kernel_options(o, settings, spec.topology);
  engine::KernelConfig config = make_kernel_config(kernel, context);
  config.end_time = settings.end_time;
  config.seed = settings.seed;
  config.tie_order = settings.tie_order;
  StagedFolder out(out_dir_or_default(o.out_dir, loaded.scenario.name(), "run"));
  context.check_on_root([&] { out.open(); });

  const netmodels::NetworkModel model(std::move(spec));
  memory.built_bytes = static_cast<std::int64_t>(engine::peak_rss_bytes());
  netmodels::SpillingResults local(parts_dir(out, context), context.exchange->rank(),
                                   settings.record_buffer_bytes != 0
                                       ? settings.record_buffer_bytes
                                       : netmodels::SpillingResults::kDefaultLimitBytes);
  local.buffer().skip_idle_ports = true;
  const engine::RunResult result = run_kernel(model, config, context, &local);
  std::unique_ptr<netmodels::ResultsSource> source;
  std::vector<RankMemory> ranks_memory = share_results(local, context, source, memory);
  if (!context.is_root()) return 0;

  engine::RunStats stats = result.stats;
  NetworkRunReport report{loaded.path,
                          loaded.scenario.name(),
                          scenarios::effective_scenario_text(loaded),
                          &model.spec(),
                          &stats,
                          config.kind == engine::KernelKind::optimistic ? kernel.window_us : -1,
                          source.get(),
                          source->totals(model.spec().workload),
                          &ranks_memory,
                          nullptr};
  const std::vector<std::string> files = write_network_outputs(report, out.path(), [&] {
    // results.json is streamed and adds no peak of its own.
    ranks_memory[0].peak_bytes = static_cast<std::int64_t>(engine::peak_rss_bytes());
    stats.peak_rss_bytes = 0;
    for (const RankMemory& m : ranks_memory)
      stats.peak_rss_bytes =
          std::max(stats.peak_rss_bytes, static_cast<std::uint64_t>(m.peak_bytes));
  });
  const std::string summary = format_network_summary(report);  // reads the flows: parts first
  const int pfc_status = pfc_verdict(report);
  std::filesystem::remove_all(out.path() + "/.parts");
  if (pfc_status == exit_code::kBadInput) return pfc_status;  // no results: a wrong setting
  out.commit();
  if (o.point_totals != nullptr) *o.point_totals = point_totals(report.totals, stats);
  const std::string partition =
      stats.ranks > 1 ? format_partition(model, stats.ranks, ranks_memory, context) : std::string();
  std::printf("%s%sresults       %s", summary.c_str(), partition.c_str(), out.target().c_str());
  std::printf(" (%zu files)\n", files.size());
  const std::string hint =
      huge_pages_hint(stats.peak_rss_bytes, malloc_huge_pages(), transparent_huge_pages_mode);
  if (!hint.empty()) std::fprintf(stderr, "netwarp: note: %s\n", hint.c_str());
  if (pfc_status != exit_code::kSuccess) return pfc_status;
  return exit_status(report, !config.end_time.is_max());
}

}  // namespace

}  // namespace netwarp::apps
