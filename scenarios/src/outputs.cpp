// resolve_outputs: pcap node names and queue ports, by the names the topology builders give
// ("host3", "leaf0", "edge1.2"). An unknown name is answered with the known ones, switches
// first (node_names.hpp); a port index is checked against the node's ports.
#include "outputs.hpp"

#include <algorithm>

#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/scenarios/node_names.hpp"

namespace netwarp::scenarios {

namespace {

using netmodels::InputError;
using netmodels::NodeId;
using netmodels::Topology;

netmodels::PortRef resolve_port(const proto::QueuePort& port, const Topology& topology,
                                const std::string& at) {
  if (!port.toward_host().empty()) {
    const NodeId host = find_node(topology, port.toward_host(), at + ".toward_host");
    if (!topology.is_host(host))
      throw InputError(at + ".toward_host", "'" + port.toward_host() + "' is not a host");
    const netmodels::Port& link = topology.nodes[host].ports.at(0);
    return netmodels::PortRef{link.peer, link.peer_port};
  }
  const NodeId node = find_node(topology, port.node(), at + ".node");
  const std::size_t count = topology.nodes[node].ports.size();
  if (port.port() >= count)
    throw InputError(at + ".port", port.node() + " has " + std::to_string(count) + " ports (0.." +
                                       std::to_string(count - 1) + "), got " +
                                       std::to_string(port.port()));
  return netmodels::PortRef{node, static_cast<netmodels::PortIndex>(port.port())};
}

}  // namespace

netmodels::OutputSpec resolve_outputs(const proto::Outputs& outputs, const Topology& topology) {
  netmodels::OutputSpec spec;
  for (int i = 0; i < outputs.pcap_nodes_size(); ++i) {
    const std::string& name = outputs.pcap_nodes(i);
    if (name == "all_hosts") {
      for (NodeId h = 0; h < topology.host_count; ++h) spec.pcap_nodes.push_back(h);
      continue;
    }
    const std::string field = "outputs.pcap_nodes[" + std::to_string(i) + "]";
    spec.pcap_nodes.push_back(find_node(topology, name, field, "all_hosts"));
  }
  std::sort(spec.pcap_nodes.begin(), spec.pcap_nodes.end());
  spec.pcap_nodes.erase(std::unique(spec.pcap_nodes.begin(), spec.pcap_nodes.end()),
                        spec.pcap_nodes.end());
  for (int i = 0; i < outputs.queue_ports_size(); ++i)
    spec.queue_ports.push_back(resolve_port(outputs.queue_ports(i), topology,
                                            "outputs.queue_ports[" + std::to_string(i) + "]"));
  for (int i = 0; i < outputs.pcap_ports_size(); ++i)
    spec.pcap_ports.push_back(resolve_port(outputs.pcap_ports(i), topology,
                                           "outputs.pcap_ports[" + std::to_string(i) + "]"));
  spec.cwnd_trace = outputs.cwnd_trace();
  if (outputs.has_sample_interval_ns())
    spec.sample_interval_ps = static_cast<std::int64_t>(outputs.sample_interval_ns()) * 1000;
  return spec;
}

}  // namespace netwarp::scenarios
