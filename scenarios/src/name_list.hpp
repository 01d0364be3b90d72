// Lists of valid names for error messages: sorted, joined with ", ", truncated so an error
// stays one readable line ("a, b, c, ... (12 more)").
#pragma once

#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace netwarp::scenarios {

inline std::string join_names(std::vector<std::string> names, std::size_t shown = 10) {
  std::sort(names.begin(), names.end());
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > shown) text += ", ... (" + std::to_string(names.size() - shown) + " more)";
  return text;
}

inline std::string known_field_names(const google::protobuf::Descriptor& type) {
  std::vector<std::string> names;
  for (int i = 0; i < type.field_count(); ++i) names.push_back(type.field(i)->name());
  return join_names(std::move(names), 16);
}

}  // namespace netwarp::scenarios
