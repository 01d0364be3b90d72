// The collective calls of every communicator's ranks, in order. MPI requires every rank of a
// communicator to make the same collective calls on it in the same order with the same root;
// CollectivePlan checks that before anything is built (a mismatch would otherwise deadlock the
// simulation), and serves the root's copy of a call whose per-rank lists only count at the
// root (gatherv, scatterv).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "comm_plan.hpp"
#include "netwarp/mpiemul/proto/trace.pb.h"
#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

bool is_collective(const proto::Action& action);            // blocking or not; not the creations
std::int32_t collective_root(const proto::Action& action);  // -1: the collective has no root

class CollectivePlan {
 public:
  // Throws TraceError, at `locations` when given (a .pbtxt trace).
  CollectivePlan(const proto::Trace& trace, const CommPlan& comms,
                 const TraceLocations* locations = nullptr);

  // The root's `index`-th collective call on `comm` (every member's index-th call there is the
  // same collective); the root is a rank of `comm`.
  const proto::Action& root_call(CommId comm, std::size_t index) const;

 private:
  using Calls = std::vector<std::pair<const proto::Action*, int>>;  // (action, action index)
  void check_rank(CommId comm, RankId comm_rank) const;

  const proto::Trace& trace_;
  const CommPlan& comms_;
  const TraceLocations* locations_;
  // calls_[c][i]: the collective actions of communicator c's rank i, with their indices.
  std::map<CommId, std::vector<Calls>> calls_;
};

}  // namespace netwarp::mpiemul
