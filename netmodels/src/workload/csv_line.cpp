#include "netwarp/netmodels/csv_line.hpp"

#include <charconv>
#include <string>

#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::netmodels {

std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_csv_line(std::string_view line) {
  std::vector<std::string_view> fields;
  for (;;) {
    const auto comma = line.find(',');
    fields.push_back(trim_blanks(line.substr(0, comma)));
    if (comma == std::string_view::npos) return fields;
    line.remove_prefix(comma + 1);
  }
}

std::uint64_t parse_csv_count(std::string_view text, std::string_view column, std::uint64_t max,
                              const std::string& where) {
  const std::string name(column);
  if (!text.empty() && text.front() == '-') {
    throw InputError("", where + ": " + name + " must not be negative, got " + std::string(text));
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec == std::errc::invalid_argument || end != text.data() + text.size()) {
    throw InputError("", where + ": " + name + " is not a number: '" + std::string(text) + "'");
  }
  if (ec == std::errc::result_out_of_range || value > max) {
    throw InputError("", where + ": " + name + ": must be at most " + std::to_string(max) +
                             ", got " + std::string(text));
  }
  return value;
}

}  // namespace netwarp::netmodels
