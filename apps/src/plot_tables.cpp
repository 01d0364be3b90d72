// Reading run tables back for plotting.
#include "plot_tables.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "app_context.hpp"

namespace netwarp::apps {
namespace {

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

}  // namespace

std::size_t CsvTable::column(const std::string& name) const {
  const auto it = std::find(columns.begin(), columns.end(), name);
  if (it == columns.end()) throw UsageError(fmt::format("plot: no column '{}' in a table", name));
  return static_cast<std::size_t>(it - columns.begin());
}

double CsvTable::number(std::size_t row, std::size_t col) const {
  try {
    return std::stod(rows.at(row).at(col));
  } catch (const std::exception&) {
    throw UsageError(fmt::format("plot: '{}' is not a number (column {})",
                                 row < rows.size() && col < rows[row].size() ? rows[row][col] : "",
                                 columns.at(col)));
  }
}

CsvTable read_csv(const std::string& path) {
  CsvTable table;
  std::ifstream in(path);
  if (!in) return table;
  std::string line;
  if (!std::getline(in, line)) return table;
  if (line.ends_with('\r')) line.pop_back();
  table.columns = split_fields(line);
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    if (line.ends_with('\r')) line.pop_back();  // CRLF, as spreadsheets write
    if (line.empty()) continue;
    table.rows.push_back(split_fields(line));
    if (table.rows.back().size() != table.columns.size())
      throw UsageError(fmt::format("{}:{}: {} fields, the header has {}", path, number,
                                   table.rows.back().size(), table.columns.size()));
  }
  return table;
}

std::vector<Series> top_series(std::vector<Series> all, std::size_t top) {
  std::stable_sort(all.begin(), all.end(),
                   [](const Series& a, const Series& b) { return a.rank_value > b.rank_value; });
  if (all.size() > top) all.resize(top);
  return all;
}

TimeAxis time_axis_for(double last_ps) {
  if (last_ps > 1e10) return TimeAxis{1e9, "ms"};
  return TimeAxis{};
}

}  // namespace netwarp::apps
