// NetworkModel: a packet-network run as an engine model. One LP per host (NIC, transport, its
// messages) and one per switch; LP id = node id. LPs of one locality group (a switch and its
// hosts) go to the same rank, groups in contiguous blocks; with fewer groups than ranks, LPs
// go in contiguous blocks of ids.
#pragma once

#include <functional>
#include <memory>

#include "netwarp/engine/model.hpp"
#include "netwarp/netmodels/network_spec.hpp"

namespace netwarp::netmodels {

class NetworkContext;

class NetworkModel final : public engine::Model {
 public:
  // Makes the LP of a host when something other than the workload host runs there (MPI).
  using HostFactory =
      std::function<std::unique_ptr<engine::LpBase>(NodeId host, const NetworkContext& net)>;
  // Checks the topology's invariants (std::logic_error if broken); keeps `spec` by value.
  explicit NetworkModel(NetworkSpec spec, HostFactory host_factory = {});
  ~NetworkModel() override;

  engine::LpId lp_count() const override;
  std::unique_ptr<engine::LpBase> create_lp(engine::LpId id) const override;
  int rank_of(engine::LpId id, int ranks) const override;
  // The smallest link latency: a packet arrives, and a credit returns, no sooner (zero when a
  // link has none).
  engine::SimTime lookahead() const override { return lookahead_; }
  const NetworkSpec& spec() const { return spec_; }

 private:
  NetworkSpec spec_;
  std::unique_ptr<NetworkContext> context_;
  HostFactory host_factory_;
  std::uint32_t group_count_ = 1;
  engine::SimTime lookahead_ = engine::SimTime::max();
};

}  // namespace netwarp::netmodels
