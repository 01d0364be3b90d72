// Router: the routing function of one topology, asked by a switch for the output port toward a
// destination host each time it forwards a packet. Each built-in family (star, tree, fat tree,
// torus/mesh, dragonfly) computes the port from the switch's and the host's coordinates in
// O(1) or O(dimensions), with no per-(switch, host) state; TableRouter holds an explicit
// switches x hosts table, for hand-made topologies only.
//
//   topology.router = std::make_shared<TableRouter>(host_count, std::move(table));
//   PortIndex out = topology.next_port(switch_node, dst_host);
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "netwarp/engine/splitmix.hpp"

namespace netwarp::netmodels {

using NodeId = std::uint32_t;
using PortIndex = std::uint16_t;
inline constexpr NodeId kNoNode = ~NodeId{0};

struct Topology;

// SplitMix64's first draw from x: spreads route keys over all bits before a modulo picks a path.
constexpr std::uint64_t route_key_mix(std::uint64_t x) {
  return engine::splitmix64_draw(x, 0);
}

// What a switch knows of a packet when a multipath or adaptive router chooses its port.
struct RouteQuery {
  NodeId src_host = 0;
  NodeId dst_host = 0;
  PortIndex in_port = 0;         // the switch port the packet arrived on
  std::uint64_t flow_key = 0;    // equal for every packet of one transport connection and direction
  std::uint64_t packet_key = 0;  // differs between packets (Valiant's random intermediate)
  bool nonminimal = false;       // an earlier switch sent the packet on a non-minimal path
};

// The deciding switch's output queues, for adaptive routing: how long a packet offered to
// `port` now would wait before its first bit goes on the wire (0 when the line is idle).
class PortLoad {
 public:
  virtual std::int64_t backlog_ps(PortIndex port) const = 0;

 protected:
  ~PortLoad() = default;
};

struct RouteChoice {
  PortIndex port = 0;
  bool nonminimal = false;  // carried on by the packet (packet_flags::nonminimal)
};

class Router {
 public:
  virtual ~Router() = default;
  // The output port at switch `switch_node` toward host `dst_host`, both nodes of the topology
  // this router was made for. For multipath and adaptive routers: the static (minimal,
  // single-path) route, which outputs and the flow model use as "the" path.
  virtual PortIndex next_port(NodeId switch_node, NodeId dst_host) const = 0;
  // True when switches must ask choose() per packet (ECMP, Valiant, UGAL).
  virtual bool per_packet() const { return false; }
  // The port for one packet. Deterministic in its arguments, so every kernel and rank count
  // routes alike; `load` is model state at the deciding switch (rolled back with it).
  virtual RouteChoice choose(NodeId switch_node, const RouteQuery& query,
                             const PortLoad& load) const {
    (void)load;
    return {next_port(switch_node, query.dst_host), query.nonminimal};
  }
  // How many links the static route takes from switch `switch_node` to host `dst_host`, the
  // last one into the host included, where the family's rule counts them without walking the
  // route (torus, mesh, fat tree); none otherwise. The ideal times of a million flows over
  // uniform links use it instead of a walk of every path (ideal_fct.hpp).
  virtual std::optional<std::uint32_t> links_to(NodeId switch_node, NodeId dst_host) const {
    (void)switch_node;
    (void)dst_host;
    return std::nullopt;
  }
  // Throws std::logic_error unless this router's rule delivers every packet in `topology` to
  // its destination host without a loop. check_topology calls it once the ports were found
  // paired and every host cabled to one switch.
  virtual void check(const Topology& topology) const = 0;
};

// Explicit routes: table[s][h] is the output port of switch host_count + s toward host h.
// check() walks the routes toward every host: O(switches x hosts), fine for small hand-made
// networks only.
class TableRouter final : public Router {
 public:
  TableRouter(std::uint32_t host_count, std::vector<std::vector<PortIndex>> table)
      : host_count_(host_count), table_(std::move(table)) {}
  PortIndex next_port(NodeId switch_node, NodeId dst_host) const override {
    return table_[switch_node - host_count_][dst_host];
  }
  void check(const Topology& topology) const override;

 private:
  std::uint32_t host_count_;
  std::vector<std::vector<PortIndex>> table_;
};

}  // namespace netwarp::netmodels
