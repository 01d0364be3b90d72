// CommPlan: runs the trace's communicator creations in an order every rank agrees with.
#include "comm_plan.hpp"

#include <fmt/format.h>

#include <map>
#include <stdexcept>

namespace netwarp::mpiemul {

namespace {
using Kind = proto::Action::KindCase;
}  // namespace

bool is_comm_creation(const proto::Action& action) {
  const auto k = action.kind_case();
  return k == Kind::kCommSplit || k == Kind::kCommDup || k == Kind::kCommCreate;
}

std::uint32_t action_comm(const proto::Action& a) {
  switch (a.kind_case()) {
    case Kind::kSend:
      return a.send().comm();
    case Kind::kIsend:
      return a.isend().comm();
    case Kind::kRecv:
      return a.recv().comm();
    case Kind::kIrecv:
      return a.irecv().comm();
    case Kind::kSendrecv:
      return a.sendrecv().comm();
    case Kind::kBarrier:
      return a.barrier().comm();
    case Kind::kIbarrier:
      return a.ibarrier().comm();
    case Kind::kBcast:
      return a.bcast().comm();
    case Kind::kIbcast:
      return a.ibcast().comm();
    case Kind::kReduce:
      return a.reduce().comm();
    case Kind::kAllreduce:
      return a.allreduce().comm();
    case Kind::kIallreduce:
      return a.iallreduce().comm();
    case Kind::kAlltoall:
      return a.alltoall().comm();
    case Kind::kIalltoall:
      return a.ialltoall().comm();
    case Kind::kAlltoallv:
      return a.alltoallv().comm();
    case Kind::kGather:
      return a.gather().comm();
    case Kind::kScatter:
      return a.scatter().comm();
    case Kind::kAllgather:
      return a.allgather().comm();
    case Kind::kGatherv:
      return a.gatherv().comm();
    case Kind::kScatterv:
      return a.scatterv().comm();
    case Kind::kAllgatherv:
      return a.allgatherv().comm();
    case Kind::kReduceScatter:
      return a.reduce_scatter().comm();
    case Kind::kCommSplit:
      return a.comm_split().parent();
    case Kind::kCommDup:
      return a.comm_dup().parent();
    case Kind::kCommCreate:
      return a.comm_create().parent();
    default:
      return 0;
  }
}

CommPlan::CommPlan(const proto::Trace& trace, const TraceLocations* locations)
    : trace_(trace),
      locations_(locations),
      comms_(static_cast<RankId>(trace.ranks_size())),
      made_(trace.ranks_size()) {
  const auto size = static_cast<RankId>(trace.ranks_size());
  std::vector<std::vector<int>> creations(size);
  for (RankId r = 0; r < size; ++r) {
    const auto& actions = trace.ranks(static_cast<int>(r)).actions();
    for (int i = 0; i < actions.size(); ++i)
      if (is_comm_creation(actions[i])) creations[r].push_back(i);
  }
  // Each rank stops at its next creation until every rank of the parent is there; the
  // creations on one parent are numbered per rank, so (parent, number) names one call.
  std::vector<std::size_t> next(size, 0);
  std::vector<std::map<CommId, std::uint32_t>> per_parent(size);
  std::map<std::pair<CommId, std::uint32_t>, std::vector<Waiting>> waiting;
  std::vector<bool> is_waiting(size, false);
  for (bool progress = true; progress;) {
    progress = false;
    for (RankId r = 0; r < size; ++r) {
      if (is_waiting[r] || next[r] == creations[r].size()) continue;
      const int index = creations[r][next[r]];
      const CommId parent = comm_of(r, index);
      const auto key = std::make_pair(parent, per_parent[r][parent]++);
      auto& group = waiting[key];
      group.push_back({r, index});
      is_waiting[r] = true;
      progress = true;
      if (group.size() < comms_[parent].size()) continue;
      run_creation(parent, group);
      for (const Waiting& w : group) {
        is_waiting[w.rank] = false;
        ++next[w.rank];
      }
      waiting.erase(key);
    }
  }
  for (const auto& [key, group] : waiting) {
    const Communicator& parent = comms_[key.first];
    RankId missing = 0;
    for (RankId m : parent.members)
      if (std::none_of(group.begin(), group.end(), [&](const Waiting& w) { return w.rank == m; })) {
        missing = m;
        break;
      }
    ActionSite(trace, group.front().rank, group.front().action, locations)
        .fail_action(fmt::format(
            "creation {} on communicator {} ({}) is never made by rank {}: every rank of the "
            "parent communicator must make the same creations in the same order",
            key.second + 1, key.first, parent.origin, missing));
  }
}

CommId CommPlan::comm_of(RankId rank, int index) const {
  const proto::Action& action = trace_.ranks(static_cast<int>(rank)).actions(index);
  return resolve(rank, action_comm(action), index);
}

CommId CommPlan::resolve(RankId rank, std::uint32_t handle, int index) const {
  if (handle == 0) return kWorldComm;
  const auto& mine = made_[rank];
  if (handle > mine.size() || mine[handle - 1].action >= index)
    ActionSite(trace_, rank, index, locations_)
        .fail_action(fmt::format("communicator handle {} is not made before this action (rank {} "
                                 "has made {} communicators by then)",
                                 handle, rank, mine.size()));
  const CommId comm = mine[handle - 1].comm;
  if (comm == kNoComm)
    ActionSite(trace_, rank, index, locations_)
        .fail_action(
            fmt::format("communicator handle {} is MPI_COMM_NULL on rank {} (the "
                        "creation at {} left it out)",
                        handle, rank,
                        ActionSite(trace_, rank, mine[handle - 1].action, locations_).describe()));
  return comm;
}

// `group` holds every member of `parent`, in the order they reached the call.
void CommPlan::run_creation(CommId parent, const std::vector<Waiting>& group) {
  const auto action_of = [&](const Waiting& w) -> const proto::Action& {
    return trace_.ranks(static_cast<int>(w.rank)).actions(w.action);
  };
  const auto kind = action_of(group.front()).kind_case();
  for (const Waiting& w : group)
    if (action_of(w).kind_case() != kind)
      ActionSite(trace_, w.rank, w.action, locations_)
          .fail_action(fmt::format("rank {} makes {} on communicator {} where rank {} makes {}",
                                   w.rank, action_kind_name(action_of(w)), parent,
                                   group.front().rank, action_kind_name(action_of(group.front()))));
  if (kind == Kind::kCommSplit) return run_split(parent, group);
  if (kind == Kind::kCommCreate) return run_create(parent, group);
  const CommId made = comms_.dup(parent);
  for (const Waiting& w : group) made_[w.rank].push_back({w.action, made});
}

void CommPlan::run_split(CommId parent, const std::vector<Waiting>& group) {
  const Communicator& p = comms_[parent];
  std::vector<std::int32_t> colors(p.size()), keys(p.size());
  std::vector<const Waiting*> by_parent_rank(p.size());
  for (const Waiting& w : group) {
    const auto& split = trace_.ranks(static_cast<int>(w.rank)).actions(w.action).comm_split();
    const auto pr = static_cast<std::size_t>(p.rank_of(w.rank));
    colors[pr] = split.color();
    keys[pr] = split.key();
    by_parent_rank[pr] = &w;
  }
  const std::vector<CommId> made = comms_.split(parent, colors, keys);
  for (std::size_t pr = 0; pr < made.size(); ++pr)
    made_[by_parent_rank[pr]->rank].push_back({by_parent_rank[pr]->action, made[pr]});
}

void CommPlan::run_create(CommId parent, const std::vector<Waiting>& group) {
  const auto group_of = [&](const Waiting& w) -> const auto& {
    return trace_.ranks(static_cast<int>(w.rank)).actions(w.action).comm_create().group();
  };
  const Waiting& first = group.front();
  std::vector<RankId> members;
  for (std::int32_t r : group_of(first)) {
    if (r < 0)
      ActionSite(trace_, first.rank, first.action, locations_)
          .fail_action(fmt::format("group rank {} is negative", r));
    members.push_back(static_cast<RankId>(r));
  }
  for (const Waiting& w : group)
    if (!std::equal(group_of(w).begin(), group_of(w).end(), group_of(first).begin(),
                    group_of(first).end()))
      ActionSite(trace_, w.rank, w.action, locations_)
          .fail_action(fmt::format("rank {}'s group differs from rank {}'s: every rank of the "
                                   "parent communicator must give the same group",
                                   w.rank, first.rank));
  CommId made = kNoComm;
  try {
    made = comms_.create(parent, members);
  } catch (const std::invalid_argument& e) {
    ActionSite(trace_, first.rank, first.action, locations_).fail_action(e.what());
  }
  const Communicator& c = comms_[made];
  for (const Waiting& w : group)
    made_[w.rank].push_back({w.action, c.rank_of(w.rank) < 0 ? kNoComm : made});
}

}  // namespace netwarp::mpiemul
