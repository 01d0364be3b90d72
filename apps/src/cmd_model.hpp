// `netwarp model MODEL (--preset NAME | --params FILE) --size K [--w W]`: the analytic
// model's times for one message size, one `name picoseconds` line each. For loggps: comm_time
// (Table 3, ts = tr), send, isend, recv, irecv (Table 4, isolated message with ts = tr) and rtt
// (Table 6 with a dummy loop of W ns). hockney, logp, loggp and plogp (--params only):
// message_time, send, recv and rtt as point_models.hpp / plogp.hpp define them.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "app_context.hpp"

namespace netwarp::apps {

struct ModelOptions {
  std::string model;
  std::string preset;
  std::string params_file;
  std::uint64_t size = 0;
  double w_ns = 0;
};

CLI::App* add_model_command(CLI::App& app, ModelOptions& options);
// Throws UsageError for bad combinations, unknown presets and bad parameter files.
int model_command(const ModelOptions& options, const AppContext& context);

}  // namespace netwarp::apps
