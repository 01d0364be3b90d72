// `netwarp flow [SCENARIO] [--mode F|N] [--pattern FILE] [--set path=value ...] [--out DIR]`:
// the flow-level model (MFS, docs/models/flow-mfs.md) on a scenario's topology, with the
// scenario's workload or an MFS pattern file. Writes DIR/flow.json and DIR/flow_messages.csv.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "app_context.hpp"

namespace netwarp::apps {

struct FlowOptions {
  std::string scenario;  // empty: the built-in default
  std::string mode = "F";
  std::string pattern;  // empty: the scenario's workload
  std::vector<std::string> sets;
  std::string out_dir;  // empty: out/<scenario name>
  double resolution_ns = 0;
  bool synchronised_sends = false;
  bool route_latency = false;
};

CLI::App* add_flow_command(CLI::App& app, FlowOptions& options);
int flow_command(const FlowOptions& options, const AppContext& context);

}  // namespace netwarp::apps
