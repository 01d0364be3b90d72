// parse_tit_line: finds a line's action by name (any case) and reads its arguments.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "netwarp/mpiemul/trace.hpp"
#include "tit_grammar.hpp"

namespace netwarp::mpiemul {

namespace {

std::vector<TitActionSpec> sorted_actions() {
  std::vector<TitActionSpec> all;
  for (const auto table : {point_to_point_actions(), collective_actions()})
    all.insert(all.end(), table.begin(), table.end());
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return all;
}

const std::vector<TitActionSpec>& actions() {
  static const std::vector<TitActionSpec> all = sorted_actions();
  return all;
}

std::string known_names() {
  std::string names;
  for (const TitActionSpec& spec : actions())
    names += fmt::format("{}{}", names.empty() ? "" : ", ", spec.name);
  return names;
}

std::string lower_case(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const TitActionSpec* find_action(std::string_view name) {
  const auto& all = actions();
  const auto at =
      std::lower_bound(all.begin(), all.end(), name,
                       [](const TitActionSpec& a, std::string_view n) { return a.name < n; });
  return at != all.end() && at->name == name ? &*at : nullptr;
}

}  // namespace

bool parse_tit_line(const std::string& file, const TitLine& line, std::uint32_t ranks,
                    TitRankState& state, proto::Action& action) {
  if (line.tokens.size() < 2)
    throw TraceError(file, line.number, "missing the action after the rank");
  const std::string name = lower_case(line.tokens[1]);
  const TitActionSpec* spec = find_action(name);
  if (spec == nullptr)
    throw TraceError(file, line.number,
                     fmt::format("unknown action '{}' (known: {})", line.tokens[1], known_names()));
  TitArgs args(file, line, ranks, spec->name, spec->usage);
  action.set_line(line.number);
  return spec->parse(args, state, action);
}

}  // namespace netwarp::mpiemul
