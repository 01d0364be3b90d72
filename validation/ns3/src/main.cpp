// netwarp-ns3: the ns-3 cross-check of netwarp's packet network and TCP. Runs a network
// scenario's workload (as `netwarp run` builds it) on the same topology in ns-3.37 and reports
// per-flow times and counters as JSON. Every failure is one line on stderr; the exit status
// follows netwarp's table (apps/src/exit_codes.hpp): bad input 2, end_time with messages
// undelivered 4, out of memory 5, internal error 70.
#include <fmt/format.h>
#include <google/protobuf/stubs/logging.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <stdexcept>

#include "cross_check_cli.hpp"
#include "exit_codes.hpp"

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/scenario_error.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "netwarp/validation/field_coverage.hpp"
#include "ns3_run.hpp"
#include "result_json.hpp"
#include "tcp_settings.hpp"

namespace {

namespace nc = netwarp::ns3_check;
namespace scenarios = netwarp::scenarios;
namespace exit_code = netwarp::apps::exit_code;
namespace cross_check = netwarp::apps::cross_check;
using cross_check::check_writable;
using cross_check::UsageError;
using cross_check::write_text;

struct CliOptions {
  std::string scenario;
  std::vector<std::string> sets;
  std::string out;
  std::string pcap_dir;
  bool limited_transmit = false;
  bool verbose = false;
};

void add_options(CLI::App& app, CliOptions& o) {
  app.add_option("scenario", o.scenario, "Network scenario (.pbtxt) with the TCP transport")
      ->required();
  app.add_option("--set", o.sets, "Override a scenario field: path.to.field=value (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--out", o.out, "JSON report to write")->required();
  app.add_option("--pcap", o.pcap_dir,
                 "Write ns-3's pcap of every port here: <node>-p<port>.pcap (link type PPP)");
  app.add_flag("--limited-transmit", o.limited_transmit,
               "Force ns-3's limited transmit (RFC 3042) on; by default it follows "
               "transport.tcp.limited_transmit");
  app.add_flag("--verbose", o.verbose, "Print the settings ns-3 applies differently on stderr");
}

// Refuses, naming the field, every setting ns-3 cannot run as netwarp would
// (validation/src/coverage/ns3_fields.cpp), before anything is built.
netwarp::netmodels::NetworkSpec network_of(const scenarios::LoadedScenario& loaded) {
  if (scenarios::is_mpi_scenario(loaded))
    throw UsageError(fmt::format(
        "{}: an mpi section: netwarp-ns3 runs network workloads (workload {{ ... }}) only",
        loaded.path));
  namespace nv = netwarp::validation;
  if (const auto refused = nv::first_refused(nv::ns3_fields(), loaded.scenario))
    throw loaded.error(refused->field, refused->message);
  netwarp::netmodels::NetworkSpec spec = scenarios::build_network_spec(loaded);
  const std::string reason = nc::unsupported_reason(spec);
  if (!reason.empty()) throw UsageError(fmt::format("{}: {}", loaded.path, reason));
  return spec;
}

// Each setting ns-3 runs under its own reading: "field: what ns-3 does instead".
std::vector<std::string> setting_notes(const scenarios::LoadedScenario& loaded) {
  namespace nv = netwarp::validation;
  std::vector<std::string> notes;
  for (const nv::FieldFinding& note : nv::noted_settings(nv::ns3_fields(), loaded.scenario))
    notes.push_back(note.field + ": " + note.message);
  return notes;
}

// The scenario's end_time_ns in ps, -1 when it runs until the workload is done.
std::int64_t end_of(const scenarios::LoadedScenario& loaded) {
  const netwarp::netmodels::SimTime end = scenarios::engine_settings(loaded).end_time;
  return end == netwarp::netmodels::SimTime::max() ? -1 : end.ps();
}

int run(const CliOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  const scenarios::LoadedScenario loaded = scenarios::load_scenario(o.scenario, o.sets);
  const netwarp::netmodels::NetworkSpec spec = network_of(loaded);
  check_writable(o.out);
  nc::ReportContext context{loaded.path, loaded.scenario.name(), o.pcap_dir, setting_notes(loaded),
                            0};
  if (o.verbose)
    for (const auto& note : context.notes)
      std::fprintf(stderr, "netwarp-ns3: note: %s\n", note.c_str());
  nc::Ns3RunResult result;
  try {
    result = nc::run_ns3(spec, {o.pcap_dir, end_of(loaded), {o.limited_transmit}});
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("{}: {}", loaded.path, e.what()));
  }
  context.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_text(o.out, nc::result_json(spec, result, context));
  std::printf("%s\n", nc::summary_line(result, context, o.out).c_str());
  return nc::totals_of(result).messages_delivered == result.flows.size() ? exit_code::kSuccess
                                                                         : exit_code::kIncomplete;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "netwarp-ns3: run a network scenario's TCP workload on the same topology in ns-3 and "
      "report per-flow completion times, drops and retransmissions"};
  CliOptions options;
  add_options(app, options);
  return cross_check::guarded_main("netwarp-ns3", app, argc, argv, [&] { return run(options); });
}
