// The communicators of a trace. A rank's k-th comm_split, comm_dup or comm_create action makes
// its communicator handle k (trace.proto); every creation is collective over its parent, so
// the ranks' creation actions are matched per parent communicator, in order, and run once all
// the parent's ranks have reached theirs. Mismatches (a rank that never makes the call, calls
// of different kinds, groups that differ, a handle used before it is made) throw TraceError
// at the action.
#pragma once

#include <cstdint>
#include <vector>

#include "action_site.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "netwarp/mpiemul/proto/trace.pb.h"

namespace netwarp::mpiemul {

bool is_comm_creation(const proto::Action& action);
// The communicator handle an action is made on (a creation: its parent); 0 when it has none.
std::uint32_t action_comm(const proto::Action& action);

class CommPlan {
 public:
  // Throws TraceError, at `locations` when given (a .pbtxt trace).
  explicit CommPlan(const proto::Trace& trace, const TraceLocations* locations = nullptr);

  // The communicator action `index` of `rank` is made on; fails at the action for a handle
  // that is not made yet or is MPI_COMM_NULL on this rank.
  CommId comm_of(RankId rank, int index) const;
  const Communicator& operator[](CommId id) const { return comms_[id]; }
  std::vector<Communicator> take_communicators() { return comms_.take(); }

 private:
  struct Made {
    int action = 0;         // the creation action
    CommId comm = kNoComm;  // kNoComm: MPI_COMM_NULL on this rank
  };
  struct Waiting {
    RankId rank;
    int action;
  };
  CommId resolve(RankId rank, std::uint32_t handle, int index) const;
  void run_creation(CommId parent, const std::vector<Waiting>& group);
  void run_split(CommId parent, const std::vector<Waiting>& group);
  void run_create(CommId parent, const std::vector<Waiting>& group);

  const proto::Trace& trace_;
  const TraceLocations* locations_;
  Communicators comms_;
  std::vector<std::vector<Made>> made_;  // [rank][handle - 1]
};

}  // namespace netwarp::mpiemul
