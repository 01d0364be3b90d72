// StarRouter: one switch, host h on its port h (star.cpp). The port toward host h is port h,
// one hop from the only switch: no loop possible.
#pragma once

#include "routing/computed_router.hpp"

namespace netwarp::netmodels {

class StarRouter final : public ComputedRouter {
 public:
  explicit StarRouter(std::uint32_t hosts) : ComputedRouter(hosts, 1) {}
  PortIndex next_port(NodeId, NodeId dst_host) const override {
    return static_cast<PortIndex>(dst_host);
  }

 private:
  std::size_t port_count(NodeId) const override { return hosts(); }
  NodeId peer(NodeId, PortIndex port) const override { return port; }
};

}  // namespace netwarp::netmodels
