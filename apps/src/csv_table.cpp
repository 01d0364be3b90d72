// Table files: opening and closing with errors that name the file, CSV tables row by row.
#include "csv_table.hpp"

#include <fmt/format.h>

#include "app_context.hpp"
#include "output_file.hpp"

namespace netwarp::apps {

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw UsageError(fmt::format("{}: cannot write", path));
  return out;
}

void close_written(std::ofstream& out, const std::string& path) {
  output_file::close_written<UsageError>(out, path);
}

// A table of flat JSON rows as CSV: the header from the first row's keys, strings as they are,
// numbers as JSON prints them. The same rows go into results.json, so the two always agree.
// A table without rows is an empty file.
void write_table_csv(const nlohmann::ordered_json& rows, const std::string& path) {
  CsvTableStream csv(path);
  for (const auto& row : rows) csv.row(row);
  csv.close();
}

CsvTableStream::CsvTableStream(const std::string& path)
    : path_(path), out_(open_for_writing(path)) {}

void CsvTableStream::close() {
  close_written(out_, path_);
}

void CsvTableStream::row(const TableRow& row) {
  line_.clear();
  if (!has_header_) row.append_csv_header(line_);
  has_header_ = true;
  row.append_csv(line_);
  out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
}

void CsvTableStream::row(const nlohmann::ordered_json& row) {
  if (!has_header_) {
    std::string header;
    for (const auto& [key, value] : row.items()) header += (header.empty() ? "" : ",") + key;
    out_ << header << '\n';
    has_header_ = true;
  }
  bool first = true;
  for (const auto& [key, value] : row.items()) {
    out_ << (first ? "" : ",") << (value.is_string() ? value.get<std::string>() : value.dump());
    first = false;
  }
  out_ << '\n';
}

}  // namespace netwarp::apps
