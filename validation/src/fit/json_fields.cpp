// Field-by-field JSON object reading with dotted-path errors (json_fields.hpp).
#include "json_fields.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::validation::fit {

using netmodels::InputError;

namespace {
// No model parameter comes near it (1e12 ns is 17 minutes per message); beyond it, times summed
// over a program's messages leave the range of picosecond integers.
constexpr double kLargestParameter = 1e12;
}  // namespace

std::string json_type_name(const Json& value) {
  if (value.is_number()) return "number";
  if (value.is_boolean()) return "boolean";
  return value.type_name();
}

double json_number(const Json& value, const std::string& path, bool allow_negative) {
  if (!value.is_number())
    throw InputError(path, fmt::format("must be a number, got {}", json_type_name(value)));
  const double number = value.get<double>();
  if (!std::isfinite(number)) throw InputError(path, "must be a finite number");
  if (std::abs(number) > kLargestParameter)
    throw InputError(path, fmt::format("must be <= {:g}, got {:g}", kLargestParameter, number));
  if (!allow_negative && number < 0)
    throw InputError(path, fmt::format("must be >= 0, got {}", number));
  return number;
}

std::uint64_t json_integer(const Json& value, const std::string& path) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  const double number = json_number(value, path, false);
  if (number != std::floor(number) || number > 9.0e15)
    throw InputError(path, fmt::format("must be a whole number of bytes, got {}", number));
  return static_cast<std::uint64_t>(number);
}

JsonObjectReader::JsonObjectReader(const Json& object, std::string path)
    : object_(object), path_(std::move(path)) {
  if (!object_.is_object())
    throw InputError(path_, fmt::format("must be an object, got {}", json_type_name(object_)));
}

std::string JsonObjectReader::child(std::string_view key) const {
  return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
}

bool JsonObjectReader::has(std::string_view key) {
  asked_.emplace(key);
  return object_.contains(std::string(key));
}

const Json& JsonObjectReader::value(std::string_view key) {
  asked_.emplace(key);
  const auto found = object_.find(std::string(key));
  if (found == object_.end()) throw InputError(child(key), "missing");
  return *found;
}

double JsonObjectReader::number(std::string_view key) {
  return json_number(value(key), child(key), false);
}

double JsonObjectReader::signed_number(std::string_view key) {
  return json_number(value(key), child(key), true);
}

std::uint64_t JsonObjectReader::integer(std::string_view key) {
  return json_integer(value(key), child(key));
}

bool JsonObjectReader::boolean(std::string_view key) {
  const Json& v = value(key);
  if (!v.is_boolean())
    throw InputError(child(key), fmt::format("must be true or false, got {}", json_type_name(v)));
  return v.get<bool>();
}

std::string JsonObjectReader::string(std::string_view key) {
  const Json& v = value(key);
  if (!v.is_string())
    throw InputError(child(key), fmt::format("must be a string, got {}", json_type_name(v)));
  return v.get<std::string>();
}

void JsonObjectReader::reject_unknown_keys() const {
  for (const auto& [key, v] : object_.items()) {
    if (asked_.count(key) != 0) continue;
    std::vector<std::string> known(asked_.begin(), asked_.end());
    throw InputError(child(key), fmt::format("unknown key (known: {})", fmt::join(known, ", ")));
  }
}

}  // namespace netwarp::validation::fit
