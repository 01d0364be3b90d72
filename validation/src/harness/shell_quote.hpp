// Quoting for the commands `netwarp validate` runs through std::system (the cross-checks).
#pragma once

#include <string>

namespace netwarp::validation {

// `s` as one single-quoted shell word.
inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace netwarp::validation
