// netwarp: the command-line program. Parses flags, starts MPI when launched by mpirun (through
// the MPI module, mpi_module.hpp: other runs never load MPI), runs one subcommand, and turns every
// failure into one line on stderr and an exit status of the table in exit_codes.hpp (bad input 2,
// out of memory 5, internal error 70).
#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/stubs/logging.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app_context.hpp"
#include "cmd_bench.hpp"
#include "cmd_flow.hpp"
#include "cmd_model.hpp"
#include "cmd_plot.hpp"
#include "cmd_run.hpp"
#include "cmd_scenarios.hpp"
#include "cmd_topology.hpp"
#include "cmd_trace.hpp"
#include "cmd_validation.hpp"
#include "exit_codes.hpp"
#include "failure_status.hpp"
#include "huge_pages.hpp"
#include "interrupt.hpp"
#include "kernel_options.hpp"
#include "netwarp/engine/check.hpp"
#include "netwarp/engine/cpu_pinning.hpp"
#include "netwarp/engine/log.hpp"
#include "netwarp/engine/mpi_module.hpp"
#include "netwarp/mpiemul/proto/trace.pb.h"
#include "netwarp/netmodels/printable.hpp"
#include "netwarp/scenarios/proto/scenario.pb.h"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "thread_results.hpp"

namespace {

using netwarp::apps::AppContext;
namespace exit_code = netwarp::apps::exit_code;

using netwarp::apps::one_line;
using netwarp::apps::print_error;

// "netwarp run incast.pbtxt --out x", printable and short, for the interrupt line.
std::string command_text(int argc, char** argv) {
  std::string text = "netwarp";
  for (int i = 1; i < argc; ++i) text += std::string(" ") + argv[i];
  return netwarp::netmodels::printable(text, 200);
}

// What runs a subcommand once the command line is parsed: its exit status, or none when the
// command line named another.
using Runner = std::function<std::optional<int>()>;

// A subcommand: adds itself to the parser and returns its Runner.
struct Subcommand {
  const char* name;
  std::function<Runner(CLI::App& app, const AppContext& context)> add;
};

// `add` (add_run_command ...) with a fresh Options; `run` (run_command ...) when parsed.
template <class Options, class Add, class Run>
Subcommand subcommand(const char* name, Add add, Run run) {
  return {name, [name, add, run](CLI::App& app, const AppContext& context) {
            auto options = std::make_shared<Options>();
            CLI::App* command = add(app, *options);  // bench's is its subcommand phold
            const CLI::App* top = command;
            while (top->get_parent() != &app) top = top->get_parent();
            NW_CHECK(top->get_name() == name, "subcommand table: {} is {}", name, top->get_name());
            return Runner([command, options, run, &context]() -> std::optional<int> {
              if (!command->parsed()) return std::nullopt;
              return run(*options, context);
            });
          }};
}

std::vector<Subcommand> subcommands() {
  using namespace netwarp::apps;
  return {
      subcommand<PholdOptions>("bench", add_bench_command, bench_phold_command),
      subcommand<RunOptions>("run", add_run_command, run_command),
      subcommand<TraceOptions>("trace", add_trace_command, trace_command),
      subcommand<ModelOptions>("model", add_model_command, model_command),
      subcommand<FitOptions>("fit", add_fit_command, fit_command),
      subcommand<PredictOptions>("predict", add_predict_command, predict_command),
      subcommand<ValidateOptions>("validate", add_validate_command, validate_command),
      subcommand<FlowOptions>("flow", add_flow_command, flow_command),
      subcommand<ScenariosOptions>("scenarios", add_scenarios_command, scenarios_command),
      subcommand<TopologyOptions>("topology", add_topology_command, topology_command),
      subcommand<PlotOptions>("plot", add_plot_command,
                              [](const PlotOptions& o, const AppContext& context) {
                                return context.is_root() ? plot_command(o) : 0;
                              }),
  };
}

// The subcommand the command line names: its first word that is not an option of netwarp's own
// (--log takes a value); "" when there is none.
std::string_view named_subcommand(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--log") {
      ++i;
      continue;
    }
    if (!arg.starts_with("-")) return arg;
  }
  return {};
}

std::string unknown_subcommand(std::string_view named, const std::vector<Subcommand>& all) {
  std::string known;
  for (const Subcommand& command : all)
    known += (known.empty() ? "" : ", ") + std::string(command.name);
  return fmt::format("unknown subcommand '{}' (known: {})", named, known);
}

int run_main(int argc, char** argv, AppContext& context) {
  CLI::App app{
      "netwarp: a parallel discrete-event packet simulator of cluster and HPC "
      "communication"};
  app.require_subcommand(1);
  app.footer(exit_code::kTable);
  std::string log_spec;
  app.add_option("--log", log_spec, "Log levels, e.g. engine.gvt=debug,engine=info");

  // Only the subcommand named is built when it is one (building all of them costs about 0.2 ms
  // of every run); all of them otherwise, for the help and the error that lists them.
  const std::vector<Subcommand> all = subcommands();
  const std::string_view named = named_subcommand(argc, argv);
  const bool known =
      std::any_of(all.begin(), all.end(), [&](const Subcommand& c) { return named == c.name; });
  std::vector<Runner> runners;
  for (const Subcommand& command : all)
    if (!known || named == command.name) runners.push_back(command.add(app, context));

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return context.is_root() ? app.exit(e) : 0;
  } catch (const CLI::ParseError& e) {
    print_error(context, known || named.empty() ? e.what() : unknown_subcommand(named, all));
    return exit_code::kBadInput;
  }
  try {
    netwarp::engine::configure_logging(log_spec);
  } catch (const std::invalid_argument& e) {
    print_error(context, std::string("--log: ") + e.what());
    return exit_code::kBadInput;
  }
  for (const Runner& run : runners)
    if (const std::optional<int> status = run()) return *status;
  return exit_code::kBadInput;
}

// The value of --threads (--threads N or --threads=N) when it is a whole number from 2 to
// kMaxThreads; 1 otherwise, and then the command's own parser accepts or refuses the flag.
int threads_requested(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    std::string_view value;
    if (arg == "--threads" && i + 1 < argc)
      value = argv[i + 1];
    else if (arg.starts_with("--threads="))
      value = arg.substr(std::string_view("--threads=").size());
    else
      continue;
    int n = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
    const bool whole = error == std::errc() && end == value.data() + value.size();
    return whole && n >= 2 && n <= netwarp::apps::kMaxThreads ? n : 1;
  }
  return 1;
}

// One rank's (or partition's) whole command: every failure becomes one line and an exit status.
int run_rank(int argc, char** argv, netwarp::engine::RankExchange& exchange, bool threads,
             netwarp::apps::ThreadResults* thread_results = nullptr) {
  AppContext context{&exchange, threads, thread_results};
  try {
    return run_main(argc, argv, context);
  } catch (...) {
    return netwarp::apps::failure_status(context);
  }
}

// --threads N: N partitions as threads of this process (its first on this thread), or of every
// process of an MPI job; the process exits with its first partition's status, as an MPI job
// reports rank 0's.
int run_threads(int argc, char** argv, int threads, netwarp::engine::LoadedMpi* mpi) {
  const auto exchanges = mpi != nullptr ? mpi->make_hybrid_exchanges(threads)
                                        : netwarp::engine::make_thread_exchanges(threads);
  int first_status = 0;
  // Without MPI every partition is a thread here, so records can stay in memory.
  std::unique_ptr<netwarp::apps::ThreadResults> results;
  if (mpi == nullptr) results = std::make_unique<netwarp::apps::ThreadResults>(threads);
  // Protobuf registers netwarp's schemas and its own descriptor.proto on first use
  // (cmake/NetwarpProto.cmake, cmake/protobuf/lazy_descriptor_proto.cpp), and a registration
  // while another thread reads its generated pool is a data race: every partition loads the
  // scenario, by reflection with --set. Here they are registered before the partitions start.
  google::protobuf::DescriptorPool::generated_pool();
  netwarp::scenarios::proto::Scenario::descriptor();
  netwarp::mpiemul::proto::Trace::descriptor();
  // run_rank turns every failure into a status: nothing is thrown out of a thread.
  netwarp::engine::run_as_threads(exchanges, [&](netwarp::engine::RankExchange& exchange) {
    const int status = run_rank(argc, argv, exchange, true, results.get());
    if (exchange.rank() % threads == 0) first_status = status;
  });
  return first_status;
}

}  // namespace

int main(int argc, char** argv) {
  if (netwarp::apps::huge_pages_requested(argc, argv)) {
    const std::string why = netwarp::apps::restart_with_huge_pages(argv);
    if (!why.empty() && (!netwarp::engine::MpiSession::launched_by_mpirun() ||
                         netwarp::engine::MpiSession::first_in_launch()))
      std::fprintf(stderr, "netwarp: warning: --huge-pages: %s\n", why.c_str());
  }
  // Protobuf's own log lines ("[libprotobuf ERROR ...]") would precede our one-line errors.
  google::protobuf::SetLogHandler(nullptr);
  const int threads = threads_requested(argc, argv);
  std::unique_ptr<netwarp::engine::LoadedMpi> mpi;
  if (netwarp::engine::MpiSession::launched_by_mpirun()) {
    try {
      mpi = std::make_unique<netwarp::engine::LoadedMpi>(argc, argv, threads > 1);
    } catch (const netwarp::engine::MpiModuleError& e) {
      if (netwarp::engine::MpiSession::first_in_launch())
        std::fprintf(stderr, "netwarp: error: %s\n", one_line(e.what()).c_str());
      return exit_code::kInternal;
    }
  }
  const auto exchange = mpi ? mpi->make_exchange() : netwarp::engine::make_local_exchange();
  const bool root = exchange->rank() == 0;
  netwarp::apps::interrupt::install(command_text(argc, argv), root);
  // Every rank loads the scenario; rank 0 alone reports what it ignores. (Partitions as threads
  // share the printer, which prints each line once.)
  if (!root) netwarp::scenarios::set_warning_printer([](const std::string&) {});
  if (threads > 1) {
    try {
      return run_threads(argc, argv, threads, mpi.get());
    } catch (const std::runtime_error& e) {  // no MPI_THREAD_MULTIPLE
      if (root) std::fprintf(stderr, "netwarp: error: --threads: %s\n", e.what());
      return exit_code::kBadInput;
    }
  }
  // One partition per MPI process: its own CPU among this machine's processes when mpirun left
  // them unbound (cpu_pinning.hpp).
  const netwarp::engine::PinnedThread pinned(netwarp::engine::cpus_for_partitions(
      1, mpi ? netwarp::engine::machine_slot_from_launcher() : std::nullopt)[0]);
  return run_rank(argc, argv, *exchange, false);
}
