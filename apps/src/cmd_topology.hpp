// `netwarp topology SCENARIO [--set path=value ...] [--all] [--route A B] [--dot FILE]`: the
// scenario's network as built for a run: node names, ports, peers, rates and latencies (a
// summary for a large one, every port with --all), the route between two named hosts hop by
// hop with port numbers, and the graph in Graphviz DOT.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "app_context.hpp"

namespace netwarp::apps {

struct TopologyOptions {
  std::string scenario;
  std::vector<std::string> sets;
  bool all = false;
  std::vector<std::string> route;  // two host names, or empty
  std::string dot_file;            // empty: no DOT
};

CLI::App* add_topology_command(CLI::App& app, TopologyOptions& options);
int topology_command(const TopologyOptions& options, const AppContext& context);

}  // namespace netwarp::apps
