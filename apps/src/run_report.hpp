// Run results for people and programs: the summary printed on stdout and the JSON file.
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <string_view>

#include "netwarp/engine/kernel.hpp"

namespace netwarp::apps {

// The engine statistics as JSON (snake_case names, plain numbers).
nlohmann::ordered_json stats_to_json(const engine::RunStats& stats);
// The multi-line summary of a run.
std::string format_summary(const engine::RunStats& stats);
// Fails early (UsageError naming the file) when `path` cannot be written, so a long run does
// not end in a lost result.
void check_writable(const std::string& path);
// The --out folder: `given`, else out/<scenario name> (out/<fallback> for a nameless one).
std::string out_dir_or_default(const std::string& given, const std::string& scenario_name,
                               const std::string& fallback);
// Creates the output folder `dir` (from --out) and checks that `files` can be written in it;
// UsageError naming the folder or file otherwise.
void prepare_out_dir(const std::string& dir, std::initializer_list<std::string_view> files);
// Writes `json` to `path`; throws UsageError naming the file when it cannot.
void write_json_file(const std::string& path, const nlohmann::ordered_json& json);

}  // namespace netwarp::apps
