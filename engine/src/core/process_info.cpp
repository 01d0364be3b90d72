// Wall clock and memory of this process.
#include "netwarp/engine/process_info.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

namespace netwarp::engine {
namespace {

// A "Name:   1234 kB" line of /proc/self/status, in bytes.
std::optional<std::uint64_t> status_bytes(std::string_view field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with(field) && line.size() > field.size() && line[field.size()] == ':')
      return std::stoull(line.substr(field.size() + 1)) * 1024;
  return std::nullopt;
}

}  // namespace

std::uint64_t peak_rss_bytes() {
  if (const auto peak = status_bytes("VmHWM")) return *peak;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

// /proc/self/statm's second field (resident pages): the kernel writes it faster than the status
// file's 50 lines.
std::uint64_t rss_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size_pages = 0;
  std::uint64_t resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return 0;
  const long page = sysconf(_SC_PAGESIZE);
  return resident_pages * static_cast<std::uint64_t>(page > 0 ? page : 4096);
}

std::uint64_t wall_clock_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

double wall_seconds_since(std::uint64_t start_ns) {
  return static_cast<double>(wall_clock_ns() - start_ns) * 1e-9;
}

}  // namespace netwarp::engine
