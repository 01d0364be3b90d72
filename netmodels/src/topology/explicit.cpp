// build_explicit: a topology listed node by node and link by link (see topology_builders.hpp).
// Hosts get ids in the order listed, switches follow in theirs; ports are numbered in link
// order. Routes given by name go into the table first; every other (switch, host) entry is
// filled by a breadth-first search from the host over switches (with equal_cost_paths, every
// shortest next hop is kept too, for multipath switching). The finished table is walked
// toward every host (check_topology), so given routes that loop or lead astray are input
// errors, located at `at`.routes.
#include <fmt/format.h>

#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>

#include "netwarp/netmodels/topology_builders.hpp"
#include "routing/equal_cost_table_router.hpp"
#include "topology/topology_building.hpp"

namespace netwarp::netmodels {
namespace {

using RouteTable = std::vector<std::vector<PortIndex>>;
inline constexpr PortIndex kNoRoute = std::numeric_limits<PortIndex>::max();

std::string item(const std::string& at, const char* list, std::size_t index, const char* field) {
  return fmt::format("{}.{}[{}].{}", at, list, index, field);
}

// Node ids by name: hosts first, then switches, each in list order. Sets names on `topology`.
std::map<std::string, NodeId> number_nodes(const ExplicitSpec& spec, Topology& topology,
                                           const std::string& at) {
  std::map<std::string, NodeId> ids;
  NodeId next_host = 0;
  NodeId next_switch = topology.host_count;
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    const ExplicitNode& node = spec.nodes[i];
    const std::string field = item(at, "nodes", i, "name");
    if (node.name.empty()) throw InputError(field, "must not be empty");
    const NodeId id = node.is_switch ? next_switch++ : next_host++;
    if (!ids.emplace(node.name, id).second)
      throw InputError(field, "'" + node.name + "' names two nodes");
    topology.nodes[id].name = node.name;
  }
  return ids;
}

NodeId find_node(const std::map<std::string, NodeId>& ids, const std::string& name,
                 const std::string& field) {
  const auto found = ids.find(name);
  if (found == ids.end()) throw InputError(field, "no node is named '" + name + "'");
  return found->second;
}

void add_link(Topology& topology, const std::map<std::string, NodeId>& ids,
              const ExplicitLink& link, const std::string& field_prefix, const LinkLevels& links) {
  const NodeId a = find_node(ids, link.a, field_prefix + ".a");
  const NodeId b = find_node(ids, link.b, field_prefix + ".b");
  if (a == b) throw InputError(field_prefix + ".b", "joins '" + link.a + "' to itself");
  for (const NodeId end : {a, b}) {
    const bool is_second_host_link = topology.is_host(end) && !topology.nodes[end].ports.empty();
    if (is_second_host_link)
      throw InputError(field_prefix + (end == a ? ".a" : ".b"),
                       "host '" + topology.nodes[end].name + "' has more than one link");
    if (topology.nodes[end].ports.size() >= topology_building::kMaxPorts)
      throw InputError(field_prefix, "gives '" + topology.nodes[end].name + "' more than " +
                                         std::to_string(topology_building::kMaxPorts) + " ports");
  }
  if (topology.is_host(a) && topology.is_host(b))
    throw InputError(field_prefix + ".b", "joins two hosts; a host's link goes to a switch");
  if (link.rate_bps && *link.rate_bps == 0)
    throw InputError(field_prefix + ".rate_bps", "must be > 0");
  const std::uint8_t level = topology.is_host(a) || topology.is_host(b) ? 0 : 1;
  const PortIndex port_at_a = topology_building::add_cable(topology, a, b, level, links);
  for (Port* port : {&topology.nodes[a].ports[port_at_a], &topology.nodes[b].ports.back()}) {
    if (link.rate_bps) port->rate_bps = *link.rate_bps;
    if (link.latency) port->latency = *link.latency;
  }
}

void add_links(const ExplicitSpec& spec, const std::map<std::string, NodeId>& ids,
               Topology& topology, const LinkLevels& links, const std::string& at) {
  for (std::size_t i = 0; i < spec.links.size(); ++i)
    add_link(topology, ids, spec.links[i], fmt::format("{}.links[{}]", at, i), links);
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    const NodeId id = ids.at(spec.nodes[i].name);
    if (topology.is_host(id) && topology.nodes[id].ports.empty())
      throw InputError(item(at, "nodes", i, "name"),
                       "host '" + spec.nodes[i].name + "' has no link");
  }
}

// Hosts join their switch's locality group; switch i is group i.
void set_groups(Topology& topology) {
  for (NodeId s = topology.host_count; s < topology.nodes.size(); ++s)
    topology.nodes[s].group = s - topology.host_count;
  for (NodeId h = 0; h < topology.host_count; ++h)
    topology.nodes[h].group = topology.nodes[topology.nodes[h].ports[0].peer].group;
}

void add_given_routes(const ExplicitSpec& spec, const std::map<std::string, NodeId>& ids,
                      const Topology& topology, RouteTable& table, const std::string& at) {
  for (std::size_t i = 0; i < spec.routes.size(); ++i) {
    const ExplicitRoute& route = spec.routes[i];
    const NodeId sw = find_node(ids, route.at, item(at, "routes", i, "at"));
    const NodeId host = find_node(ids, route.host, item(at, "routes", i, "host"));
    const NodeId next = find_node(ids, route.next, item(at, "routes", i, "next"));
    if (topology.is_host(sw))
      throw InputError(item(at, "routes", i, "at"), "'" + route.at + "' is a host, not a switch");
    if (!topology.is_host(host))
      throw InputError(item(at, "routes", i, "host"), "'" + route.host + "' is not a host");
    const auto& ports = topology.nodes[sw].ports;
    PortIndex port = 0;
    while (port < ports.size() && ports[port].peer != next) ++port;
    if (port == ports.size())
      throw InputError(item(at, "routes", i, "next"),
                       "'" + route.next + "' is not linked to '" + route.at + "'");
    PortIndex& entry = table[sw - topology.host_count][host];
    if (entry != kNoRoute)
      throw InputError(item(at, "routes", i, "host"),
                       "a second route at '" + route.at + "' toward '" + route.host + "'");
    entry = port;
  }
}

// Links from every switch to `host` on a shortest path through switches; -1: unreachable.
std::vector<int> switch_distances(const Topology& topology, NodeId host) {
  std::vector<int> distance(topology.switch_count(), -1);
  std::deque<NodeId> frontier;
  const NodeId first = topology.nodes[host].ports[0].peer;
  distance[first - topology.host_count] = 1;
  frontier.push_back(first);
  while (!frontier.empty()) {
    const NodeId at = frontier.front();
    frontier.pop_front();
    for (const Port& port : topology.nodes[at].ports) {
      if (topology.is_host(port.peer) || distance[port.peer - topology.host_count] >= 0) continue;
      distance[port.peer - topology.host_count] = distance[at - topology.host_count] + 1;
      frontier.push_back(port.peer);
    }
  }
  return distance;
}

// Every port of `at` one link closer to `host`, in port order (the first is shortest_port's).
void add_closer_ports(const Topology& topology, NodeId at, NodeId host,
                      const std::vector<int>& distance, std::vector<PortIndex>& out) {
  const auto& ports = topology.nodes[at].ports;
  const int closer = distance[at - topology.host_count] - 1;
  for (std::size_t k = 0; k < ports.size(); ++k) {
    const NodeId peer = ports[k].peer;
    const bool is_closer =
        topology.is_host(peer) ? peer == host : distance[peer - topology.host_count] == closer;
    if (is_closer) out.push_back(static_cast<PortIndex>(k));
  }
}

// The lowest port of `at` one link closer to `host`.
PortIndex shortest_port(const Topology& topology, NodeId at, NodeId host,
                        const std::vector<int>& distance) {
  std::vector<PortIndex> closer;
  add_closer_ports(topology, at, host, distance, closer);
  if (closer.empty())
    throw std::logic_error("build_explicit: no port closer to " + topology.nodes[host].name);
  return closer.front();
}

void add_shortest_routes(const Topology& topology, RouteTable& table, const std::string& at) {
  for (NodeId host = 0; host < topology.host_count; ++host) {
    const std::vector<int> distance = switch_distances(topology, host);
    for (NodeId s = 0; s < topology.switch_count(); ++s) {
      if (table[s][host] != kNoRoute) continue;
      const NodeId sw = topology.host_count + s;
      if (distance[s] < 0)
        throw InputError(at + ".links", "switch '" + topology.nodes[sw].name +
                                            "' has no path to host '" + topology.nodes[host].name +
                                            "'");
      table[s][host] = shortest_port(topology, sw, host, distance);
    }
  }
}

// The routes with every shortest next hop of every switch toward every host (after
// add_shortest_routes, so every switch reaches every host).
std::shared_ptr<const Router> equal_cost_router(const Topology& topology, RouteTable table) {
  std::vector<std::vector<int>> distances;
  distances.reserve(topology.host_count);
  for (NodeId host = 0; host < topology.host_count; ++host)
    distances.push_back(switch_distances(topology, host));
  std::vector<std::uint32_t> start;
  std::vector<PortIndex> ports;
  start.reserve(std::size_t{topology.switch_count()} * topology.host_count + 1);
  for (NodeId s = 0; s < topology.switch_count(); ++s)
    for (NodeId host = 0; host < topology.host_count; ++host) {
      start.push_back(static_cast<std::uint32_t>(ports.size()));
      add_closer_ports(topology, topology.host_count + s, host, distances[host], ports);
    }
  start.push_back(static_cast<std::uint32_t>(ports.size()));
  return std::make_shared<EqualCostTableRouter>(TableRouter(topology.host_count, std::move(table)),
                                                std::move(start), std::move(ports),
                                                topology.host_count);
}

std::uint32_t count_hosts(const ExplicitSpec& spec) {
  std::uint32_t hosts = 0;
  for (const ExplicitNode& node : spec.nodes) hosts += node.is_switch ? 0 : 1;
  return hosts;
}

}  // namespace

Topology build_explicit(const ExplicitSpec& spec, const LinkLevels& links, const std::string& at) {
  using namespace topology_building;
  if (spec.nodes.size() >= kMaxNodes)
    throw InputError(at + ".nodes", "lists more than " + std::to_string(kMaxNodes - 1) + " nodes");
  const std::uint32_t hosts = count_hosts(spec);
  if (hosts == 0) throw InputError(at + ".nodes", "lists no host");
  Topology topology =
      start_topology("graph", hosts, static_cast<std::uint32_t>(spec.nodes.size()) - hosts);
  const std::map<std::string, NodeId> ids = number_nodes(spec, topology, at);
  add_links(spec, ids, topology, links, at);
  set_groups(topology);
  if (spec.equal_cost_paths && !spec.routes.empty())
    throw InputError(at + ".routes",
                     "fix one path per destination: multipath routing takes "
                     "every shortest path, remove the routes or the multipath");
  RouteTable table(topology.switch_count(), std::vector<PortIndex>(hosts, kNoRoute));
  add_given_routes(spec, ids, topology, table, at);
  add_shortest_routes(topology, table, at);
  if (spec.equal_cost_paths) {
    topology.router = equal_cost_router(topology, std::move(table));
  } else {
    topology.router = std::make_shared<TableRouter>(hosts, std::move(table));
  }
  try {
    check_topology(topology);
  } catch (const std::logic_error& error) {
    throw InputError(at + ".routes", error.what());
  }
  return topology;
}

}  // namespace netwarp::netmodels
