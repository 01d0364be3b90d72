// `netwarp trace convert`, `netwarp trace info` and `netwarp trace generate`.
#include "cmd_trace.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>

#include "netwarp/mpiemul/generators.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "unit_options.hpp"

namespace netwarp::apps {

namespace {

namespace pb = google::protobuf;

std::uint64_t action_count(const mpiemul::proto::Trace& trace) {
  std::uint64_t count = 0;
  for (const auto& rank : trace.ranks()) count += static_cast<std::uint64_t>(rank.actions_size());
  return count;
}

// Action counts by kind, in the order of trace.proto's oneof.
std::map<int, std::uint64_t> counts_by_kind(const mpiemul::proto::Trace& trace) {
  std::map<int, std::uint64_t> counts;
  for (const auto& rank : trace.ranks())
    for (const auto& action : rank.actions()) ++counts[action.kind_case()];
  return counts;
}

void print_info(const std::string& input, const mpiemul::proto::Trace& trace) {
  std::printf("%s: %d ranks, %llu actions\n", input.c_str(), trace.ranks_size(),
              static_cast<unsigned long long>(action_count(trace)));
  const pb::Descriptor* action = mpiemul::proto::Action::descriptor();
  for (const auto& [kind, count] : counts_by_kind(trace)) {
    const pb::FieldDescriptor* field = action->FindFieldByNumber(kind);
    std::printf("  %-15s %llu\n", field != nullptr ? field->name().c_str() : "(none)",
                static_cast<unsigned long long>(count));
  }
  int least = 0;
  int most = 0;
  for (int r = 1; r < trace.ranks_size(); ++r) {
    if (trace.ranks(r).actions_size() < trace.ranks(least).actions_size()) least = r;
    if (trace.ranks(r).actions_size() > trace.ranks(most).actions_size()) most = r;
  }
  if (trace.ranks_size() > 0)
    std::printf("actions per rank: fewest %d (rank %d), most %d (rank %d)\n",
                trace.ranks(least).actions_size(), least, trace.ranks(most).actions_size(), most);
}

// Options given to an application they do not apply to are usage errors, not silently unused.
void check_generate_options(const CLI::App& generate, const std::string& app) {
  const bool is_gauss = app == "gauss";
  for (const char* name : {"--n", "--fragment", "--forward"})
    if (!is_gauss && generate.count(name) > 0)
      throw UsageError(fmt::format("trace generate {}: {} applies to gauss only", app, name));
  for (const char* name : {"--class", "--iterations"})
    if (is_gauss && generate.count(name) > 0)
      throw UsageError(fmt::format("trace generate gauss: {} applies to cg and lu only", name));
}

mpiemul::proto::Trace generate_trace(const TraceGenerateOptions& o) {
  try {
    if (o.app == "gauss")
      return mpiemul::gauss_trace({o.n, o.fragment_bytes, mpiemul::gauss_forward(o.forward)},
                                  o.ranks);
    const mpiemul::NpbParams npb{mpiemul::npb_class(o.app, o.size_class), o.iterations};
    return o.app == "cg" ? mpiemul::npb_cg_trace(npb, o.ranks)
                         : mpiemul::npb_lu_trace(npb, o.ranks);
  } catch (const mpiemul::GeneratorError& e) {
    throw UsageError(fmt::format("trace generate: {}", e.what()));
  }
}

int generate_command(const TraceOptions& options, const AppContext& context) {
  const TraceGenerateOptions& o = options.generate_options;
  check_generate_options(*options.generate, o.app);
  const mpiemul::proto::Trace trace = generate_trace(o);
  if (!context.is_root()) return 0;
  mpiemul::write_trace(trace, o.out);
  const mpiemul::TraceTotals totals = mpiemul::trace_totals(trace);
  fmt::print("netwarp trace generate: {}, {} ranks, {} actions, {} messages, {} bytes sent -> {}\n",
             o.app, o.ranks, totals.actions, totals.messages, totals.bytes, o.out);
  return 0;
}

void add_generate_command(CLI::App& trace, TraceOptions& options) {
  TraceGenerateOptions& o = options.generate_options;
  CLI::App* g = trace.add_subcommand(
      "generate",
      "Write a synthetic application's trace (mpi-emul/GENERATORS.md): gauss (seed 000's "
      "Gaussian elimination), cg or lu (NPB-like) to OUT (.tit/.txt TIT, .pb, .pbtxt)");
  g->add_option("APP", o.app, "gauss | cg | lu")
      ->required()
      ->check(CLI::IsMember({"gauss", "cg", "lu"}));
  g->add_option("--ranks", o.ranks, "MPI ranks (cg, lu: a power of two)")->required();
  g->add_option("--out", o.out, "Output trace: .tit or .txt (TIT), .pb or .pbtxt")->required();
  g->add_option("--n", o.n, "gauss: matrix order, >= ranks")->capture_default_str();
  g->add_option("--fragment", o.fragment_bytes,
                "gauss: send every message in pieces of at most this many bytes (64KiB); 0: "
                "whole")
      ->transform(bytes_with_unit())
      ->capture_default_str();
  g->add_option("--forward", o.forward, "gauss: blocking (MPI_Send) or isend")
      ->capture_default_str()
      ->check(CLI::IsMember({"blocking", "isend"}));
  g->add_option("--class", o.size_class, "cg, lu: NPB class S, W, A or B")
      ->capture_default_str()
      ->check(CLI::IsMember({"S", "W", "A", "B"}));
  g->add_option("--iterations", o.iterations,
                "cg, lu: outer iterations (CG niter, LU itmax); 0: the class's")
      ->capture_default_str();
  options.generate = g;
}

}  // namespace

CLI::App* add_trace_command(CLI::App& app, TraceOptions& o) {
  CLI::App* trace =
      app.add_subcommand("trace", "MPI traces: SimGrid TIT, OTF2 and netwarp's format");
  trace->require_subcommand(1);
  o.convert = trace->add_subcommand(
      "convert",
      "Convert IN (a SimGrid time-independent trace: one file, a replay list or a directory of "
      "per-rank files; a .pb/.pbtxt trace; or an OTF2 archive, DIR/traces.otf2, whose time "
      "between MPI calls becomes sleeps) to OUT (.pb binary, .pbtxt text or .tit TIT)");
  o.convert->add_option("IN", o.input, "Input trace")->required();
  o.convert->add_option("OUT", o.output, "Output trace: .pb, .pbtxt, or .tit/.txt")->required();
  o.info = trace->add_subcommand("info", "Print a trace's rank count and actions per kind");
  o.info->add_option("IN", o.input, "Input trace (as for convert)")->required();
  add_generate_command(*trace, o);
  return trace;
}

int trace_command(const TraceOptions& options, const AppContext& context) {
  if (options.generate->parsed()) return generate_command(options, context);
  const mpiemul::proto::Trace trace = mpiemul::read_trace(options.input);
  if (!context.is_root()) return 0;
  if (options.info->parsed()) {
    print_info(options.input, trace);
    return 0;
  }
  mpiemul::write_trace(trace, options.output);
  std::printf("netwarp trace convert: %s -> %s: %d ranks, %llu actions\n", options.input.c_str(),
              options.output.c_str(), trace.ranks_size(),
              static_cast<unsigned long long>(action_count(trace)));
  return 0;
}

}  // namespace netwarp::apps
