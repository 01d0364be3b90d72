// `netwarp trace convert IN OUT`, `netwarp trace info IN` and `netwarp trace generate APP`: MPI
// traces in SimGrid's time-independent format (a file, a replay list or a directory of
// per-rank files), OTF2 archives (read only; DIR/traces.otf2) and netwarp's own format (.pb
// binary, .pbtxt text; mpi-emul/proto/trace.proto), and the synthetic applications
// (mpi-emul/GENERATORS.md) written as either.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "app_context.hpp"

namespace netwarp::apps {

struct TraceGenerateOptions {
  std::string app;  // gauss | cg | lu
  std::uint32_t ranks = 0;
  std::string out;
  std::uint32_t n = 1024;
  std::uint64_t fragment_bytes = 0;
  std::string forward = "blocking";
  std::string size_class = "S";
  std::uint32_t iterations = 0;
};

struct TraceOptions {
  std::string input;
  std::string output;
  TraceGenerateOptions generate_options;
  CLI::App* convert = nullptr;
  CLI::App* info = nullptr;
  CLI::App* generate = nullptr;
};

// Declares `trace` and its subcommands; returns the `trace` command.
CLI::App* add_trace_command(CLI::App& app, TraceOptions& options);
// Throws mpiemul::TraceError for bad traces, UsageError for generator options that do not fit
// the application. Only rank 0 writes and prints.
int trace_command(const TraceOptions& options, const AppContext& context);

}  // namespace netwarp::apps
