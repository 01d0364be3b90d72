// MultipathSelector: one switch's choice among the equal-cost next hops its topology's
// MultipathRouter offers (EqualCostRouter::path_count / path_port), by the router's mode. ECMP and
// random spraying hash keys every kernel computes alike; round robin and flowlets keep per-switch
// state as reversible fields (a counter per equal-cost group, a flowlet table per flow), so a
// rolled-back packet takes back its turn.
#pragma once

#include <cstdint>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/rev_hash_map.hpp"
#include "netwarp/engine/rev_vector.hpp"
#include "netwarp/netmodels/multipath.hpp"
#include "netwarp/netmodels/topology.hpp"

namespace netwarp::netmodels {

class MultipathSelector {
 public:
  MultipathSelector(const Topology& topology, NodeId self);
  bool is_active() const { return router_ != nullptr; }
  // The output port for a packet toward `dst_host`; `flow_key` is equal for every packet of a
  // connection and direction, `packet_key` differs between its packets.
  PortIndex choose(NodeId dst_host, std::uint64_t flow_key, std::uint64_t packet_key,
                   engine::EventCtx& ctx);
  void visit_bytes(engine::StateVisitor& v) const;

 private:
  struct Flowlet {
    std::int64_t last_ps = 0;  // the flow's latest packet at this switch
    std::uint32_t path = 0;    // its flowlet's path index in the equal-cost group
    std::uint32_t reserved = 0;
  };
  PortIndex next_in_turn(NodeId dst_host, std::uint32_t count, engine::EventCtx& ctx);
  PortIndex flowlet_port(NodeId dst_host, std::uint32_t count, std::uint64_t flow_key,
                         engine::EventCtx& ctx);

  const MultipathRouter* const router_;  // null: no multipath switching
  const NodeId self_;
  // Round robin: the next path of each equal-cost group, indexed by the group's first port.
  engine::RevVector<std::uint32_t> turn_;
  engine::RevHashMap<std::uint64_t, Flowlet> flowlets_;  // flowlet: by flow key
};

}  // namespace netwarp::netmodels
