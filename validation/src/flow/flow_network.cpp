// FlowNetwork: one flow link per directed port of a netmodels::Topology; routes follow the
// topology's static routing (Topology::next_port), hop by hop from the sending host.
#include "netwarp/validation/flow_network.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

namespace netwarp::validation {

using netmodels::NodeId;
using netmodels::PortIndex;

FlowNetwork::FlowNetwork(std::vector<FlowLink> links) : links_(std::move(links)) {
  for (std::size_t k = 0; k < links_.size(); ++k)
    if (!(links_[k].bytes_per_second > 0))
      throw std::invalid_argument(fmt::format("flow link {}: bandwidth must be > 0", k));
}

FlowNetwork FlowNetwork::from_topology(const netmodels::Topology& topology,
                                       std::uint64_t host_rate_bps) {
  std::vector<FlowLink> links;
  std::vector<FlowLinkId> first(topology.nodes.size() + 1, 0);
  for (NodeId n = 0; n < topology.nodes.size(); ++n) {
    first[n] = static_cast<FlowLinkId>(links.size());
    const auto& ports = topology.nodes[n].ports;
    for (PortIndex p = 0; p < ports.size(); ++p) {
      std::uint64_t rate = ports[p].rate_bps;
      if (topology.is_host(n) && host_rate_bps != 0) rate = host_rate_bps;
      if (rate == 0)
        throw std::invalid_argument(
            fmt::format("{} port {}: rate_bps must be > 0", topology.nodes[n].name, p));
      links.push_back(
          FlowLink{static_cast<double>(rate) / 8.0, ports[p].latency.to_seconds(), n, p});
    }
  }
  first.back() = static_cast<FlowLinkId>(links.size());
  FlowNetwork network(std::move(links));
  network.topology_ = topology;
  network.first_link_ = std::move(first);
  return network;
}

std::uint32_t FlowNetwork::host_count() const {
  return topology_ ? topology_->host_count : 0;
}

FlowLinkId FlowNetwork::link_of(NodeId node, PortIndex port) const {
  if (!topology_ || node >= topology_->nodes.size() || port >= topology_->nodes[node].ports.size())
    throw std::invalid_argument(fmt::format("no flow link for node {} port {}", node, port));
  return first_link_[node] + port;
}

void FlowNetwork::check_hosts(NodeId src, NodeId dst) const {
  if (!topology_) throw std::invalid_argument("flow network has no topology to route on");
  const std::uint32_t hosts = topology_->host_count;
  if (src >= hosts || dst >= hosts)
    throw std::invalid_argument(
        fmt::format("route {} -> {}: hosts are 0..{}", src, dst, hosts - 1));
  if (src == dst) throw std::invalid_argument(fmt::format("route {} -> {}: same host", src, dst));
}

void FlowNetwork::append_route(NodeId src, NodeId dst, std::vector<FlowLinkId>& out) const {
  check_hosts(src, dst);
  const netmodels::Topology& t = *topology_;
  NodeId at = src;
  for (std::size_t hops = 0; at != dst; ++hops) {
    if (hops > t.nodes.size())
      throw std::logic_error(fmt::format("routing loop from host {} to host {}", src, dst));
    const PortIndex port = t.next_port(at, dst);
    out.push_back(first_link_[at] + port);
    at = t.nodes[at].ports[port].peer;
  }
}

std::vector<FlowLinkId> FlowNetwork::route(NodeId src, NodeId dst) const {
  std::vector<FlowLinkId> links;
  append_route(src, dst, links);
  return links;
}

double FlowNetwork::route_latency_s(NodeId src, NodeId dst) const {
  double total = 0;
  for (const FlowLinkId k : route(src, dst)) total += links_[k].latency_s;
  return total;
}

}  // namespace netwarp::validation
