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
#include <utility>
#include <vector>

namespace netwarp::netmodels {

using NodeId = std::uint32_t;
using PortIndex = std::uint16_t;
inline constexpr NodeId kNoNode = ~NodeId{0};

struct Topology;

class Router {
 public:
  virtual ~Router() = default;
  // The output port at switch `switch_node` toward host `dst_host`, both nodes of the topology
  // this router was made for.
  virtual PortIndex next_port(NodeId switch_node, NodeId dst_host) const = 0;
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
