// Size and time transformers shared by every subcommand's flags.
#include "unit_options.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "netwarp/scenarios/units.hpp"

namespace netwarp::apps {
namespace {

constexpr std::pair<const char*, double> kTimeUnits[] = {
    {"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};

double ps_per(const std::string& unit) {
  for (const auto& [name, ps] : kTimeUnits)
    if (unit == name) return ps;
  throw std::invalid_argument(
      fmt::format("unknown time unit '{}' (known: ps, ns, us, ms, s)", unit));
}

// A check of a number's value against `holds`, refused as "must be `expected`, got 'TEXT'".
template <typename Holds>
CLI::Validator number_check(const char* expected, const char* name, Holds holds) {
  return CLI::Validator(
      [expected, holds](std::string& in) -> std::string {
        double value = 0;
        const auto [end, ec] = std::from_chars(in.data(), in.data() + in.size(), value);
        if (ec != std::errc{} || end != in.data() + in.size() || in.empty() ||
            !std::isfinite(value))
          return fmt::format("expected a finite number, got '{}'", in);
        if (!holds(value)) return fmt::format("must be {}, got '{}'", expected, in);
        return "";
      },
      name);
}

}  // namespace

CLI::Validator positive_number() {
  return number_check("greater than 0", "POSITIVE", [](double v) { return v > 0; });
}

CLI::Validator non_negative_number() {
  return number_check("0 or more", "NONNEGATIVE", [](double v) { return v >= 0; });
}

double parse_time_with_unit(const std::string& text, const std::string& unit) {
  double value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(first, last, value);
  const std::string suffix(end, last);
  if (ec != std::errc{} || text.empty() || !std::isfinite(value))
    throw std::invalid_argument(fmt::format(
        "expected a time such as 200ms, 3.5us or a number in {}, got '{}'", unit, text));
  if (suffix.empty()) return value;
  return value * ps_per(suffix) / ps_per(unit);
}

CLI::Validator bytes_with_unit() {
  return CLI::Validator(
      [](std::string& in) -> std::string {
        const auto bytes = scenarios::unsigned_with_unit(in);
        if (!bytes)
          return fmt::format("expected a size in bytes such as 1500, 64KiB or 2GiB, got '{}'", in);
        in = std::to_string(*bytes);
        return "";
      },
      "SIZE");
}

CLI::Validator time_with_unit(const std::string& unit) {
  ps_per(unit);  // a wrong unit here is a programming error: fail at start-up
  return CLI::Validator(
      [unit](std::string& in) -> std::string {
        try {
          in = fmt::format("{:.17g}", parse_time_with_unit(in, unit));
          return "";
        } catch (const std::invalid_argument& e) {
          return e.what();
        }
      },
      "TIME");
}

}  // namespace netwarp::apps
