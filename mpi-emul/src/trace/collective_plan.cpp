// CollectivePlan: every rank's collective calls, checked against rank 0's.
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

}  // namespace

bool is_collective(const proto::Action& action) {
  return action.kind_case() >= Kind::kBarrier && action.kind_case() <= Kind::kReduceScatter;
}

std::int32_t collective_root(const proto::Action& action) {
  switch (action.kind_case()) {
    case Kind::kBcast:
      return action.bcast().root();
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

CollectivePlan::CollectivePlan(const proto::Trace& trace, const TraceLocations* locations)
    : locations_(locations), calls_(trace.ranks_size()) {
  for (int r = 0; r < trace.ranks_size(); ++r) {
    const auto& actions = trace.ranks(r).actions();
    for (int i = 0; i < actions.size(); ++i)
      if (is_collective(actions[i])) calls_[r].emplace_back(&actions[i], i);
  }
  for (std::uint32_t r = 1; r < calls_.size(); ++r) check_rank(trace, r);
}

void CollectivePlan::check_rank(const proto::Trace& trace, std::uint32_t rank) const {
  const auto& mine = calls_[rank];
  const auto& first = calls_[0];
  for (std::size_t k = 0; k < std::min(mine.size(), first.size()); ++k) {
    const std::string own = describe_call(*mine[k].first);
    const std::string expected = describe_call(*first[k].first);
    if (own == expected) continue;
    ActionSite(trace, rank, mine[k].second, locations_)
        .fail(fmt::format("collective call {} of rank {} is {}, but rank 0's is {} at {}: every "
                          "rank must make the same collective calls in the same order",
                          k + 1, rank, own, expected,
                          ActionSite(trace, 0, first[k].second, locations_).describe()));
  }
  if (mine.size() == first.size()) return;
  const bool has_more = mine.size() > first.size();
  const std::uint32_t longer = has_more ? rank : 0;
  const auto& extra = (has_more ? mine : first)[std::min(mine.size(), first.size())];
  ActionSite(trace, longer, extra.second, locations_)
      .fail(fmt::format("rank {} makes {} collective calls but rank {} makes {}: this {} has no "
                        "counterpart",
                        rank, mine.size(), 0, first.size(), describe_call(*extra.first)));
}

const proto::Action& CollectivePlan::root_call(std::size_t index) const {
  const proto::Action& call = *calls_[0][index].first;
  return *calls_[static_cast<std::size_t>(collective_root(call))][index].first;
}

}  // namespace netwarp::mpiemul
