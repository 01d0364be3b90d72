// `netwarp fit SCENARIO --model M --out FILE`.
#include <fmt/format.h>

#include <cstdio>

#include "cmd_validation.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "netwarp/validation/model_fitting.hpp"
#include "run_report.hpp"
#include "unit_options.hpp"

namespace netwarp::apps {

CLI::App* add_fit_command(CLI::App& app, FitOptions& o) {
  CLI::App* fit = app.add_subcommand(
      "fit",
      "Fit a model's parameters from benchmarks run in the packet simulator on a scenario's "
      "platform (ping-pong RTT curves, Kielmann's procedure, concurrent ping-pongs)");
  fit->add_option("scenario", o.scenario, "MPI scenario (.pbtxt) whose platform is measured")
      ->required();
  fit->add_option("--model", o.model, "loggps | loggp | hockney | plogp | plogp-br | mpiete")
      ->required();
  fit->add_option("--out", o.out, "Parameter file to write (JSON); default: print it");
  fit->add_option("--set", o.sets, "Override a scenario field: path.to.field=value (repeatable)")
      ->allow_extra_args(false);
  fit->add_option("--w-us", o.w_us,
                  "LogGPS: the dummy loop W in us (default: the scenario's validation.fit_w_us, "
                  "else 4 x the largest RTT at w = 0); a unit may follow (500ns, 2ms)")
      ->transform(time_with_unit("us"));
  return fit;
}

int fit_command(const FitOptions& o, const AppContext& context) {
  if (!context.is_root()) return 0;
  validation::ModelKind kind{};
  try {
    kind = validation::parse_model_name(o.model);
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("--model: {}", e.what()));
  }
  const scenarios::LoadedScenario loaded = scenarios::load_scenario(o.scenario, o.sets);
  if (!scenarios::is_mpi_scenario(loaded))
    throw UsageError(
        fmt::format("{}: fit measures MPI benchmarks: the scenario needs an mpi "
                    "section (see scenarios/pingpong.pbtxt)",
                    loaded.path));
  if (scenarios::has_workloads_beside_job(loaded))
    throw scenarios::job_alone_refusal(loaded, "fit measures");
  const scenarios::MpiRunSpec spec = scenarios::build_mpi_run(loaded);
  const double w_us = o.w_us > 0 ? o.w_us : loaded.scenario.validation().fit_w_us();
  if (!o.out.empty()) check_writable(o.out);
  nlohmann::ordered_json params;
  try {
    params = validation::fit_model(kind, loaded, spec, {.w_ns = w_us * 1e3});
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("fit --model {}: {}", o.model, e.what()));
  }
  if (o.out.empty()) {
    std::printf("%s\n", json_text(params).c_str());
    return 0;
  }
  write_json_file(o.out, params);
  std::printf("netwarp fit: %s on %s: parameters in %s\n", o.model.c_str(), loaded.path.c_str(),
              o.out.c_str());
  return 0;
}

}  // namespace netwarp::apps
