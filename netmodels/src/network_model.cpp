// NetworkModel: builds host and switch LPs and places them on ranks by locality group.
#include "netwarp/netmodels/network_model.hpp"

#include <algorithm>

#include "netwarp/netmodels/host_lp.hpp"
#include "netwarp/netmodels/network_context.hpp"
#include "switch/switch_lp.hpp"

namespace netwarp::netmodels {

NetworkModel::NetworkModel(NetworkSpec spec, HostFactory host_factory)
    : spec_(std::move(spec)), host_factory_(std::move(host_factory)) {
  check_topology(spec_.topology);
  context_ = std::make_unique<NetworkContext>(spec_);
  for (const Node& n : spec_.topology.nodes) {
    group_count_ = std::max(group_count_, n.group + 1);
    for (const auto& port : n.ports) lookahead_ = std::min(lookahead_, port.latency);
  }
  if (lookahead_.is_max()) lookahead_ = engine::SimTime::zero();  // no link at all
}

NetworkModel::~NetworkModel() = default;

engine::LpId NetworkModel::lp_count() const {
  return static_cast<engine::LpId>(spec_.topology.nodes.size());
}

std::unique_ptr<engine::LpBase> NetworkModel::create_lp(engine::LpId id) const {
  if (spec_.topology.is_host(id)) {
    if (host_factory_) return host_factory_(id, *context_);
    return engine::make_lp<HostLp>(id, *context_);
  }
  return engine::make_lp<SwitchLp>(id, *context_);
}

// Fewer groups than ranks (a single switch): a group per rank, or contiguous blocks of LPs so
// every rank has work (NetworkSpec::few_groups).
int NetworkModel::rank_of(engine::LpId id, int ranks) const {
  const std::uint64_t group = spec_.topology.nodes[id].group;
  if (group_count_ < static_cast<std::uint32_t>(ranks)) {
    if (spec_.few_groups == FewGroupsPlacement::spread)
      return engine::block_rank(id, lp_count(), ranks);
    return static_cast<int>(group);
  }
  return static_cast<int>(group * static_cast<std::uint64_t>(ranks) / group_count_);
}

}  // namespace netwarp::netmodels
