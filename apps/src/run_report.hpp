// Run results for people and programs: the summary printed on stdout and the JSON file.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "netwarp/engine/kernel.hpp"

namespace netwarp::apps {

// The engine statistics as JSON (snake_case names, plain numbers).
nlohmann::ordered_json stats_to_json(const engine::RunStats& stats);
// The multi-line summary of a run.
std::string format_summary(const engine::RunStats& stats);
// Fails early (UsageError naming the file) when `path` cannot be written, so a long run does
// not end in a lost result. Leaves no file behind.
void check_writable(const std::string& path);
// The --out folder: `given`, else out/<scenario name> (out/<fallback> for a nameless one).
std::string out_dir_or_default(const std::string& given, const std::string& scenario_name,
                               const std::string& fallback);
// Creates the output folder `dir` (from --out); UsageError naming it otherwise.
void create_out_dir(const std::string& dir);
// JSON as netwarp writes it: indented, and invalid UTF-8 replaced (U+FFFD) instead of thrown.
std::string json_text(const nlohmann::ordered_json& json);
// Writes `json` to `path` through PATH.partial and a rename, so `path` is never half written;
// throws UsageError naming the file when it cannot.
void write_json_file(const std::string& path, const nlohmann::ordered_json& json);

}  // namespace netwarp::apps
