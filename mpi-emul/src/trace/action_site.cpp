// ActionSite: the file and line of a trace action, or its rank and index.
#include "action_site.hpp"

#include <fmt/format.h>

namespace netwarp::mpiemul {

namespace {

const TraceLocations::Position* text_position(const TraceLocations* locations, std::uint32_t rank,
                                              int index) {
  if (locations == nullptr || rank >= locations->actions.size()) return nullptr;
  const auto& positions = locations->actions[rank];
  if (index < 0 || static_cast<std::size_t>(index) >= positions.size()) return nullptr;
  const auto& position = positions[static_cast<std::size_t>(index)];
  return position.line > 0 ? &position : nullptr;
}

}  // namespace

ActionSite::ActionSite(const proto::Trace& trace, std::uint32_t rank, int index,
                       const TraceLocations* locations)
    : rank_(rank), index_(index) {
  const proto::RankTrace& rank_trace = trace.ranks(static_cast<int>(rank));
  file_ = rank_trace.source_file();
  if (index < rank_trace.actions_size()) {
    line_ = rank_trace.actions(index).line();
    kind_ = action_kind_name(rank_trace.actions(index));
  }
  if (const auto* position = text_position(locations, rank, index)) {
    file_ = locations->file;
    line_ = position->line;
    column_ = position->column;
  }
}

std::string ActionSite::describe() const {
  if (!file_.empty() && line_ > 0 && column_ > 0)
    return fmt::format("{}:{}:{}", file_, line_, column_);
  if (!file_.empty() && line_ > 0) return fmt::format("{}:{}", file_, line_);
  return fmt::format("rank {}, action {}", rank_, index_ + 1);
}

void ActionSite::fail(const std::string& message) const {
  if (!file_.empty() && line_ > 0) throw TraceError(file_, line_, message, column_);
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
