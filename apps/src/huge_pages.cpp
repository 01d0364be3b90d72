// --huge-pages: the restart with glibc's malloc tunables (huge_pages.hpp says why).
#include "huge_pages.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string_view>

namespace netwarp::apps {
namespace {

constexpr const char* kTunables = "GLIBC_TUNABLES";
constexpr std::string_view kHugetlb = "glibc.malloc.hugetlb=";
constexpr std::string_view kArenaMax = "glibc.malloc.arena_max=";
// Set before the restart, so that the restarted process does not start again.
constexpr const char* kRestarted = "NETWARP_HUGE_PAGES_RESTARTED";

std::string tunables() {
  const char* value = std::getenv(kTunables);
  return value == nullptr ? "" : value;
}

}  // namespace

std::string transparent_huge_pages_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string text;
  std::getline(in, text);
  const auto open = text.find('[');
  const auto close = text.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return "";
  return text.substr(open + 1, close - open - 1);
}

std::string huge_page_tunables(std::string value) {
  for (const std::string_view tunable : {kHugetlb, kArenaMax}) {
    if (value.find(tunable) != std::string::npos) continue;
    if (!value.empty()) value += ':';
    value += tunable;
    value += '1';
  }
  return value;
}

std::string huge_pages_hint(std::uint64_t peak_rss_bytes, bool in_effect,
                            const std::function<std::string()>& mode) {
  if (in_effect || peak_rss_bytes < kHugePagesHintBytes || mode() != "madvise") return "";
  return fmt::format(
      "this run held {:.1f} GiB in pages of 4 KiB; --huge-pages may make such runs faster (the "
      "100^3 permutation on 2 threads: 13 % less time handling events; docs/engine.md)",
      static_cast<double>(peak_rss_bytes) / static_cast<double>(std::uint64_t{1} << 30));
}

bool huge_pages_requested(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") return false;
    if (arg == "--huge-pages") return true;
  }
  return false;
}

bool malloc_huge_pages() {
  const std::string value = tunables();
  const auto at = value.find(kHugetlb);
  if (at == std::string::npos) return false;
  const char setting = value.c_str()[at + kHugetlb.size()];
  return setting != '\0' && setting != '0' && setting != ':';
}

std::string restart_with_huge_pages(char** argv) {
  if (std::getenv(kRestarted) != nullptr || malloc_huge_pages()) return "";
  const bool had_tunables = std::getenv(kTunables) != nullptr;
  const std::string previous = tunables();
  if (previous.find(kHugetlb) != std::string::npos)
    return "GLIBC_TUNABLES already sets glibc.malloc.hugetlb (to no huge pages): kept";
  if (transparent_huge_pages_mode() == "never")
    return "this machine gives no transparent huge pages "
           "(/sys/kernel/mm/transparent_hugepage/enabled: never)";
  if (setenv(kTunables, huge_page_tunables(previous).c_str(), 1) == 0 &&
      setenv(kRestarted, "1", 1) == 0)
    execv("/proc/self/exe", argv);
  const std::string why = std::strerror(errno);
  // Still this process: the environment says what is in effect, as it did.
  if (had_tunables)
    setenv(kTunables, previous.c_str(), 1);
  else
    unsetenv(kTunables);
  unsetenv(kRestarted);
  return "cannot start again with GLIBC_TUNABLES: " + why;
}

}  // namespace netwarp::apps
