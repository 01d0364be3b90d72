// Multipath routing: switches choose among the equal-cost next hops of their topology's family
// (EqualCostRouter: tree, leaf-spine, fat tree, explicit graphs' shortest paths) by ECMP (a
// hash per flow), spraying (per packet: a hash, or round robin) or flowlets. A topology gets it
// by wrapping its router: topology.router = with_multipath(topology.router, spec). The switch
// makes the choice (routing/multipath_selector.hpp) and keeps the state round robin and
// flowlets need as reversible LP state, so every kernel and rank count routes alike.
//
//   topology.router = with_multipath(topology.router, MultipathSpec{MultipathMode::ecmp, 7});
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "netwarp/netmodels/router.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {

enum class MultipathMode : std::uint8_t {
  ecmp,               // per flow: a hash of the connection's key picks the next hop at each switch
  spray_random,       // per packet: a hash of the packet's headers (no state)
  spray_round_robin,  // per packet: each equal-cost group of a switch takes its ports in turn
  flowlet,            // per flowlet: a new hash once the flow was idle >= flowlet_gap at the switch
};

struct MultipathSpec {
  MultipathMode mode = MultipathMode::ecmp;
  std::uint64_t seed = 1;                // salts every hash
  SimTime flowlet_gap = engine::us(50);  // flowlet only, > 0
};

// The route key of a transport connection (`connection`: its first message's id + 1, or 0
// without a packet workload) in the direction src -> dst: what ECMP hashes.
constexpr std::uint64_t connection_route_key(NodeId src, NodeId dst, std::uint64_t connection) {
  return route_key_mix((std::uint64_t{src} << 32 | dst) ^ route_key_mix(connection));
}

// A router whose family has several next hops of equal cost: path_count() of them toward
// `dst_host` at `switch_node` (every one on a shortest path), port i given by path_port();
// next_port() is one of them.
class EqualCostRouter {
 public:
  virtual std::uint32_t path_count(NodeId switch_node, NodeId dst_host) const = 0;
  virtual PortIndex path_port(NodeId switch_node, NodeId dst_host, std::uint32_t i) const = 0;

 protected:
  ~EqualCostRouter() = default;
};

// A topology's router with multipath switching on: static routes, checks and equal-cost groups
// are the base router's; switches choose per `spec`.
class MultipathRouter final : public Router {
 public:
  MultipathRouter(std::shared_ptr<const Router> base, const EqualCostRouter& paths,
                  const MultipathSpec& spec)
      : base_(std::move(base)), paths_(paths), spec_(spec) {}
  PortIndex next_port(NodeId switch_node, NodeId dst_host) const override {
    return base_->next_port(switch_node, dst_host);
  }
  void check(const Topology& topology) const override { base_->check(topology); }
  const EqualCostRouter& paths() const { return paths_; }
  const MultipathSpec& spec() const { return spec_; }

 private:
  std::shared_ptr<const Router> base_;
  const EqualCostRouter& paths_;  // base_ itself
  MultipathSpec spec_;
};

// `base` wrapped for multipath switching; throws std::logic_error when its family has no
// equal-cost groups or already chooses per packet itself (fat tree ECMP, Valiant, UGAL).
std::shared_ptr<const Router> with_multipath(std::shared_ptr<const Router> base,
                                             const MultipathSpec& spec);
// The multipath router of a topology, or null.
const MultipathRouter* multipath_of(const Router& router);

// The hash a switch gives `key` (each switch salts its own, so the choices at successive
// switches are independent), and the next hop ECMP picks with it at `switch_node` toward
// `dst_host`; `netwarp topology --route` shows both.
std::uint64_t multipath_hash(const MultipathSpec& spec, NodeId switch_node, std::uint64_t key);
PortIndex ecmp_port(const MultipathRouter& router, NodeId switch_node, NodeId dst_host,
                    std::uint64_t flow_key);

}  // namespace netwarp::netmodels
