// `netwarp trace convert` and `netwarp trace info`.
#include "cmd_trace.hpp"

#include <cstdio>
#include <map>

#include "netwarp/mpiemul/trace.hpp"

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

}  // namespace

CLI::App* add_trace_command(CLI::App& app, TraceOptions& o) {
  CLI::App* trace = app.add_subcommand("trace", "MPI traces: SimGrid TIT and netwarp's format");
  trace->require_subcommand(1);
  o.convert = trace->add_subcommand(
      "convert",
      "Convert IN (a SimGrid time-independent trace: one file, a replay list or a directory of "
      "per-rank files; or a .pb/.pbtxt trace) to OUT (.pb binary or .pbtxt text)");
  o.convert->add_option("IN", o.input, "Input trace")->required();
  o.convert->add_option("OUT", o.output, "Output trace: .pb or .pbtxt")->required();
  o.info = trace->add_subcommand("info", "Print a trace's rank count and actions per kind");
  o.info->add_option("IN", o.input, "Input trace (as for convert)")->required();
  return trace;
}

int trace_command(const TraceOptions& options, const AppContext& context) {
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
