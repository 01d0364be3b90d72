// NW_LOG: diagnostics to stderr with one level per category ("engine.gvt=debug,engine=info";
// default warn). Logs written inside event handlers may be rolled back and re-run, so they
// are for debugging only; anything users rely on is a committed record.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace netwarp::engine {

enum class LogLevel { debug = 0, info = 1, warn = 2, error = 3, off = 4 };

// Parses "cat=level,cat2=level" (a bare level sets the default). Throws std::invalid_argument
// naming the bad entry.
void configure_logging(std::string_view spec);
bool log_enabled(std::string_view category, LogLevel level);
void log_write(std::string_view category, LogLevel level, const std::string& message);

}  // namespace netwarp::engine

#define NW_LOG(level, category, ...)                                                  \
  do {                                                                                \
    if (::netwarp::engine::log_enabled(category, ::netwarp::engine::LogLevel::level)) \
      ::netwarp::engine::log_write(category, ::netwarp::engine::LogLevel::level,      \
                                   fmt::format(__VA_ARGS__));                         \
  } while (0)
