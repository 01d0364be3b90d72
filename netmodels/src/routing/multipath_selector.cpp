// MultipathSelector: ECMP, spraying (random, round robin) and flowlet switching at one switch.
#include "routing/multipath_selector.hpp"

namespace netwarp::netmodels {

MultipathSelector::MultipathSelector(const Topology& topology, NodeId self)
    : router_(multipath_of(*topology.router)),
      self_(self),
      turn_(router_ != nullptr && router_->spec().mode == MultipathMode::spray_round_robin
                ? topology.nodes[self].ports.size()
                : 0,
            0) {}

PortIndex MultipathSelector::choose(NodeId dst_host, std::uint64_t flow_key,
                                    std::uint64_t packet_key, engine::EventCtx& ctx) {
  const EqualCostRouter& paths = router_->paths();
  const std::uint32_t count = paths.path_count(self_, dst_host);
  if (count == 1) return paths.path_port(self_, dst_host, 0);
  switch (router_->spec().mode) {
    case MultipathMode::spray_random:
      return paths.path_port(
          self_, dst_host,
          static_cast<std::uint32_t>(multipath_hash(router_->spec(), self_, packet_key) % count));
    case MultipathMode::spray_round_robin:
      return next_in_turn(dst_host, count, ctx);
    case MultipathMode::flowlet:
      return flowlet_port(dst_host, count, flow_key, ctx);
    case MultipathMode::ecmp:
      break;
  }
  return ecmp_port(*router_, self_, dst_host, flow_key);
}

PortIndex MultipathSelector::next_in_turn(NodeId dst_host, std::uint32_t count,
                                          engine::EventCtx& ctx) {
  const PortIndex first = router_->paths().path_port(self_, dst_host, 0);
  const std::uint32_t path = turn_[first] % count;
  ctx.set(turn_, first, (path + 1) % count);
  return router_->paths().path_port(self_, dst_host, path);
}

// A flow idle for flowlet_gap or longer may change paths without reordering (its earlier
// packets have drained): it hashes again, salted by the time its new flowlet starts.
PortIndex MultipathSelector::flowlet_port(NodeId dst_host, std::uint32_t count,
                                          std::uint64_t flow_key, engine::EventCtx& ctx) {
  const std::int64_t now = ctx.now().ps();
  const Flowlet* seen = flowlets_.find(flow_key);
  std::uint32_t path = 0;
  const MultipathSpec& spec = router_->spec();
  if (seen != nullptr && now - seen->last_ps < spec.flowlet_gap.ps()) {
    path = seen->path;
  } else {
    const std::uint64_t key = flow_key ^ route_key_mix(static_cast<std::uint64_t>(now));
    path = static_cast<std::uint32_t>(multipath_hash(spec, self_, key) % count);
  }
  ctx.put(flowlets_, flow_key, Flowlet{now, path, 0});
  return router_->paths().path_port(self_, dst_host, path);
}

void MultipathSelector::visit_bytes(engine::StateVisitor& v) const {
  turn_.visit_bytes(v);
  flowlets_.visit_bytes(v);
}

}  // namespace netwarp::netmodels
