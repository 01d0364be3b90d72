// Output files of tables: opened and closed with errors that name the file, and CSV tables
// written row by row (TableRow or flat JSON rows).
#pragma once

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

#include "table_row.hpp"

namespace netwarp::apps {

std::ofstream open_for_writing(const std::string& path);  // UsageError if it cannot
// Closes `out`: UsageError naming `path` when any of the file could not be written.
void close_written(std::ofstream& out, const std::string& path);

// Flat JSON rows as CSV (header from the first row's keys); no rows: an empty file.
void write_table_csv(const nlohmann::ordered_json& rows, const std::string& path);

// The same, row by row.
class CsvTableStream {
 public:
  explicit CsvTableStream(const std::string& path);
  void row(const nlohmann::ordered_json& row);
  void row(const TableRow& row);
  void close();  // UsageError naming the file when any of it could not be written

 private:
  std::string path_;
  std::ofstream out_;
  std::string line_;
  bool has_header_ = false;
};

}  // namespace netwarp::apps
