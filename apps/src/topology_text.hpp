// What `netwarp topology` prints about a built topology: a table of every port (node, port,
// peer and the peer's port, link level, rate, latency) or, for a large topology, a summary per
// switch kind and link level; the route between two hosts hop by hop, asked of the topology's
// Router exactly as a switch forwards a packet; and the whole graph in Graphviz DOT.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/multipath.hpp"
#include "netwarp/netmodels/topology.hpp"

namespace netwarp::apps {

// One link a packet crosses: from `from` on its port `out_port` to `to`, arriving on `in_port`.
struct RouteHop {
  netmodels::NodeId from = 0;
  netmodels::PortIndex out_port = 0;
  netmodels::NodeId to = 0;
  netmodels::PortIndex in_port = 0;
};

// Up to this many ports, the listing shows them all unless asked otherwise.
inline constexpr std::size_t kFullListingPorts = 256;

// "1 Gbit/s", "2.5 Gbit/s", "100 Mbit/s", "64 bit/s".
std::string rate_text(std::uint64_t rate_bps);
// "1 us", "500 ns", "1.25 us", "2 ms".
std::string latency_text(netmodels::SimTime latency);

// "tree: 4 hosts, 3 switches, 14 ports", then per link level its cables, rates and latencies.
std::string topology_summary(const netmodels::Topology& topology);
// One row per port, hosts and switches in node order, under a header line.
std::string port_table(const netmodels::Topology& topology);
// Summary, then the port table (all ports, or only the switches' first ports when large and
// `all` is false, with a line saying how to see the rest).
std::string topology_listing(const netmodels::Topology& topology, bool all);

// A connection's route key (what ECMP hashes: netmodels::connection_route_key) and what it is,
// for a person ("message 3's connection").
struct FlowKey {
  std::uint64_t key = 0;
  std::string about;
};

// The links a packet from host `src` to host `dst` crosses, in order (none when src == dst):
// the static route, or with `flow` the path ECMP (topology.multipath or a fat tree's own)
// gives that connection.
std::vector<RouteHop> route(const netmodels::Topology& topology, netmodels::NodeId src,
                            netmodels::NodeId dst, const FlowKey* flow = nullptr);
// "route host0 -> host3: 4 links" and one line per hop; with `flow`, the flow key and at each
// switch with equal-cost next hops their count and (ECMP) the hash that chose.
std::string route_text(const netmodels::Topology& topology, netmodels::NodeId src,
                       netmodels::NodeId dst, const FlowKey* flow = nullptr);

// An undirected graph: hosts as ellipses, switches as boxes, one edge per cable labelled with
// its rate and latency, the port numbers at each end (tail and head labels).
std::string topology_dot(const netmodels::Topology& topology);

}  // namespace netwarp::apps
