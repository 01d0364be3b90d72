// TitArgs: typed, checked reading of one TIT line's arguments.
#include "tit_args.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

namespace {

// Sizes of SimGrid's predefined datatypes by id (smpi_datatype.cpp), on an LP64 machine:
// double, int, char, short, long, float, byte, long long, signed char, unsigned char,
// unsigned short, unsigned, unsigned long, unsigned long long, long double, wchar_t, bool,
// int8_t .. int64_t, uint8_t .. uint64_t.
constexpr std::array<std::uint64_t, 25> kDatatypeSizes = {8, 4,  1, 2, 8, 4, 1, 8, 1, 1, 2, 4, 8,
                                                          8, 16, 4, 1, 1, 2, 4, 8, 1, 2, 4, 8};

}  // namespace

TitArgs::TitArgs(const std::string& file, const TitLine& line, std::uint32_t ranks,
                 std::string_view action, std::string_view usage)
    : file_(file),
      line_(line.number),
      ranks_(ranks),
      action_(action),
      usage_(usage),
      args_(std::span<const std::string_view>(line.tokens).subspan(2)) {}

void TitArgs::fail(const std::string& message) const {
  throw TraceError(file_, line_, fmt::format("{}: {}", action_, message));
}

void TitArgs::fail_usage(const std::string& message) const {
  fail(fmt::format("{} (usage: RANK {})", message, usage_));
}

void TitArgs::finish() const {
  if (left() > 0) fail_usage(fmt::format("unexpected argument '{}'", args_[next_]));
}

std::string_view TitArgs::take(std::string_view name) {
  if (next_ >= args_.size()) fail_usage(fmt::format("missing {}", name));
  return args_[next_++];
}

std::int32_t TitArgs::checked_integer(std::string_view name, std::int64_t low) {
  const std::string_view token = take(name);
  const auto value = parse_integer(token);
  if (!value) fail(fmt::format("{} '{}' is not an integer", name, token));
  if (*value < low || *value > std::numeric_limits<std::int32_t>::max())
    fail(fmt::format("{} {} is out of range", name, *value));
  return static_cast<std::int32_t>(*value);
}

std::int32_t TitArgs::rank(std::string_view name) {
  const std::int32_t value = checked_integer(name, std::numeric_limits<std::int32_t>::min());
  if (value < 0 || static_cast<std::uint32_t>(value) >= ranks_)
    fail(fmt::format("{} {} is not a rank (the trace has ranks 0 to {})", name, value, ranks_ - 1));
  return value;
}

std::int32_t TitArgs::source(std::string_view name) {
  const std::int32_t value = checked_integer(name, std::numeric_limits<std::int32_t>::min());
  if (value < -1 || (value >= 0 && static_cast<std::uint32_t>(value) >= ranks_))
    fail(fmt::format("{} {} is not a rank (the trace has ranks 0 to {}; -1: any source)", name,
                     value, ranks_ - 1));
  return value;
}

std::int32_t TitArgs::tag(std::string_view name) {
  return checked_integer(name, 0);
}

std::int32_t TitArgs::any_tag(std::string_view name) {
  return checked_integer(name, -1);
}

std::int32_t TitArgs::integer(std::string_view name) {
  return checked_integer(name, std::numeric_limits<std::int32_t>::min());
}

double TitArgs::real(std::string_view name) {
  const std::string_view token = take(name);
  const std::string text(token);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value))
    fail(fmt::format("{} '{}' is not a number", name, token));
  return value;
}

double TitArgs::amount(std::string_view name) {
  const double value = real(name);
  if (value < 0) fail(fmt::format("{} {} is negative", name, value));
  return value;
}

std::uint64_t TitArgs::count(std::string_view name) {
  const double value = amount(name);
  if (value != std::floor(value)) fail(fmt::format("{} {} is not a whole number", name, value));
  if (value >= 18446744073709551616.0) fail(fmt::format("{} {} is too large", name, value));
  return static_cast<std::uint64_t>(value);
}

std::uint64_t TitArgs::recv_count(std::string_view name) {
  if (next_ < args_.size() && args_[next_].starts_with('-')) {
    real(name);
    return 0;
  }
  return count(name);
}

std::vector<std::uint64_t> TitArgs::counts(std::string_view name, std::size_t n) {
  std::vector<std::uint64_t> values;
  values.reserve(n);
  for (std::size_t i = 0; i < n; ++i) values.push_back(count(name));
  return values;
}

std::uint64_t TitArgs::datatype(std::string_view name) {
  const std::string_view token = take(name);
  const auto id = parse_integer(token);
  if (!id || *id < 0 || static_cast<std::uint64_t>(*id) >= kDatatypeSizes.size())
    fail(
        fmt::format("{} '{}' is not a SimGrid datatype id (0 to {}; 0: MPI_DOUBLE, "
                    "6: MPI_BYTE)",
                    name, token, kDatatypeSizes.size() - 1));
  return kDatatypeSizes[static_cast<std::size_t>(*id)];
}

std::uint64_t TitArgs::datatype_or(std::string_view name, std::uint64_t otherwise) {
  return left() > 0 ? datatype(name) : otherwise;
}

std::uint64_t TitArgs::bytes(std::uint64_t count, std::uint64_t type_size) const {
  if (type_size != 0 && count > std::numeric_limits<std::uint64_t>::max() / type_size)
    fail(fmt::format("{} elements of {} bytes overflow a byte count", count, type_size));
  return count * type_size;
}

std::vector<std::uint64_t> TitArgs::bytes(std::span<const std::uint64_t> counts,
                                          std::uint64_t type_size) const {
  std::vector<std::uint64_t> out;
  out.reserve(counts.size());
  for (std::uint64_t c : counts) out.push_back(bytes(c, type_size));
  return out;
}

}  // namespace netwarp::mpiemul
