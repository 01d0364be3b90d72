// CollectivePlan: every communicator's collective calls, checked against its rank 0's.
#include "collective_plan.hpp"

#include <fmt/format.h>

#include "action_site.hpp"

namespace netwarp::mpiemul {

namespace {

using Kind = proto::Action::KindCase;

std::string describe_call(const proto::Action& action) {
  const std::int32_t root = collective_root(action);
  if (root < 0) return std::string(action_kind_name(action));
  return fmt::format("{} (root {})", action_kind_name(action), root);
}

std::string comm_name(CommId comm) {
  return comm == kWorldComm ? std::string("MPI_COMM_WORLD") : fmt::format("communicator {}", comm);
}

}  // namespace

bool is_collective(const proto::Action& action) {
  const auto k = action.kind_case();
  return (k >= Kind::kBarrier && k <= Kind::kReduceScatter) ||
         (k >= Kind::kIbarrier && k <= Kind::kIalltoall);
}

std::int32_t collective_root(const proto::Action& action) {
  switch (action.kind_case()) {
    case Kind::kBcast:
      return action.bcast().root();
    case Kind::kIbcast:
      return action.ibcast().root();
    case Kind::kReduce:
      return action.reduce().root();
    case Kind::kGather:
      return action.gather().root();
    case Kind::kScatter:
      return action.scatter().root();
    case Kind::kGatherv:
      return action.gatherv().root();
    case Kind::kScatterv:
      return action.scatterv().root();
    default:
      return -1;
  }
}

CollectivePlan::CollectivePlan(const proto::Trace& trace, const CommPlan& comms,
                               const TraceLocations* locations)
    : trace_(trace), comms_(comms), locations_(locations) {
  for (int r = 0; r < trace.ranks_size(); ++r) {
    const auto& actions = trace.ranks(r).actions();
    for (int i = 0; i < actions.size(); ++i) {
      if (!is_collective(actions[i])) continue;
      const CommId c = comms.comm_of(static_cast<RankId>(r), i);
      auto& per_rank = calls_[c];
      if (per_rank.empty()) per_rank.resize(comms[c].size());
      per_rank[static_cast<std::size_t>(comms[c].rank_of(static_cast<RankId>(r)))].emplace_back(
          &actions[i], i);
    }
  }
  for (const auto& [c, per_rank] : calls_)
    for (RankId k = 1; k < per_rank.size(); ++k) check_rank(c, k);
}

void CollectivePlan::check_rank(CommId comm, RankId comm_rank) const {
  const std::vector<Calls>& per_rank = calls_.at(comm);
  const Calls& mine = per_rank[comm_rank];
  const Calls& first = per_rank[0];
  const RankId rank = comms_[comm].members[comm_rank];
  const RankId rank0 = comms_[comm].members[0];
  const std::string where =
      comm == kWorldComm ? std::string() : fmt::format(" on {}", comm_name(comm));
  for (std::size_t k = 0; k < std::min(mine.size(), first.size()); ++k) {
    const std::string own = describe_call(*mine[k].first);
    const std::string expected = describe_call(*first[k].first);
    if (own == expected) continue;
    ActionSite(trace_, rank, mine[k].second, locations_)
        .fail(fmt::format("collective call {}{} of rank {} is {}, but rank {}'s is {} at {}: every "
                          "rank must make the same collective calls in the same order",
                          k + 1, where, rank, own, rank0, expected,
                          ActionSite(trace_, rank0, first[k].second, locations_).describe()));
  }
  if (mine.size() == first.size()) return;
  const bool has_more = mine.size() > first.size();
  const RankId longer = has_more ? rank : rank0;
  const auto& extra = (has_more ? mine : first)[std::min(mine.size(), first.size())];
  ActionSite(trace_, longer, extra.second, locations_)
      .fail(fmt::format("rank {} makes {} collective calls{} but rank {} makes {}: this {} has no "
                        "counterpart",
                        rank, mine.size(), where, rank0, first.size(),
                        describe_call(*extra.first)));
}

const proto::Action& CollectivePlan::root_call(CommId comm, std::size_t index) const {
  const std::vector<Calls>& per_rank = calls_.at(comm);
  const proto::Action& call = *per_rank[0][index].first;
  return *per_rank[static_cast<std::size_t>(collective_root(call))][index].first;
}

}  // namespace netwarp::mpiemul
