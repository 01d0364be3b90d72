// Writing the platform XML: config, hosts, routers, one link per port, explicit routes.
#include "platform_xml.hpp"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

namespace netwarp::simgrid_check {

using netmodels::NodeId;
using netmodels::PortIndex;
using netmodels::Topology;

namespace {

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void write_config(std::string& xml, const NetworkModelChoice& model) {
  xml += "  <config>\n";
  for (const auto& [option, value] : model.config)
    xml += fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n", option, value);
  xml += "  </config>\n";
}

// The links a packet from `src` to `dst` crosses: at each node, the port toward `dst`.
std::vector<std::string> route_links(const Topology& topology,
                                     const std::vector<std::string>& names, NodeId src,
                                     NodeId dst) {
  const std::vector<NodeId> nodes = topology.path(src, dst);
  std::vector<std::string> links;
  for (std::size_t i = 0; i + 1 < nodes.size(); ++i) {
    const PortIndex port = topology.next_port(nodes[i], dst);
    if (topology.nodes[nodes[i]].ports.at(port).peer != nodes[i + 1])
      throw std::logic_error(fmt::format("route {} -> {}: port {} of {} does not lead to {}",
                                         names[src], names[dst], port, names[nodes[i]],
                                         names[nodes[i + 1]]));
    links.push_back(link_name(names, nodes[i], port));
  }
  return links;
}

// One route per ordered pair of distinct hosts; `routed` may name a host once per rank on it.
void write_routes(std::string& xml, const Topology& topology, const std::vector<std::string>& names,
                  const std::vector<NodeId>& routed) {
  const std::set<NodeId> hosts(routed.begin(), routed.end());
  for (const NodeId src : hosts) {
    for (const NodeId dst : hosts) {
      if (src == dst) continue;
      xml += fmt::format("    <route src=\"{}\" dst=\"{}\" symmetrical=\"NO\">",
                         xml_escaped(names[src]), xml_escaped(names[dst]));
      for (const std::string& link : route_links(topology, names, src, dst))
        xml += fmt::format("<link_ctn id=\"{}\"/>", xml_escaped(link));
      xml += "</route>\n";
    }
  }
}

}  // namespace

std::vector<std::string> simgrid_node_names(const Topology& topology) {
  std::vector<std::string> names;
  std::set<std::string> taken;
  for (NodeId n = 0; n < topology.nodes.size(); ++n) {
    std::string name = topology.nodes[n].name;
    if (name.empty() || taken.count(name) != 0) name = fmt::format("node{}", n);
    taken.insert(name);
    names.push_back(name);
  }
  return names;
}

std::string link_name(const std::vector<std::string>& node_names, NodeId node, PortIndex port) {
  return fmt::format("{}-p{}", node_names[node], port);
}

std::string platform_xml(const Topology& topology, std::uint64_t nic_rate_bps,
                         const std::vector<NodeId>& routed_hosts, const NetworkModelChoice& model) {
  const std::vector<std::string> names = simgrid_node_names(topology);
  std::string xml =
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n";
  xml += fmt::format(
      "<!-- netwarp-simgrid: {} topology, {} hosts, {} switches (routers); one link per cable "
      "direction with the port's rate and propagation latency; routes as netwarp routes "
      "packets. Host speed is unused: ranks only sleep. -->\n",
      xml_escaped(topology.kind), topology.host_count, topology.switch_count());
  xml += "<platform version=\"4.1\">\n";
  write_config(xml, model);
  xml += "  <zone id=\"netwarp\" routing=\"Full\">\n";
  for (NodeId n = 0; n < topology.host_count; ++n)
    xml += fmt::format("    <host id=\"{}\" speed=\"1Gf\"/>\n", xml_escaped(names[n]));
  for (NodeId n = topology.host_count; n < topology.nodes.size(); ++n)
    xml += fmt::format("    <router id=\"{}\"/>\n", xml_escaped(names[n]));
  for (NodeId n = 0; n < topology.nodes.size(); ++n) {
    const auto& ports = topology.nodes[n].ports;
    for (PortIndex p = 0; p < ports.size(); ++p) {
      const bool nic = topology.is_host(n) && nic_rate_bps != 0;
      xml += fmt::format("    <link id=\"{}\" bandwidth=\"{}bps\" latency=\"{}ps\"/>\n",
                         xml_escaped(link_name(names, n, p)),
                         nic ? nic_rate_bps : ports[p].rate_bps, ports[p].latency.ps());
    }
  }
  write_routes(xml, topology, names, routed_hosts);
  xml += "  </zone>\n</platform>\n";
  return xml;
}

}  // namespace netwarp::simgrid_check
