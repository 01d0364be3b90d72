// FlowNetwork: the links of the flow-level model (docs/models/flow-mfs.md) and the routes
// flows take over them. Built from the packet network's own netmodels::Topology, it has one
// directed link per port, so a flow crosses exactly the ports a packet would: the sender's
// injection port, every switch output port on the static route, and the switch port toward the
// receiver (its ejection link). A link's bandwidth is its port's rate_bps / 8 bytes per second.
//
//   FlowNetwork net = FlowNetwork::from_topology(spec.topology, spec.nic.rate_bps);
//   std::vector<FlowLinkId> route = net.route(src_host, dst_host);
//
// A network can also be a bare list of links (hand-built models, tests): routes are then given
// by the caller as link ids.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "netwarp/netmodels/topology.hpp"

namespace netwarp::validation {

using FlowLinkId = std::uint32_t;

struct FlowLink {
  double bytes_per_second = 0;
  double latency_s = 0;  // propagation delay (MFS has none; used only by a start-up option)
  netmodels::NodeId node = netmodels::kNoNode;  // the port this link models, if any
  netmodels::PortIndex port = 0;
};

class FlowNetwork {
 public:
  // Free-standing links; route() is unavailable (routes are link lists from the caller).
  explicit FlowNetwork(std::vector<FlowLink> links);

  // One link per directed port of `topology`, which is copied (routing needs it later).
  // host_rate_bps != 0 replaces the rate of every host's injection port, as NicConfig::rate_bps
  // does in the packet network.
  static FlowNetwork from_topology(const netmodels::Topology& topology,
                                   std::uint64_t host_rate_bps = 0);

  std::size_t link_count() const { return links_.size(); }
  const FlowLink& link(FlowLinkId id) const { return links_[id]; }
  bool has_topology() const { return topology_.has_value(); }
  std::uint32_t host_count() const;  // 0 without a topology
  FlowLinkId link_of(netmodels::NodeId node, netmodels::PortIndex port) const;

  // The links a packet from host src to host dst crosses, in order (src != dst). Throws
  // std::invalid_argument without a topology or for hosts out of range.
  std::vector<FlowLinkId> route(netmodels::NodeId src, netmodels::NodeId dst) const;
  void append_route(netmodels::NodeId src, netmodels::NodeId dst,
                    std::vector<FlowLinkId>& out) const;
  // Sum of the propagation latencies on the route, in seconds.
  double route_latency_s(netmodels::NodeId src, netmodels::NodeId dst) const;

 private:
  void check_hosts(netmodels::NodeId src, netmodels::NodeId dst) const;

  std::vector<FlowLink> links_;
  std::optional<netmodels::Topology> topology_;
  std::vector<FlowLinkId> first_link_;  // first_link_[node] + port = link id
};

}  // namespace netwarp::validation
