// `netwarp model`: analytic model times for one message size, in integer picoseconds.
#include "cmd_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "netwarp/validation/loggps.hpp"
#include "netwarp/validation/params_json.hpp"
#include "unit_options.hpp"

namespace netwarp::apps {

namespace {

using validation::LogGpsParams;
using validation::ModelParams;
using Lines = std::vector<std::pair<const char*, double>>;  // name, ns

// The models with a parameter file and times for one message size (all but plogp-br, whose
// times need a communication pattern).
bool has_model_times(validation::ModelKind kind) {
  return kind != validation::ModelKind::plogp_br;
}

std::string known_models() {
  std::string names;
  for (validation::ModelKind kind : validation::kParamsModels)
    if (has_model_times(kind))
      names += fmt::format("{}{}", names.empty() ? "" : ", ", validation::model_name(kind));
  return names;
}
constexpr double kLargestNs = 9e15;  // 9e18 ps still fits a signed 64-bit picosecond count

Lines loggps_lines(const LogGpsParams& p, std::uint64_t k, double w_ns) {
  namespace loggps = validation::loggps;
  return {{"comm_time", loggps::comm_time(p, k, 0.0)},
          {"send", loggps::send(p, k, 0.0)},
          {"isend", loggps::isend(p)},
          {"recv", loggps::recv(p, k, 0.0)},
          {"irecv", loggps::irecv(p)},
          {"rtt", loggps::rtt(p, k, w_ns)}};
}

Lines point_lines(const ModelParams& params, std::uint64_t k) {
  return std::visit(
      [k](const auto& p) -> Lines {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, LogGpsParams> ||
                      std::is_same_v<T, validation::PlogpBrParams>) {
          throw std::logic_error("not a point model");
        } else if constexpr (std::is_same_v<T, validation::MpieteParams>) {
          return {{"t_comm", validation::t_comm(p, k)}};
        } else {
          return {{"message_time", validation::message_time(p, k)},
                  {"send", validation::send_time(p, k)},
                  {"recv", validation::recv_time(p, k)},
                  {"rtt", validation::rtt(p, k)}};
        }
      },
      params);
}

ModelParams load_params(const ModelOptions& o) {
  if (o.preset.empty() == o.params_file.empty())
    throw UsageError("model: give exactly one of --preset and --params");
  if (!o.preset.empty()) {
    if (o.model != "loggps") throw UsageError("model: --preset is only for loggps");
    try {
      return validation::loggps_preset(o.preset);
    } catch (const std::invalid_argument& e) {
      throw UsageError(fmt::format("--preset: {}", e.what()));
    }
  }
  try {
    return validation::read_params_file(o.params_file).params;
  } catch (const netmodels::InputError& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

CLI::App* add_model_command(CLI::App& app, ModelOptions& o) {
  CLI::App* model = app.add_subcommand(
      "model",
      "Print an analytic model's times for one message size, one 'name picoseconds' line each "
      "(loggps: comm_time, send, isend, recv, irecv for an isolated message, rtt)");
  model->add_option("MODEL", o.model, fmt::format("Model: {}", known_models()))->required();
  model->add_option("--preset", o.preset,
                    "LogGPS parameters of Table 5: myrinet, fast-ethernet, cenju4");
  model->add_option("--params", o.params_file, "Parameter file (JSON, as `netwarp fit` writes)");
  model->add_option("--size", o.size, "Message size K in bytes (64KiB, 1MiB)")
      ->required()
      ->transform(bytes_with_unit());
  model
      ->add_option("--w", o.w_ns,
                   "loggps rtt: dummy loop W on one side of the ping-pong, in ns like the "
                   "parameters, or with a unit (20us) (default 0)")
      ->transform(time_with_unit("ns"));
  return model;
}

int model_command(const ModelOptions& o, const AppContext& context) {
  const auto known =
      std::find_if(std::begin(validation::kParamsModels), std::end(validation::kParamsModels),
                   [&](validation::ModelKind k) {
                     return has_model_times(k) && validation::model_name(k) == o.model;
                   });
  if (known == std::end(validation::kParamsModels))
    throw UsageError(fmt::format("model: unknown model '{}' (known: {})", o.model, known_models()));
  if (!std::isfinite(o.w_ns) || o.w_ns < 0)
    throw UsageError(fmt::format("--w: must be >= 0 ns, got {}", o.w_ns));
  if (o.w_ns != 0 && o.model != "loggps") throw UsageError("--w: only loggps has a dummy loop");
  const ModelParams params = load_params(o);
  const std::string_view in_file = validation::params_model_name(params);
  if (in_file != o.model)
    throw UsageError(fmt::format("--params: {} holds '{}' parameters, not '{}'", o.params_file,
                                 in_file, o.model));
  const Lines lines = o.model == "loggps"
                          ? loggps_lines(std::get<LogGpsParams>(params), o.size, o.w_ns)
                          : point_lines(params, o.size);
  for (const auto& [name, ns] : lines)
    if (!(std::fabs(ns) < kLargestNs))
      throw UsageError(
          fmt::format("--size: {} bytes gives a {} beyond {} ns", o.size, name, kLargestNs));
  if (!context.is_root()) return 0;
  for (const auto& [name, ns] : lines)
    std::printf("%s %lld\n", name, static_cast<long long>(std::llround(ns * 1000.0)));
  return 0;
}

}  // namespace netwarp::apps
