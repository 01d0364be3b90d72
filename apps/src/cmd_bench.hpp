// `netwarp bench phold`: the PHOLD benchmark with ROSS's knobs.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "app_context.hpp"
#include "kernel_options.hpp"
#include "netwarp/phold/phold.hpp"

namespace netwarp::apps {

struct PholdOptions {
  phold::PholdConfig model;
  KernelOptions kernel;
  std::string json_path;
  std::string ties = "fifo";  // engine::TieOrder by name
};

// Declares `bench` and `bench phold`; returns the phold subcommand.
CLI::App* add_bench_command(CLI::App& app, PholdOptions& options);
int bench_phold_command(const PholdOptions& options, const AppContext& context);

}  // namespace netwarp::apps
