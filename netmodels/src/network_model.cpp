// NetworkModel: builds host and switch LPs and places them on ranks by locality group.
#include "netwarp/netmodels/network_model.hpp"

#include <algorithm>
#include <iterator>

#include "netwarp/netmodels/host_lp.hpp"
#include "netwarp/netmodels/network_context.hpp"
#include "placement/load_placement.hpp"
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
  const std::uint32_t group = spec_.topology.nodes[id].group;
  if (group_count_ < static_cast<std::uint32_t>(ranks)) {
    if (spec_.few_groups == FewGroupsPlacement::spread)
      return engine::block_rank(id, lp_count(), ranks);
    return static_cast<int>(group);
  }
  return placement(ranks).rank_of_group[group];
}

const NetworkModel::Placement& NetworkModel::placement(int ranks) const {
  const Placement* last = last_placement_.load(std::memory_order_acquire);
  if (last != nullptr && last->ranks == ranks) return *last;
  const std::lock_guard<std::mutex> lock(placement_mutex_);
  auto found = std::find_if(placements_.begin(), placements_.end(),
                            [&](const Placement& p) { return p.ranks == ranks; });
  if (found == placements_.end()) {
    if (group_load_.empty())
      group_load_ = expected_group_load(spec_.topology, group_count_, spec_.format.max_payload(),
                                        spec_.workload.messages, extra_traffic_);
    placements_.push_back(Placement{ranks, split_groups(group_load_, ranks)});
    found = std::prev(placements_.end());
  }
  last_placement_.store(&*found, std::memory_order_release);
  return *found;
}

}  // namespace netwarp::netmodels
