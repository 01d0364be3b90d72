// `netwarp predict [SCENARIO] [--trace FILE_OR_DIR] --model M [--params FILE]`.
#include <fmt/format.h>

#include <fmt/ranges.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "cmd_validation.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "netwarp/validation/call_compare.hpp"
#include "netwarp/validation/model_names.hpp"
#include "netwarp/validation/model_prediction.hpp"
#include "netwarp/validation/params_json.hpp"
#include "netwarp/validation/platform_record.hpp"
#include "netwarp/validation/report.hpp"
#include "run_report.hpp"
#include "unit_options.hpp"

namespace netwarp::apps {
namespace {

nlohmann::ordered_json read_params(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError(fmt::format("--params: {}: cannot read", path));
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::ordered_json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(validation::json_syntax_error(path, text.str(), e));
  } catch (const nlohmann::json::out_of_range&) {  // a number beyond double's range
    throw UsageError(fmt::format("{}: not valid JSON: a number is out of range", path));
  }
}

// A set fitted on another platform predicts that platform: said once on stderr, not refused
// (comparing two platforms with one set may be the point). Files without a record (presets,
// sets written by hand or by older versions) are taken as they are.
void warn_if_fitted_elsewhere(const nlohmann::ordered_json& params, const std::string& file,
                              const scenarios::LoadedScenario& loaded) {
  if (!params.is_object() || !params.contains("platform")) return;
  const nlohmann::ordered_json& recorded = params["platform"];
  std::vector<std::string> parts;
  try {
    parts = validation::platform_differences(recorded, loaded);
  } catch (const netmodels::InputError& e) {
    throw validation::ParamsFileError(file, e.field(), e.message());
  }
  if (parts.empty()) return;
  const auto scenario = recorded.find("scenario");
  const std::string fitted_on = scenario != recorded.end() && scenario->is_string()
                                    ? scenario->get<std::string>()
                                    : std::string("another scenario");
  std::fprintf(stderr,
               "netwarp: warning: %s was fitted on %s, and %s differs in %s: the prediction uses "
               "the fitted platform's parameters\n",
               file.c_str(), fitted_on.c_str(), loaded.path.c_str(),
               fmt::format("{}", fmt::join(parts, ", ")).c_str());
}

// A predicted time in integer ps; UsageError when it is not finite or beyond int64 ps (about
// 106 days), instead of printing a wrapped number.
std::int64_t checked_ps(double ns, const std::string& what, const std::string& model) {
  constexpr double kLargestPs = 9.2e18;
  if (std::isfinite(ns) && std::abs(ns * 1e3) < kLargestPs) return std::llround(ns * 1e3);
  throw UsageError(fmt::format(
      "predict --model {}: {} of {:g} ns is beyond the largest time (9.2e18 ps, about 106 "
      "days); check the parameter file",
      model, what, ns));
}

void check_prediction(const validation::Prediction& r) {
  checked_ps(r.run_time_ns, "the predicted run time", r.model);
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    const auto& s = r.ranks[i].split;
    for (double ns : {r.ranks[i].end_ns, s.compute, s.overhead, s.send_wait, s.recv_wait, s.sync})
      checked_ps(ns, fmt::format("rank {}'s time", i), r.model);
  }
}

std::string ps_us(double ns) {
  return fmt::format("{:.3f}", ns / 1e3);
}

// `ranks`: the program's (a closed form, plogp-br, predicts no per-rank rows).
void print_prediction(const validation::ModelPrediction& p, const std::string& program,
                      std::size_t ranks) {
  const validation::Prediction& r = p.prediction;
  std::printf("predicted_ps %lld\n", static_cast<long long>(std::llround(r.run_time_ns * 1e3)));
  std::printf("model %s, %s on %zu ranks: %s us (%llu messages, %llu rendezvous)\n",
              r.model.c_str(), program.c_str(), ranks, ps_us(r.run_time_ns).c_str(),
              static_cast<unsigned long long>(r.messages),
              static_cast<unsigned long long>(r.rendezvous_messages));
  if (!p.note.empty()) std::printf("note: %s\n", p.note.c_str());
  std::printf("%6s %12s %12s %12s %12s %12s %12s  (us)\n", "rank", "end", "compute", "overhead",
              "send_wait", "recv_wait", "sync");
  for (std::size_t i = 0; i < r.ranks.size(); ++i) {
    const auto& s = r.ranks[i].split;
    std::printf("%6zu %12s %12s %12s %12s %12s %12s\n", i, ps_us(r.ranks[i].end_ns).c_str(),
                ps_us(s.compute).c_str(), ps_us(s.overhead).c_str(), ps_us(s.send_wait).c_str(),
                ps_us(s.recv_wait).c_str(), ps_us(s.sync).c_str());
  }
}

nlohmann::ordered_json prediction_json(const validation::ModelPrediction& p) {
  nlohmann::ordered_json j;
  j["model"] = p.prediction.model;
  j["predicted_ps"] = std::llround(p.prediction.run_time_ns * 1e3);
  j["note"] = p.note;
  j["wall_seconds"] = p.wall_seconds;
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (const auto& r : p.prediction.ranks) {
    nlohmann::ordered_json row{{"end_ps", std::llround(r.end_ns * 1e3)}};
    const nlohmann::ordered_json split = validation::time_split_json(r.split);
    for (const auto& [key, value] : split.items()) row[key] = value;
    ranks.push_back(row);
  }
  j["ranks"] = ranks;
  return j;
}

void write_calls_file(const std::string& path, const validation::Prediction& p,
                      const scenarios::MpiRunSpec& spec) {
  if (p.calls.empty())
    std::printf("note: model %s predicts no calls (closed form); %s has the header only\n",
                p.model.c_str(), path.c_str());
  write_file_atomically(path, [&](std::ostream& out) {
    validation::write_predicted_calls_csv(p, *spec.program, spec.program_name, out);
  });
}

}  // namespace

CLI::App* add_predict_command(CLI::App& app, PredictOptions& o) {
  CLI::App* predict = app.add_subcommand(
      "predict",
      "Predict an MPI program's run time and per-rank breakdown from a model: a trace "
      "(--trace) or the scenario's program, on the scenario's platform (default with --trace: "
      "scenarios/cluster.pbtxt)");
  predict->add_option("scenario", o.scenario, "MPI scenario (.pbtxt)");
  predict->add_option("--trace", o.trace,
                      "MPI trace: SimGrid TIT file or folder, .pb, .pbtxt, or an OTF2 archive "
                      "DIR/traces.otf2");
  predict
      ->add_option("--compute-scale", o.compute_scale,
                   "--trace: multiply its compute times by this factor, >= 0")
      ->capture_default_str()
      ->check(non_negative_number());
  predict
      ->add_option("--model", o.model,
                   "hockney | loggp | loggps | plogp | plogp-br | mpiete | flow")
      ->required();
  predict->add_option("--params", o.params,
                      "Parameter file from `netwarp fit` (flow: optional, default the "
                      "scenario's MPI host costs)");
  predict->add_option("--out", o.out, "Also write the prediction as JSON here");
  predict->add_option("--calls", o.calls,
                      "Also write every rank's calls as the model times them (start, end and "
                      "breakdown) as CSV here");
  predict->add_option("--set", o.sets, "Override a scenario field: path.to.field=value")
      ->allow_extra_args(false);
  return predict;
}

int predict_command(const PredictOptions& o, const AppContext& context) {
  if (!context.is_root()) return 0;
  if (o.scenario.empty() && o.trace.empty())
    throw UsageError("predict needs a scenario, a --trace, or both");
  if (o.compute_scale != 1.0 && o.trace.empty())
    throw UsageError("--compute-scale applies to a --trace only");
  try {
    validation::parse_model_name(o.model);
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("--model: {}", e.what()));
  }
  const std::string scenario =
      o.scenario.empty() ? scenarios::scenario_library_dir() + "/cluster.pbtxt" : o.scenario;
  const scenarios::LoadedScenario loaded = scenarios::load_scenario(scenario, o.sets);
  if (!scenarios::is_mpi_scenario(loaded))
    throw UsageError(
        fmt::format("{}: predict needs an MPI scenario (an mpi section)", loaded.path));
  if (scenarios::has_workloads_beside_job(loaded))
    throw scenarios::job_alone_refusal(loaded, "predict models");
  const scenarios::MpiRunSpec spec = scenarios::build_mpi_run(loaded, o.trace, o.compute_scale);
  nlohmann::ordered_json params;
  if (!o.params.empty()) {
    params = read_params(o.params);
    warn_if_fitted_elsewhere(params, o.params, loaded);
  } else if (o.model == "flow") {
    params = validation::flow_params(spec);
  } else {
    throw UsageError(
        fmt::format("--params is required for --model {} (see `netwarp fit`)", o.model));
  }
  const std::string file_model =
      validation::params_model(params, o.params.empty() ? "<flow>" : o.params);
  if (file_model != o.model)
    throw UsageError(fmt::format("{}: model: the file holds '{}' parameters, not '{}'", o.params,
                                 file_model, o.model));
  if (!o.out.empty()) check_writable(o.out);
  if (!o.calls.empty()) check_writable(o.calls);
  validation::ModelPrediction p;
  try {
    p = validation::predict_with(params, o.params.empty() ? "<flow>" : o.params, loaded, spec);
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("predict --model {}: {}", o.model, e.what()));
  } catch (const std::runtime_error& e) {
    throw UsageError(fmt::format("predict --model {}: {}", o.model, e.what()));
  }
  check_prediction(p.prediction);
  print_prediction(p, spec.program_name, spec.program->size());
  if (!o.out.empty()) write_json_file(o.out, prediction_json(p));
  if (!o.calls.empty()) write_calls_file(o.calls, p.prediction, spec);
  return 0;
}

}  // namespace netwarp::apps
