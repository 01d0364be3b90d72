// ComputedRouter: a topology family's routing rule over the cabling its builder lays out. The
// rule computes a port from coordinates (no table); check() proves it applies to a topology by
// comparing every switch port with the family's layout, in O(nodes + links): given that
// layout, each family's rule reaches every host without a loop (the argument is in each
// router's file, and tests/netmodels/routing_test.cpp compares every route with the tables the
// builders used to fill).
#pragma once

#include <cstddef>
#include <cstdint>

#include "netwarp/netmodels/router.hpp"

namespace netwarp::netmodels {

class ComputedRouter : public Router {
 public:
  void check(const Topology& topology) const final;

 protected:
  ComputedRouter(std::uint32_t hosts, std::uint32_t switches)
      : hosts_(hosts), switches_(switches) {}
  std::uint32_t hosts() const { return hosts_; }
  // Ports switch `switch_node` has in the family's layout.
  virtual std::size_t port_count(NodeId switch_node) const = 0;
  // The node port `port` (< port_count) of `switch_node` leads to in the family's layout.
  virtual NodeId peer(NodeId switch_node, PortIndex port) const = 0;

 private:
  std::uint32_t hosts_;
  std::uint32_t switches_;
};

}  // namespace netwarp::netmodels
