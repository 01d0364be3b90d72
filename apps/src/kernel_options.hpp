// Kernel flags shared by every command that runs a simulation (declared once, here).
#pragma once

#include <string>

#include "app_context.hpp"
#include "netwarp/engine/kernel.hpp"

namespace CLI {
class App;  // CLI11: only the files that add options include it
}  // namespace CLI

namespace netwarp::apps {

// The most partitions --threads runs in one process.
inline constexpr int kMaxThreads = 1024;

struct KernelOptions {
  std::string kernel = "sequential";
  // Who chose `kernel` ("--kernel", "engine.kernel"); empty: nobody, and then several
  // partitions (--threads, mpirun) run the optimistic kernel, one the sequential.
  std::string kernel_chosen_by;
  std::uint32_t gvt_interval = 64;
  std::uint32_t batch = 16;
  double window_us = -1;  // <= 0: unbounded (0 as in a scenario's engine.window_us)
  bool adaptive_window = false;
  std::uint64_t max_uncommitted = 0;        // 0: 2 x gvt-interval x batch
  std::uint64_t max_uncommitted_bytes = 0;  // 0: engine::effective_max_uncommitted_bytes
  bool check_reverse = false;
  bool huge_pages = false;      // main() acted on it before anything else (huge_pages.hpp)
  std::string sync = "hybrid";  // engine::SyncMode by name
  int threads = 1;              // partitions as threads (main starts them; see threads_requested)
};

void add_kernel_options(CLI::App& command, KernelOptions& options);
// Builds the engine configuration; throws UsageError for combinations that cannot run.
engine::KernelConfig make_kernel_config(const KernelOptions& options, const AppContext& context);
// Runs the configured kernel on the model.
engine::RunResult run_kernel(const engine::Model& model, const engine::KernelConfig& config,
                             const AppContext& context, engine::RecordSink* sink = nullptr);

}  // namespace netwarp::apps
