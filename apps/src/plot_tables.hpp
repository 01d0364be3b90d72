// The tables `netwarp plot` reads back from a run folder: CSV with a header line, numbers and
// names, and the series picked from them (per port, per flow).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace netwarp::apps {

struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;

  std::size_t column(const std::string& name) const;  // UsageError if absent
  double number(std::size_t row, std::size_t column) const;
};

// An absent file is an empty table; a malformed one a UsageError naming it.
CsvTable read_csv(const std::string& path);

// Rows of one table grouped by a key made of some columns ("sw0 p3"), in file order.
struct Series {
  std::string label;
  std::vector<std::size_t> rows;
  double rank_value = 0;  // what the series are ranked by (largest first)
};

// The `top` series with the largest rank_value (ties: by label), and how many there were.
std::vector<Series> top_series(std::vector<Series> all, std::size_t top);

// Time axis: microseconds, or milliseconds when the data passes 10 ms.
struct TimeAxis {
  double ps_per_unit = 1e6;
  std::string unit = "us";
};
TimeAxis time_axis_for(double last_ps);

}  // namespace netwarp::apps
