// TraceError's one-line text: "FILE:LINE: message" ("FILE:LINE:COLUMN: message" for protobuf
// text), "FILE: message" when the line is unknown, just the message when there is no file.
#include <fmt/format.h>

#include "netwarp/mpiemul/trace.hpp"

namespace netwarp::mpiemul {

namespace {

std::string format_error(const std::string& file, std::uint32_t line, std::uint32_t column,
                         const std::string& message) {
  if (file.empty()) return message;
  if (line == 0) return fmt::format("{}: {}", file, message);
  if (column == 0) return fmt::format("{}:{}: {}", file, line, message);
  return fmt::format("{}:{}:{}: {}", file, line, column, message);
}

}  // namespace

TraceError::TraceError(std::string file, std::uint32_t line, const std::string& message,
                       std::uint32_t column)
    : netmodels::InputError("", message),
      file_(std::move(file)),
      line_(line),
      column_(column),
      text_(netmodels::printable(format_error(file_, line_, column_, message))) {}

}  // namespace netwarp::mpiemul
