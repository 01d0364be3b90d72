// Expands one rank's trace actions into its RankProgram: point-to-point actions one call each
// (waits resolved to request ids with PendingRequests), collectives through the collective
// algorithms, flops into time at the configured rate. Every action is checked first (peers,
// roots and tags in range, list lengths); problems throw TraceError at the action's site.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "action_site.hpp"
#include "collective_plan.hpp"
#include "comm_plan.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "netwarp/netmodels/time_budget.hpp"
#include "pending_requests.hpp"

namespace netwarp::mpiemul {

class RankExpander {
 public:
  RankExpander(const proto::Trace& trace, RankId rank, const CommPlan& comms,
               const CollectivePlan& plan, const TraceProgramOptions& options);
  RankProgram expand();

 private:
  void add(const proto::Action& action, const ActionSite& site);
  void add_on_comm(const proto::Action& action, int index, const ActionSite& site);
  void add_nonblocking(const proto::Action& action, const ActionSite& site);
  std::int32_t world_rank(std::int32_t comm_rank) const;
  void add_point_to_point(const proto::Action& action, const ActionSite& site);
  void add_send(const proto::Send& send, bool is_blocking, const ActionSite& site);
  void add_recv(const proto::Recv& recv, bool is_blocking, const ActionSite& site);
  void add_wait(const proto::Wait& wait, bool is_test, const ActionSite& site);
  void add_sendrecv(const proto::SendRecv& sendrecv, const ActionSite& site);
  void add_compute(double amount, bool is_flops, const ActionSite& site);
  void charge(netmodels::WorstCaseTime time, const ActionSite& site);
  void charge_ops(std::span<const Op> ops, const ActionSite& site);
  void check_send(const Op& send, const ActionSite& site);

  void add_collective(const proto::Action& action, const ActionSite& site);
  void add_rooted(const proto::Action& action, const ActionSite& site);
  void add_vector(const proto::Action& action, const ActionSite& site);
  void add_reduction_flops(double flops, const ActionSite& site);

  RankId checked_rank(std::int32_t value, std::string_view what, const ActionSite& site) const;
  std::int32_t checked_source(std::int32_t value, std::string_view what,
                              const ActionSite& site) const;
  std::int32_t checked_tag(std::int32_t value, bool allow_any, const ActionSite& site) const;
  std::span<const std::uint64_t> checked_list(
      const google::protobuf::RepeatedField<std::uint64_t>& list, std::string_view what,
      const ActionSite& site) const;

  const proto::Trace& trace_;
  RankId rank_;
  const CommPlan& comms_;
  const CollectivePlan& plan_;
  const TraceProgramOptions& options_;
  RankProgramBuilder builder_;
  PendingRequests pending_;
  CommId comm_ = kWorldComm;                        // the current action's communicator
  std::map<CommId, std::size_t> collective_index_;  // collective calls so far per communicator
  netmodels::WorstCaseTime busy_;  // the rank's compute, sleeps and message costs so far
};

}  // namespace netwarp::mpiemul
