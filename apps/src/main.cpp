// netwarp: the command-line program. Parses flags, starts MPI when launched by mpirun, runs one
// subcommand, and turns every user-facing failure into one line on stderr and exit status 2.
#include <mpi.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

#include "app_context.hpp"
#include "cmd_bench.hpp"
#include "cmd_flow.hpp"
#include "cmd_model.hpp"
#include "cmd_run.hpp"
#include "cmd_scenarios.hpp"
#include "cmd_trace.hpp"
#include "cmd_validation.hpp"
#include "netwarp/engine/log.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "netwarp/scenarios/scenario_error.hpp"

namespace {

using netwarp::apps::AppContext;

void print_error(const AppContext& context, const std::string& message) {
  if (context.is_root()) std::fprintf(stderr, "netwarp: error: %s\n", message.c_str());
}

int run_main(int argc, char** argv, AppContext& context) {
  CLI::App app{
      "netwarp: a parallel discrete-event packet simulator of cluster and HPC "
      "communication"};
  app.require_subcommand(1);
  std::string log_spec;
  app.add_option("--log", log_spec, "Log levels, e.g. engine.gvt=debug,engine=info");

  netwarp::apps::PholdOptions phold_options;
  CLI::App* phold = netwarp::apps::add_bench_command(app, phold_options);
  netwarp::apps::RunOptions run_options;
  CLI::App* run = netwarp::apps::add_run_command(app, run_options);
  netwarp::apps::TraceOptions trace_options;
  CLI::App* trace = netwarp::apps::add_trace_command(app, trace_options);
  netwarp::apps::ModelOptions model_options;
  CLI::App* model = netwarp::apps::add_model_command(app, model_options);
  netwarp::apps::FitOptions fit_options;
  CLI::App* fit = netwarp::apps::add_fit_command(app, fit_options);
  netwarp::apps::PredictOptions predict_options;
  CLI::App* predict = netwarp::apps::add_predict_command(app, predict_options);
  netwarp::apps::ValidateOptions validate_options;
  CLI::App* validate = netwarp::apps::add_validate_command(app, validate_options);
  netwarp::apps::FlowOptions flow_options;
  CLI::App* flow = netwarp::apps::add_flow_command(app, flow_options);
  netwarp::apps::ScenariosOptions scenarios_options;
  CLI::App* scenarios = netwarp::apps::add_scenarios_command(app, scenarios_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return context.is_root() ? app.exit(e) : 0;
  } catch (const CLI::ParseError& e) {
    print_error(context, e.what());
    return 2;
  }
  try {
    netwarp::engine::configure_logging(log_spec);
  } catch (const std::invalid_argument& e) {
    print_error(context, std::string("--log: ") + e.what());
    return 2;
  }
  if (phold->parsed()) return netwarp::apps::bench_phold_command(phold_options, context);
  if (run->parsed()) return netwarp::apps::run_command(run_options, context);
  if (trace->parsed()) return netwarp::apps::trace_command(trace_options, context);
  if (model->parsed()) return netwarp::apps::model_command(model_options, context);
  if (fit->parsed()) return netwarp::apps::fit_command(fit_options, context);
  if (predict->parsed()) return netwarp::apps::predict_command(predict_options, context);
  if (validate->parsed()) return netwarp::apps::validate_command(validate_options, context);
  if (flow->parsed()) return netwarp::apps::flow_command(flow_options, context);
  if (scenarios->parsed()) return netwarp::apps::scenarios_command(scenarios_options, context);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<netwarp::engine::MpiSession> mpi;
  if (netwarp::engine::MpiSession::launched_by_mpirun())
    mpi = std::make_unique<netwarp::engine::MpiSession>(argc, argv);
  const auto exchange =
      mpi ? netwarp::engine::make_mpi_exchange() : netwarp::engine::make_local_exchange();
  AppContext context{exchange.get()};
  try {
    return run_main(argc, argv, context);
  } catch (const netwarp::scenarios::ScenarioError& e) {
    // Raised alike on every rank (each loads the scenario): the line starts with the file.
    if (context.is_root()) std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const netwarp::mpiemul::TraceError& e) {
    // Raised alike on every rank (each reads the trace): the line starts with the file.
    if (context.is_root()) std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const netwarp::apps::UsageError& e) {
    print_error(context, e.what());  // raised alike on every rank, before any simulation
    return 2;
  } catch (const std::exception& e) {
    // Raised on one rank mid-run: the others cannot finish, so end the job.
    std::fprintf(stderr, "netwarp: error: rank %d: %s\n", exchange->rank(), e.what());
    std::fflush(stderr);
    if (exchange->size() > 1) MPI_Abort(MPI_COMM_WORLD, 3);
    return 3;
  }
}
