// The collective calls of every rank, in order. MPI requires every rank to make the same
// collective calls in the same order with the same root; CollectivePlan checks that before
// anything is built (a mismatch would otherwise deadlock the simulation), and serves the
// root's copy of a call whose per-rank lists only count at the root (gatherv, scatterv).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "netwarp/mpiemul/proto/trace.pb.h"
#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

bool is_collective(const proto::Action& action);
std::int32_t collective_root(const proto::Action& action);  // -1: the collective has no root

class CollectivePlan {
 public:
  // Throws TraceError, at `locations` when given (a .pbtxt trace).
  explicit CollectivePlan(const proto::Trace& trace, const TraceLocations* locations = nullptr);

  // The root's `index`-th collective call (every rank's index-th call is the same collective).
  const proto::Action& root_call(std::size_t index) const;

 private:
  void check_rank(const proto::Trace& trace, std::uint32_t rank) const;

  const TraceLocations* locations_;
  // calls_[r]: rank r's collective actions with their action indices.
  std::vector<std::vector<std::pair<const proto::Action*, int>>> calls_;
};

}  // namespace netwarp::mpiemul
