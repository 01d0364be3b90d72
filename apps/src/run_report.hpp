// Run results for people and programs: the summary printed on stdout and the JSON file.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "netwarp/engine/kernel.hpp"
#include "table_row.hpp"

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

// Where one rank's memory went: resident at the start of the run (the program, its libraries,
// MPI), the peak once the model was built (scenario, topology, workload: what every rank holds
// whole), and the peak at the end (its own LPs, events and outputs on top).
struct RankMemory {
  std::int64_t start_bytes = 0;
  std::int64_t built_bytes = 0;
  std::int64_t peak_bytes = 0;
  std::int64_t own_bytes() const { return peak_bytes - built_bytes; }
};
// results.json's `rank_memory`: one object per rank, in rank order.
nlohmann::ordered_json rank_memory_json(const std::vector<RankMemory>& ranks);

// Writes one JSON object field by field, exactly as json_text would print the whole object, so
// a table of millions of rows goes to the file row by row instead of into one JSON value.
//
//   JsonObjectStream j(out);
//   j.field("scenario", name);
//   j.begin_array("flows");
//   for (...) j.row(row_json);
//   j.end_array();
//   j.close();
class JsonObjectStream {
 public:
  explicit JsonObjectStream(std::ostream& out);
  void field(std::string_view key, const nlohmann::ordered_json& value);
  // Every field of `object`, in its order.
  void fields(const nlohmann::ordered_json& object);
  void begin_array(std::string_view key);
  void row(const nlohmann::ordered_json& value);
  void row(const TableRow& value);
  void end_array();
  void close();  // the closing brace and a newline

 private:
  void begin_field(std::string_view key);
  std::ostream& out_;
  bool has_fields_ = false;
  bool has_rows_ = false;
  std::string text_;  // one row's text
  TableRow::JsonKeys row_keys_;
};

// Writes a file through PATH.partial and a rename (as write_json_file does): `write` gets the
// stream. A PATH that is not a plain file (a symbolic link, /dev/stdout, a pipe) is written in
// place instead, never replaced. UsageError naming the file when it cannot.
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write);

}  // namespace netwarp::apps
