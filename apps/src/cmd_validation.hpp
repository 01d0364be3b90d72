// The validation commands: `netwarp fit` (a model's parameters from benchmarks in the packet
// simulator), `netwarp predict` (a program's run time from a model) and `netwarp validate`
// (packet truth against every requested model, with a report). See validation/.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "app_context.hpp"

namespace netwarp::apps {

struct FitOptions {
  std::string scenario;
  std::string model;
  std::string out;
  std::vector<std::string> sets;
  double w_us = 0;
};
CLI::App* add_fit_command(CLI::App& app, FitOptions& options);
int fit_command(const FitOptions& options, const AppContext& context);

struct PredictOptions {
  std::string scenario;
  std::string trace;
  double compute_scale = 1.0;  // --compute-scale, for --trace
  std::string model;
  std::string params;
  std::string out;
  std::string calls;  // per-call CSV
  std::vector<std::string> sets;
};
CLI::App* add_predict_command(CLI::App& app, PredictOptions& options);
int predict_command(const PredictOptions& options, const AppContext& context);

struct ValidateOptions {
  std::string scenario;
  std::string models;
  std::string out;
  std::string trace;
  std::vector<std::string> sets;
  std::vector<std::string> sweeps;
  bool no_sweep = false;
  std::string timelines = "summary";
  bool keep_runs = false;
};
CLI::App* add_validate_command(CLI::App& app, ValidateOptions& options);
int validate_command(const ValidateOptions& options, const AppContext& context);

}  // namespace netwarp::apps
