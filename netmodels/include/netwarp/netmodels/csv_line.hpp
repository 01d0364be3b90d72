// The small CSV dialect of netwarp's input tables (flows files, MFS pattern files): one record
// per line, fields separated by commas, blanks around a field ignored, no quoting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace netwarp::netmodels {

// `s` without spaces and tabs at either end, nor a trailing '\r' (files written on Windows).
std::string_view trim_blanks(std::string_view s);

// The fields of one line, each trimmed; an empty line is one empty field.
std::vector<std::string_view> split_csv_line(std::string_view line);

// A field holding a non-negative integer no larger than `max`; anything else throws InputError
// "<where>: <column> must not be negative / is not a number / is too large". `where` is
// "<file>:<line>".
std::uint64_t parse_csv_count(std::string_view text, std::string_view column, std::uint64_t max,
                              const std::string& where);

}  // namespace netwarp::netmodels
