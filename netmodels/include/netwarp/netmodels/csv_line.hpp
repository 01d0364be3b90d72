// The small CSV dialect of netwarp's input tables (flows files, MFS pattern files): one record
// per line, fields separated by commas, blanks around a field ignored, no quoting.
#pragma once

#include <string_view>
#include <vector>

namespace netwarp::netmodels {

// `s` without spaces and tabs at either end, nor a trailing '\r' (files written on Windows).
std::string_view trim_blanks(std::string_view s);

// The fields of one line, each trimmed; an empty line is one empty field.
std::vector<std::string_view> split_csv_line(std::string_view line);

}  // namespace netwarp::netmodels
