// Kernel flags and running the chosen kernel.
#include "kernel_options.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "progress_line.hpp"
#include "unit_options.hpp"

namespace netwarp::apps {

void add_kernel_options(CLI::App& command, KernelOptions& o) {
  command
      .add_option("--kernel", o.kernel,
                  "Simulation kernel (default: sequential on one partition, optimistic on "
                  "several: --threads, mpirun)")
      ->check(CLI::IsMember({"sequential", "optimistic"}))
      ->each([&o](const std::string&) { o.kernel_chosen_by = "--kernel"; });
  command
      .add_option("--gvt-interval", o.gvt_interval,
                  "Optimistic: scheduler iterations between GVT rounds")
      ->check(CLI::Range(1u, 1u << 20))
      ->capture_default_str();
  command.add_option("--batch", o.batch, "Optimistic: events per scheduler iteration")
      ->check(CLI::Range(1u, 1u << 20))
      ->capture_default_str();
  command
      .add_option(
          "--window", o.window_us,
          "Optimistic: never run more than W us of simulated time past GVT; 0: unbounded, as "
          "engine.window_us: 0 in a scenario (bench: unbounded by default; run: the "
          "scenario's engine.window_us, else 10 x the smallest link latency); a unit may "
          "follow (500ns, 2ms)")
      ->transform(time_with_unit("us"))
      ->check(CLI::Range(0.0, 1e12));
  command
      .add_option(
          "--adaptive-window", o.adaptive_window,
          "Optimistic: adapt the window on each rank between GVT rounds (halve it when over "
          "1/16 of the events rolled back; when it held the rank back, grow it by a "
          "quarter when at most 1/64 did, double it when none did); false: keep --window "
          "fixed (run: the scenario's engine.adaptive_window, default false)")
      ->capture_default_str();
  command
      .add_option("--max-uncommitted", o.max_uncommitted,
                  "Optimistic: most handled but uncommitted events a rank holds (default: two "
                  "GVT rounds' worth, 2 x gvt-interval x batch)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  command
      .add_option("--max-uncommitted-bytes", o.max_uncommitted_bytes,
                  "Optimistic: engine memory in use per rank (pending events, rollback logs) at "
                  "which a rank stops handling events past GVT (default: 64 x 120 B per "
                  "uncommitted event allowed, at least 16 MiB, of rollback logs only: the model's "
                  "pending events do not count); a size such as 64MiB")
      ->transform(bytes_with_unit())
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 50));
  command
      .add_option("--sync", o.sync,
                  "Optimistic: how ranks keep in step: hybrid (events that cannot be rolled back, "
                  "below every rank's earliest event plus the model's lookahead, run without "
                  "Time Warp's bookkeeping; Time Warp past them once a rank has waited 50 us "
                  "for the others' promises), conservative (only those, in "
                  "windows of the lookahead: no rollback), optimistic (Time Warp for every "
                  "event) (run: the scenario's engine.sync, default hybrid)")
      ->check(CLI::IsMember({"optimistic", "conservative", "hybrid"}))
      ->capture_default_str();
  command
      .add_option(
          "--threads", o.threads,
          "Optimistic: run N partitions as threads of this process, exchanging events in "
          "shared memory (the results of any other partition count), each pinned to its own CPU "
          "when the process may use N (NETWARP_PIN_THREADS=0: not); under mpirun -np M, M x N "
          "partitions, pinned by local rank when mpirun leaves them free (--bind-to none)")
      ->check(CLI::Range(1, kMaxThreads))
      ->capture_default_str();
  command.add_flag("--huge-pages", o.huge_pages,
                   "Start again with glibc's malloc asking for transparent huge pages, in one "
                   "arena (GLIBC_TUNABLES glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1): for "
                   "models of gigabytes, where the kernel gives them only on request");
  command.add_flag("--check-reverse", o.check_reverse,
                   "Optimistic: handle every event forward, roll it back and handle it again, "
                   "failing if state, sends or records differ");
}

engine::KernelConfig make_kernel_config(const KernelOptions& o, const AppContext& context) {
  engine::KernelConfig config;
  const bool several_partitions = context.exchange->size() > 1;
  const bool optimistic =
      o.kernel == "optimistic" || (o.kernel_chosen_by.empty() && several_partitions);
  config.kind = optimistic ? engine::KernelKind::optimistic : engine::KernelKind::sequential;
  if (!optimistic && several_partitions)
    throw UsageError(
        fmt::format("{}: the sequential kernel runs on one partition; start it without mpirun and "
                    "--threads, or leave the kernel to the run (the optimistic kernel on several)",
                    o.kernel_chosen_by));
  if (o.check_reverse && config.kind != engine::KernelKind::optimistic)
    throw UsageError("--check-reverse: needs --kernel optimistic");
  config.gvt_interval = o.gvt_interval;
  config.batch_size = o.batch;
  config.window = o.window_us <= 0 ? engine::SimTime::max() : engine::SimTime::from_us(o.window_us);
  config.adaptive_window = o.adaptive_window;
  config.max_uncommitted = o.max_uncommitted;
  config.max_uncommitted_bytes = o.max_uncommitted_bytes;
  config.check_reverse = o.check_reverse;
  config.sync = o.sync == "optimistic"     ? engine::SyncMode::optimistic
                : o.sync == "conservative" ? engine::SyncMode::conservative
                                           : engine::SyncMode::hybrid;
  config.on_progress = make_progress_line(context);
  return config;
}

engine::RunResult run_kernel(const engine::Model& model, const engine::KernelConfig& config,
                             const AppContext& context, engine::RecordSink* sink) {
  engine::RunResult result = config.kind == engine::KernelKind::sequential
                                 ? engine::run_sequential(model, config, sink)
                                 : engine::run_optimistic(model, config, *context.exchange, sink);
  end_progress_line();
  return result;
}

}  // namespace netwarp::apps
