// NetworkModel: a packet-network run as an engine model. One LP per host (NIC, transport, its
// messages) and one per switch; LP id = node id. LPs of one locality group (a switch and its
// hosts) go to the same rank, groups in contiguous runs balanced by the load the run is expected
// to carry (placement/load_placement.hpp); with fewer groups than ranks, LPs go in contiguous
// blocks of ids.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "netwarp/engine/model.hpp"
#include "netwarp/netmodels/network_spec.hpp"

namespace netwarp::netmodels {

class NetworkContext;

// A stream of bytes from one host to another that the run is expected to carry beside the
// workload's messages (what an MPI job sends), for placing LPs by load.
struct ExpectedTraffic {
  NodeId src = 0;
  NodeId dst = 0;
  std::uint64_t bytes = 0;
};

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
  // Traffic beside the workload's messages that placement should weigh; before any rank_of.
  void expect_traffic(std::vector<ExpectedTraffic> traffic) { extra_traffic_ = std::move(traffic); }

 private:
  struct Placement {
    int ranks = 0;
    std::vector<int> rank_of_group;
  };
  // Computed on first use per rank count (the partitions of --threads ask at once).
  const Placement& placement(int ranks) const;

  NetworkSpec spec_;
  std::unique_ptr<NetworkContext> context_;
  HostFactory host_factory_;
  std::uint32_t group_count_ = 1;
  engine::SimTime lookahead_ = engine::SimTime::max();
  std::vector<ExpectedTraffic> extra_traffic_;
  mutable std::mutex placement_mutex_;
  mutable std::vector<std::uint64_t> group_load_;
  mutable std::deque<Placement> placements_;
  mutable std::atomic<const Placement*> last_placement_{nullptr};
};

}  // namespace netwarp::netmodels
