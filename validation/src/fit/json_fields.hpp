// Reading one JSON object field by field for the parameter files: required keys, numbers >= 0,
// integers, and unknown keys, each failure a netmodels::InputError naming the dotted path.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace netwarp::validation::fit {

using Json = nlohmann::ordered_json;

std::string json_type_name(const Json& value);  // "string", "number", "object", ...

class JsonObjectReader {
 public:
  // Throws InputError(path, "must be an object, got ...") when `object` is not one. An empty
  // path names the whole document.
  JsonObjectReader(const Json& object, std::string path);

  const std::string& path() const { return path_; }
  std::string child(std::string_view key) const;  // "path.key", or "key" at the top
  bool has(std::string_view key);                 // also makes `key` a known key
  const Json& value(std::string_view key);        // throws "missing"
  double number(std::string_view key);            // finite, >= 0
  double signed_number(std::string_view key);     // finite
  std::uint64_t integer(std::string_view key);    // whole number >= 0
  bool boolean(std::string_view key);
  std::string string(std::string_view key);
  // Throws InputError(child, "unknown key (known: ...)") for a key never asked for.
  void reject_unknown_keys() const;

 private:
  const Json& object_;
  std::string path_;
  std::set<std::string, std::less<>> asked_;
};

// Number checks on a value already taken out, for array elements. Numbers are finite and at
// most 1e12 in magnitude (ns, ns/byte or bytes), so no prediction from them can overflow a
// picosecond integer unless a program sends millions of such messages.
double json_number(const Json& value, const std::string& path, bool allow_negative);
std::uint64_t json_integer(const Json& value, const std::string& path);

}  // namespace netwarp::validation::fit
