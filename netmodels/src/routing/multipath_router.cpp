// with_multipath and the ECMP hash: the wrapper that turns multipath switching on for a
// topology whose family has equal-cost next hops (netwarp/netmodels/multipath.hpp).
#include <stdexcept>

#include "netwarp/netmodels/multipath.hpp"

namespace netwarp::netmodels {

std::shared_ptr<const Router> with_multipath(std::shared_ptr<const Router> base,
                                             const MultipathSpec& spec) {
  const auto* paths = dynamic_cast<const EqualCostRouter*>(base.get());
  if (paths == nullptr || base->per_packet())
    throw std::logic_error(
        "with_multipath: the router has no equal-cost groups or chooses per packet itself");
  return std::make_shared<MultipathRouter>(std::move(base), *paths, spec);
}

const MultipathRouter* multipath_of(const Router& router) {
  return dynamic_cast<const MultipathRouter*>(&router);
}

std::uint64_t multipath_hash(const MultipathSpec& spec, NodeId switch_node, std::uint64_t key) {
  return route_key_mix(key ^ route_key_mix(spec.seed) ^ route_key_mix(~std::uint64_t{switch_node}));
}

PortIndex ecmp_port(const MultipathRouter& router, NodeId switch_node, NodeId dst_host,
                    std::uint64_t flow_key) {
  const std::uint32_t count = router.paths().path_count(switch_node, dst_host);
  const std::uint64_t hash = multipath_hash(router.spec(), switch_node, flow_key);
  return router.paths().path_port(switch_node, dst_host, static_cast<std::uint32_t>(hash % count));
}

}  // namespace netwarp::netmodels
