// Category-level logging configuration and output.
#include "netwarp/engine/log.hpp"

#include <atomic>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>

namespace netwarp::engine {
namespace {

struct LogConfig {
  LogLevel default_level = LogLevel::warn;
  std::map<std::string, LogLevel, std::less<>> by_category;
};

// The configuration in force, replaced whole and never changed in place: partitions running as
// threads read it while another may configure it. Replaced ones are kept (a handful per run).
std::atomic<const LogConfig*> g_config{nullptr};
std::mutex g_configs_mutex;
std::deque<LogConfig> g_configs;

const LogConfig& config() {
  static const LogConfig defaults;
  const LogConfig* c = g_config.load(std::memory_order_acquire);
  return c != nullptr ? *c : defaults;
}

LogLevel parse_level(std::string_view s) {
  if (s == "debug") return LogLevel::debug;
  if (s == "info") return LogLevel::info;
  if (s == "warn") return LogLevel::warn;
  if (s == "error") return LogLevel::error;
  if (s == "off") return LogLevel::off;
  throw std::invalid_argument(
      fmt::format("unknown log level '{}' (known: debug, error, info, off, warn)", s));
}

std::string_view level_name(LogLevel l) {
  constexpr std::string_view names[] = {"debug", "info", "warn", "error", "off"};
  return names[static_cast<int>(l)];
}

}  // namespace

void configure_logging(std::string_view spec) {
  LogConfig fresh;
  while (!spec.empty()) {
    const auto comma = spec.find(',');
    const std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      fresh.default_level = parse_level(item);
    } else {
      fresh.by_category[std::string(item.substr(0, eq))] = parse_level(item.substr(eq + 1));
    }
  }
  const std::lock_guard<std::mutex> lock(g_configs_mutex);
  g_config.store(&g_configs.emplace_back(std::move(fresh)), std::memory_order_release);
}

bool log_enabled(std::string_view category, LogLevel level) {
  const LogConfig& c = config();
  // The longest configured prefix of the category decides ("engine" covers "engine.gvt").
  LogLevel threshold = c.default_level;
  std::size_t best = 0;
  for (const auto& [name, l] : c.by_category) {
    const bool prefix = category.substr(0, name.size()) == name &&
                        (category.size() == name.size() || category[name.size()] == '.');
    if (prefix && name.size() >= best) {
      best = name.size();
      threshold = l;
    }
  }
  return level >= threshold && level != LogLevel::off;
}

void log_write(std::string_view category, LogLevel level, const std::string& message) {
  std::fprintf(stderr, "[%.*s] %.*s: %s\n", static_cast<int>(level_name(level).size()),
               level_name(level).data(), static_cast<int>(category.size()), category.data(),
               message.c_str());
}

}  // namespace netwarp::engine
