// `netwarp trace convert IN OUT` and `netwarp trace info IN`: MPI traces in SimGrid's
// time-independent format (a file, a replay list or a directory of per-rank files) and in
// netwarp's own format (.pb binary, .pbtxt text; mpi-emul/proto/trace.proto).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "app_context.hpp"

namespace netwarp::apps {

struct TraceOptions {
  std::string input;
  std::string output;
  CLI::App* convert = nullptr;
  CLI::App* info = nullptr;
};

// Declares `trace`, `trace convert` and `trace info`; returns the `trace` command.
CLI::App* add_trace_command(CLI::App& app, TraceOptions& options);
// Throws mpiemul::TraceError for bad traces. Only rank 0 writes and prints.
int trace_command(const TraceOptions& options, const AppContext& context);

}  // namespace netwarp::apps
