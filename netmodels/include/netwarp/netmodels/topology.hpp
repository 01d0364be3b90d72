// Topology: hosts, switches, the directed ports between them and the router that computes static
// routes. Built by pure functions (topology_builders.hpp), sealed before a run, and turned into
// LPs by NetworkModel.
//
// Node ids are dense: hosts are [0, host_count), switches follow. Every host has exactly one
// port (port 0) to its first switch. Each port is one direction of a cable: the peer's port
// `peer_port` is the way back. Routing is destination-based: at a switch, the output port for
// a packet is next_port(switch, destination host), asked of the topology's Router (router.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "netwarp/netmodels/router.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {

// One direction of a cable, as seen from the node that sends on it.
// 24 bytes: the small fields share the first word (a million-host torus has 8 million ports in
// the topology and again in the LPs' output ports).
struct Port {
  NodeId peer = kNoNode;
  PortIndex peer_port = 0;
  std::uint8_t level = 0;  // link level: 0 host links, 1.. switch-to-switch (per topology)
  // Virtual-channel step: a packet crossing this link moves up this many virtual channels
  // (torus wrap-around links and dragonfly global links: 1). With credit flow control each
  // virtual channel has its own buffer, which breaks the cyclic buffer dependencies that would
  // deadlock a torus ring (dateline) or a dragonfly.
  std::uint8_t vc_step = 0;
  std::uint64_t rate_bps = 0;
  SimTime latency;  // propagation delay
};
static_assert(sizeof(Port) == 24);

struct Node {
  std::vector<Port> ports;
  // Locality group (a switch and its hosts share one; torus: a block of routers): LPs of one
  // group go to the same rank.
  std::uint32_t group = 0;
  std::string name;  // "host3", "edge1.2", "r3.4": for outputs a person reads
};

struct Topology {
  std::string kind;  // "star", "tree", "fat_tree", "torus", "mesh", "dragonfly"
  std::uint32_t host_count = 0;
  std::vector<Node> nodes;  // host_count hosts, then the switches
  // Computes every switch's output port toward a host; shared by copies (it never changes).
  std::shared_ptr<const Router> router;

  std::uint32_t switch_count() const {
    return static_cast<std::uint32_t>(nodes.size()) - host_count;
  }
  bool is_host(NodeId n) const { return n < host_count; }
  PortIndex next_port(NodeId at, NodeId dst_host) const {
    return is_host(at) ? PortIndex{0} : router->next_port(at, dst_host);
  }
  // The nodes a packet visits from src to dst (both hosts), both included.
  std::vector<NodeId> path(NodeId src_host, NodeId dst_host) const;
  // fn(node, port) for each link a packet takes from src to dst (both hosts), in order, where
  // `port` (of `node`) is the link; std::logic_error on a routing loop. Allocates nothing.
  template <class Fn>
  void for_each_link(NodeId src_host, NodeId dst_host, Fn&& fn) const {
    NodeId at = src_host;
    for (std::size_t hops = 0; at != dst_host; ++hops) {
      if (hops >= nodes.size()) throw_routing_loop(src_host, dst_host);
      const Port& link = nodes[at].ports[next_port(at, dst_host)];
      fn(at, link);
      at = link.peer;
    }
  }

 private:
  [[noreturn]] void throw_routing_loop(NodeId src_host, NodeId dst_host) const;
};

// Link rate and latency for one link level; topology builders take one per level in use.
struct LinkSpec {
  std::uint64_t rate_bps = gbps(1);
  SimTime latency = engine::us(1);
};

// Link defaults with per-level overrides: level 0 = host links, then upward.
struct LinkLevels {
  LinkSpec defaults;
  std::vector<std::pair<std::uint8_t, LinkSpec>> overrides;
  LinkSpec at(std::uint8_t level) const {
    for (const auto& [l, spec] : overrides)
      if (l == level) return spec;
    return defaults;
  }
};

// Checks the invariants every builder must keep (ports paired, hosts on one switch each, routes
// that reach every host from every switch without a loop); throws std::logic_error naming the
// first broken one. Costs O(nodes + links) for the built-in families (explicit route tables:
// O(switches x hosts)). Used by tests and by NetworkModel.
void check_topology(const Topology& topology);

}  // namespace netwarp::netmodels
