// `netwarp topology`: builds the scenario's topology as a run would (its workload is not built)
// and prints it.
#include "cmd_topology.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "exit_codes.hpp"
#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/netmodels/network_spec.hpp"
#include "netwarp/scenarios/network_builder.hpp"
#include "netwarp/scenarios/node_names.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"
#include "topology_text.hpp"

namespace netwarp::apps {
namespace {

netmodels::NodeId host_named(const netmodels::Topology& topology, const std::string& name,
                             const std::string& field) {
  const netmodels::NodeId node = scenarios::find_node(topology, name, field);
  if (!topology.is_host(node))
    throw UsageError(
        fmt::format("{}: '{}' is a switch: a route runs between two hosts", field, name));
  return node;
}

void write_dot(const netmodels::Topology& topology, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  out << topology_dot(topology);
  if (!out.flush()) throw UsageError(fmt::format("--dot {}: cannot write the file", path));
}

// The route key of the first message from src to dst, as a run computes it
// (NetworkContext::flow_route_key); without one, connection 0's.
FlowKey first_connection(const netmodels::NetworkSpec& spec, netmodels::NodeId src,
                         netmodels::NodeId dst) {
  for (const netmodels::Message& m : spec.workload.messages)
    if (m.src == src && m.dst == dst)
      return {netmodels::connection_route_key(src, dst, std::uint64_t{m.id} + 1),
              fmt::format("message {}'s connection", m.id)};
  return {netmodels::connection_route_key(src, dst, 0),
          spec.workload.messages.empty() ? "the MPI job's connection"
                                         : "no message of the workload: connection 0"};
}

}  // namespace

CLI::App* add_topology_command(CLI::App& app, TopologyOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "topology",
      "The scenario's network: nodes, ports, peers, rates and latencies; a route; Graphviz DOT");
  cmd->add_option("scenario", o.scenario, "Scenario file (.pbtxt)")->required();
  cmd->add_option("--set", o.sets, "Override a scenario field: path.to.field=value (repeatable)");
  cmd->add_flag("--all", o.all,
                fmt::format("List every port even when there are more than {}", kFullListingPorts));
  cmd->add_option("--route", o.route, "Show the route between two hosts, by name: --route A B")
      ->expected(2);
  cmd->add_option("--dot", o.dot_file, "Write the topology as a Graphviz graph to FILE");
  return cmd;
}

int topology_command(const TopologyOptions& o, const AppContext& context) {
  const scenarios::LoadedScenario loaded = scenarios::load_scenario(o.scenario, o.sets);
  if (!context.is_root()) return exit_code::kSuccess;
  const netmodels::Topology topology = scenarios::build_scenario_topology(loaded);
  if (!o.route.empty()) {
    try {
      const auto src = host_named(topology, o.route[0], "--route");
      const auto dst = host_named(topology, o.route[1], "--route");
      // The route's hash follows the workload's first message between the two (ECMP keys
      // connections), so --route builds the workload too; the listing needs only the topology.
      const netmodels::NetworkSpec spec = scenarios::build_network_spec(loaded);
      const FlowKey flow = first_connection(spec, src, dst);
      std::fputs(route_text(topology, src, dst, &flow).c_str(), stdout);
    } catch (const netmodels::InputError& e) {
      throw UsageError(e.field() + ": " + e.message());
    }
  } else {
    std::fputs(topology_listing(topology, o.all).c_str(), stdout);
  }
  if (!o.dot_file.empty()) {
    write_dot(topology, o.dot_file);
    std::printf("dot           %s\n", o.dot_file.c_str());
  }
  return exit_code::kSuccess;
}

}  // namespace netwarp::apps
