// ActionSite: the file and line of a trace action, or its rank and index.
#include "action_site.hpp"

#include <fmt/format.h>

namespace netwarp::mpiemul {

ActionSite::ActionSite(const proto::Trace& trace, std::uint32_t rank, int index)
    : rank_(rank), index_(index) {
  const proto::RankTrace& rank_trace = trace.ranks(static_cast<int>(rank));
  file_ = rank_trace.source_file();
  if (index < rank_trace.actions_size()) {
    line_ = rank_trace.actions(index).line();
    kind_ = action_kind_name(rank_trace.actions(index));
  }
}

std::string ActionSite::describe() const {
  if (!file_.empty() && line_ > 0) return fmt::format("{}:{}", file_, line_);
  return fmt::format("rank {}, action {}", rank_, index_ + 1);
}

void ActionSite::fail(const std::string& message) const {
  if (!file_.empty() && line_ > 0) throw TraceError(file_, line_, message);
  const std::string where = fmt::format("rank {}, action {}", rank_, index_ + 1);
  if (file_.empty()) throw TraceError(where, 0, message);
  throw TraceError(file_, 0, fmt::format("{}: {}", where, message));
}

void ActionSite::fail_action(const std::string& message) const {
  fail(fmt::format("{}: {}", kind_, message));
}

std::string_view action_kind_name(const proto::Action& action) {
  const auto* field = proto::Action::descriptor()->FindFieldByNumber(action.kind_case());
  return field == nullptr ? std::string_view("(none)") : std::string_view(field->name());
}

}  // namespace netwarp::mpiemul
