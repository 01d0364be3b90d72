// The validation loop: sweep points x (packet simulation, models, SimGrid).
#include "netwarp/validation/validate_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/validation/model_fitting.hpp"
#include "netwarp/validation/model_prediction.hpp"
#include "netwarp/validation/packet_bench.hpp"

namespace netwarp::validation {
namespace {

namespace fs = std::filesystem;

std::vector<ModelKind> chosen_models(const ValidateOptions& o,
                                     const scenarios::LoadedScenario& loaded) {
  if (o.models) return *o.models;
  const auto& names = loaded.scenario.validation().models();
  if (names.empty()) return {ModelKind::loggps};
  std::vector<ModelKind> models;
  for (int i = 0; i < names.size(); ++i) {
    try {
      models.push_back(parse_model_name(names[i]));
    } catch (const std::invalid_argument& e) {
      throw loaded.error(fmt::format("validation.models[{}]", i), e.what());
    }
  }
  return models;
}

std::vector<TimeSplit> packet_ranks(const mpiemul::MpiTotals& totals) {
  std::vector<TimeSplit> ranks;
  const auto ns = [](std::int64_t ps) { return static_cast<double>(ps) / 1000.0; };
  for (const auto& r : totals.ranks)
    ranks.push_back({ns(r.calls.compute_ps), ns(r.calls.overhead_ps), ns(r.calls.send_wait_ps),
                     ns(r.calls.recv_wait_ps), ns(r.calls.sync_ps)});
  return ranks;
}

void write_json(const fs::path& path, const nlohmann::ordered_json& j) {
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write", path.string()));
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

ModelResult run_simgrid(const ValidateOptions& o, const std::vector<std::string>& sets,
                        const fs::path& out_file) {
  ModelResult m;
  m.model = "simgrid";
  if (o.simgrid_program.empty() || !fs::exists(o.simgrid_program)) {
    m.available = false;
    m.note =
        "cross-check unavailable: netwarp-simgrid was not built (install libsimgrid-dev "
        "and rebuild)";
    return m;
  }
  std::string command = shell_quote(o.simgrid_program) + " " + shell_quote(o.scenario);
  for (const auto& s : sets) command += " --set " + shell_quote(s);
  if (!o.trace.empty()) command += " --trace " + shell_quote(o.trace);
  command += " --out " + shell_quote(out_file.string()) + " > /dev/null";
  const auto start = std::chrono::steady_clock::now();
  if (std::system(command.c_str()) != 0) {
    m.available = false;
    m.note = fmt::format("netwarp-simgrid failed (command: {})", command);
    return m;
  }
  m.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ifstream in(out_file);
  const nlohmann::json j = nlohmann::json::parse(in);
  m.predicted_ps = j.at("predicted_ps").get<std::int64_t>();
  m.note = fmt::format("SimGrid {} network model {}", j.value("simgrid_version", "?"),
                       j.value("network_model", "?"));
  m.params_file = out_file.filename().string();
  return m;
}

ModelResult run_model(ModelKind kind, const scenarios::LoadedScenario& loaded,
                      const scenarios::MpiRunSpec& spec, const fs::path& params_path) {
  ModelResult m;
  m.model = std::string(model_name(kind));
  try {
    const nlohmann::ordered_json params =
        kind == ModelKind::flow
            ? flow_params(spec)
            : fit_model(kind, loaded, spec,
                        {.w_ns = loaded.scenario.validation().fit_w_us() * 1e3});
    write_json(params_path, params);
    m.params_file = fs::path("params") / params_path.filename();
    const ModelPrediction p = predict_with(params, params_path.string(), loaded, spec);
    m.predicted_ps = std::llround(p.prediction.run_time_ns * 1000.0);
    for (const auto& r : p.prediction.ranks) m.ranks.push_back(r.split);
    m.note = p.note;
    m.wall_seconds = p.wall_seconds;
  } catch (const std::invalid_argument& e) {
    m.available = false;
    m.note = e.what();
  }
  return m;
}

}  // namespace

ValidationReport run_validation(const ValidateOptions& o) {
  const auto say = [&](const std::string& line) {
    if (o.progress) o.progress(line);
  };
  const scenarios::LoadedScenario base = scenarios::load_scenario(o.scenario, o.sets);
  if (!scenarios::is_mpi_scenario(base))
    throw base.error("mpi", "validate compares MPI programs: the scenario needs an mpi section");
  ValidationReport report;
  report.scenario = base.scenario.name();
  report.scenario_file = base.path;
  const auto& sweep = base.scenario.validation().sweep();
  report.sweep_field = sweep.field();
  report.sweep_label = sweep.label().empty() ? sweep.field() : sweep.label();
  const std::vector<ModelKind> models = chosen_models(o, base);
  for (ModelKind k : models) report.models.emplace_back(model_name(k));
  std::vector<std::string> values(sweep.values().begin(), sweep.values().end());
  if (values.empty()) values.emplace_back();
  fs::create_directories(fs::path(o.out_dir) / "params");
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::vector<std::string> sets = o.sets;
    if (!report.sweep_field.empty()) sets.push_back(report.sweep_field + "=" + values[i]);
    const scenarios::LoadedScenario loaded = scenarios::load_scenario(o.scenario, sets);
    const scenarios::MpiRunSpec spec = scenarios::build_mpi_run(loaded, o.trace);
    report.program = spec.program_name;
    SweepPointResult point;
    point.value = values[i];
    const std::string tag = values[i].empty() ? std::string("run") : fmt::format("p{}", i);
    say(fmt::format("validate: {}{}: packet simulation", report.scenario,
                    values[i].empty() ? "" : " " + report.sweep_field + "=" + values[i]));
    const PacketRun truth =
        run_on_platform(spec, spec.program, scenarios::engine_settings(loaded).seed);
    point.simulated_ps = truth.totals.run_time_ps;
    point.simulated_ranks = packet_ranks(truth.totals);
    point.simulated_wall_seconds = truth.wall_seconds;
    point.simulated_events = truth.events;
    for (ModelKind kind : models) {
      say(fmt::format("validate: {}: model {}", tag, model_name(kind)));
      const fs::path params_path =
          fs::path(o.out_dir) / "params" / fmt::format("{}-{}.json", model_name(kind), tag);
      ModelResult m =
          kind == ModelKind::simgrid
              ? run_simgrid(o, sets, fs::path(o.out_dir) / fmt::format("simgrid-{}.json", tag))
              : run_model(kind, loaded, spec, params_path);
      if (m.available) m.error_pct = error_pct(m.predicted_ps, point.simulated_ps);
      point.models.push_back(std::move(m));
    }
    report.points.push_back(std::move(point));
  }
  return report;
}

}  // namespace netwarp::validation
