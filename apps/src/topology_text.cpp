// Text and DOT views of a topology for `netwarp topology` (topology_text.hpp).
#include "topology_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace netwarp::apps {

namespace {

using netmodels::NodeId;
using netmodels::Port;
using netmodels::PortIndex;
using netmodels::Topology;

// A value with a unit, without trailing zeros: 2.5, 1, 1.25.
std::string scaled(double value, const char* unit) {
  return fmt::format("{:.6g} {}", value, unit);
}

std::size_t port_count(const Topology& topology) {
  std::size_t ports = 0;
  for (const auto& node : topology.nodes) ports += node.ports.size();
  return ports;
}

// Each cable once: from the end with the lower node id (ports are paired both ways).
bool is_first_end(NodeId node, const Port& port) {
  return node < port.peer;
}

std::string level_lines(const Topology& topology) {
  // level -> (rate, latency) -> cables
  std::map<int, std::map<std::pair<std::uint64_t, std::int64_t>, std::size_t>> levels;
  for (NodeId n = 0; n < topology.nodes.size(); ++n)
    for (const Port& port : topology.nodes[n].ports)
      if (is_first_end(n, port)) ++levels[port.level][{port.rate_bps, port.latency.ps()}];
  std::string text;
  for (const auto& [level, kinds] : levels)
    for (const auto& [rate_latency, cables] : kinds)
      text += fmt::format("  link level {}: {} cables, {}, {}\n", level, cables,
                          rate_text(rate_latency.first),
                          latency_text(netmodels::SimTime::from_ps(rate_latency.second)));
  return text;
}

std::string switch_names(const Topology& topology) {
  std::string text;
  std::size_t column = 0;
  for (NodeId n = topology.host_count; n < topology.nodes.size(); ++n) {
    const std::string& name = topology.nodes[n].name;
    if (column + name.size() > 96) {
      text += "\n";
      column = 0;
    }
    text += (column == 0 ? "  " : " ") + name;
    column += name.size() + 1;
  }
  return text + "\n";
}

std::string hop_line(const Topology& topology, const RouteHop& hop) {
  const Port& port = topology.nodes[hop.from].ports[hop.out_port];
  return fmt::format("  {} port {} -> {} port {}  (level {}, {}, {})\n",
                     topology.nodes[hop.from].name, hop.out_port, topology.nodes[hop.to].name,
                     hop.in_port, port.level, rate_text(port.rate_bps), latency_text(port.latency));
}

std::string quoted(const std::string& name) {
  std::string text = "\"";
  for (const char c : name)
    text += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return text + "\"";
}

}  // namespace

std::string rate_text(std::uint64_t rate_bps) {
  const auto rate = static_cast<double>(rate_bps);
  if (rate_bps >= 1'000'000'000'000) return scaled(rate * 1e-12, "Tbit/s");
  if (rate_bps >= 1'000'000'000) return scaled(rate * 1e-9, "Gbit/s");
  if (rate_bps >= 1'000'000) return scaled(rate * 1e-6, "Mbit/s");
  if (rate_bps >= 1'000) return scaled(rate * 1e-3, "kbit/s");
  return fmt::format("{} bit/s", rate_bps);
}

std::string latency_text(netmodels::SimTime latency) {
  const auto ps = static_cast<double>(latency.ps());
  if (latency.ps() >= 1'000'000'000) return scaled(ps * 1e-9, "ms");
  if (latency.ps() >= 1'000'000) return scaled(ps * 1e-6, "us");
  if (latency.ps() >= 1'000 || latency.ps() == 0) return scaled(ps * 1e-3, "ns");
  return fmt::format("{} ps", latency.ps());
}

std::string topology_summary(const Topology& topology) {
  const std::uint32_t switches = topology.switch_count();
  return fmt::format("{}: {} hosts, {} switch{}, {} ports ({} cables)\n", topology.kind,
                     topology.host_count, switches, switches == 1 ? "" : "es", port_count(topology),
                     port_count(topology) / 2) +
         level_lines(topology);
}

std::string port_table(const Topology& topology) {
  std::size_t width = 4;
  for (const auto& node : topology.nodes) width = std::max(width, node.name.size());
  std::string text =
      fmt::format("{:<{}}  {:>4}  {:<{}}  {:>9}  {:>5}  {:>12}  {:>10}\n", "node", width, "port",
                  "peer", width, "peer port", "level", "rate", "latency");
  for (const auto& node : topology.nodes)
    for (std::size_t p = 0; p < node.ports.size(); ++p) {
      const Port& port = node.ports[p];
      text += fmt::format("{:<{}}  {:>4}  {:<{}}  {:>9}  {:>5}  {:>12}  {:>10}\n", node.name, width,
                          p, topology.nodes[port.peer].name, width, port.peer_port, port.level,
                          rate_text(port.rate_bps), latency_text(port.latency));
    }
  return text;
}

std::string topology_listing(const Topology& topology, bool all) {
  const std::string summary = topology_summary(topology);
  if (all || port_count(topology) <= kFullListingPorts)
    return summary + "\n" + port_table(topology);
  return summary + "switches:\n" + switch_names(topology) +
         fmt::format("(--all lists all {} ports; --route A B shows one path)\n",
                     port_count(topology));
}

namespace {

using netmodels::MultipathMode;

// ECMP under topology.multipath, or a fat tree's own per-flow ECMP.
bool is_per_flow(const Topology& topology) {
  const netmodels::MultipathRouter* multipath = netmodels::multipath_of(*topology.router);
  if (multipath != nullptr) return multipath->spec().mode == MultipathMode::ecmp;
  return topology.kind == "fat_tree" && topology.router->per_packet();
}

// The port a packet of `flow` leaves `at` by toward `dst`.
PortIndex flow_port(const Topology& topology, NodeId at, NodeId src, NodeId dst,
                    const FlowKey* flow) {
  if (flow == nullptr || topology.is_host(at) || !is_per_flow(topology))
    return topology.next_port(at, dst);
  if (const netmodels::MultipathRouter* multipath = netmodels::multipath_of(*topology.router))
    return netmodels::ecmp_port(*multipath, at, dst, flow->key);
  struct Idle final : netmodels::PortLoad {
    std::int64_t backlog_ps(PortIndex) const override { return 0; }
  } idle;
  const netmodels::RouteQuery query{src, dst, 0, flow->key, 0, false};
  return topology.router->choose(at, query, idle).port;
}

// "4 equal-cost next hops, hash 0x...: number 2" under a multipath router.
std::string multipath_line(const Topology& topology, const RouteHop& hop, NodeId dst,
                           const FlowKey& flow) {
  const netmodels::MultipathRouter* multipath = netmodels::multipath_of(*topology.router);
  if (multipath == nullptr) return "";
  const std::uint32_t paths = multipath->paths().path_count(hop.from, dst);
  if (paths < 2) return "";
  if (multipath->spec().mode != MultipathMode::ecmp)
    return fmt::format("      {} equal-cost next hops\n", paths);
  const std::uint64_t hash = netmodels::multipath_hash(multipath->spec(), hop.from, flow.key);
  return fmt::format("      {} equal-cost next hops, hash {:#018x}: number {}\n", paths, hash,
                     hash % paths);
}

const char* multipath_note(const Topology& topology, bool has_flow) {
  if (const netmodels::MultipathRouter* multipath = netmodels::multipath_of(*topology.router)) {
    switch (multipath->spec().mode) {
      case MultipathMode::ecmp:
        return has_flow ? nullptr : "(the static route: ECMP hashes each connection in a run)\n";
      case MultipathMode::spray_random:
      case MultipathMode::spray_round_robin:
        return "(the static route: spraying chooses per packet among the equal-cost next hops)\n";
      case MultipathMode::flowlet:
        return "(the static route: each flowlet hashes again among the equal-cost next hops)\n";
    }
  }
  if (!topology.router->per_packet() || (has_flow && is_per_flow(topology))) return nullptr;
  return "(the static route: this topology's ECMP / Valiant / UGAL routing chooses per flow or "
         "per packet in a run)\n";
}

}  // namespace

std::vector<RouteHop> route(const Topology& topology, NodeId src, NodeId dst, const FlowKey* flow) {
  std::vector<RouteHop> hops;
  for (NodeId at = src; at != dst;) {
    if (hops.size() > topology.nodes.size())
      throw std::logic_error("routing loop from " + topology.nodes[src].name + " to " +
                             topology.nodes[dst].name);
    const PortIndex out = flow_port(topology, at, src, dst, flow);
    const Port& port = topology.nodes[at].ports.at(out);
    hops.push_back(RouteHop{at, out, port.peer, port.peer_port});
    at = port.peer;
  }
  return hops;
}

std::string route_text(const Topology& topology, NodeId src, NodeId dst, const FlowKey* flow) {
  const std::vector<RouteHop> hops = route(topology, src, dst, flow);
  std::string text = fmt::format("route {} -> {}: {} links\n", topology.nodes[src].name,
                                 topology.nodes[dst].name, hops.size());
  if (flow != nullptr && is_per_flow(topology))
    text += fmt::format("  flow key {:#018x} ({})\n", flow->key, flow->about);
  for (const RouteHop& hop : hops) {
    text += hop_line(topology, hop);
    if (flow != nullptr && !topology.is_host(hop.from))
      text += multipath_line(topology, hop, dst, *flow);
  }
  if (const char* note = multipath_note(topology, flow != nullptr)) text += note;
  return text;
}

std::string topology_dot(const Topology& topology) {
  std::string text = fmt::format("graph {} {{\n", quoted(topology.kind));
  std::istringstream summary(topology_summary(topology));
  for (std::string line; std::getline(summary, line);)
    text += "  // " + line.substr(line.find_first_not_of(' ')) + "\n";
  for (NodeId n = 0; n < topology.nodes.size(); ++n)
    text += fmt::format("  {} [shape={}];\n", quoted(topology.nodes[n].name),
                        topology.is_host(n) ? "ellipse" : "box");
  for (NodeId n = 0; n < topology.nodes.size(); ++n)
    for (std::size_t p = 0; p < topology.nodes[n].ports.size(); ++p) {
      const Port& port = topology.nodes[n].ports[p];
      if (!is_first_end(n, port)) continue;
      text += fmt::format("  {} -- {} [taillabel=\"{}\", headlabel=\"{}\", label=\"{}, {}\"];\n",
                          quoted(topology.nodes[n].name), quoted(topology.nodes[port.peer].name), p,
                          port.peer_port, rate_text(port.rate_bps), latency_text(port.latency));
    }
  return text + "}\n";
}

}  // namespace netwarp::apps
