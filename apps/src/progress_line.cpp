// Progress line on stderr.
#include "progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace netwarp::apps {
namespace {
bool g_line_drawn = false;
}

bool progress_wanted() {
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::string_view(ci) == "true") return false;
  return isatty(STDERR_FILENO) != 0;
}

std::function<void(const engine::Progress&)> make_progress_line(const AppContext& context) {
  // The optimistic kernel sums committed events over ranks for each report, a collective: every
  // rank must agree on having a callback, so rank 0's terminal decides for all.
  const bool wanted = context.exchange->max(context.is_root() && progress_wanted() ? 1 : 0) != 0;
  if (!wanted) return {};
  if (!context.is_root()) return [](const engine::Progress&) {};
  return [](const engine::Progress& p) {
    const double rate =
        p.wall_seconds > 0 ? static_cast<double>(p.events_committed) / p.wall_seconds : 0;
    std::string line = fmt::format("[netwarp] t = {:.1f} us", p.now.to_us());
    if (!p.end.is_max() && p.end.ps() > 0) {
      const double done = std::min(1.0, p.now.to_seconds() / p.end.to_seconds());
      line += fmt::format(" of {:.1f} us ({:.0f}%)", p.end.to_us(), 100 * done);
      if (done > 0.001) line += fmt::format(", ETA {:.0f} s", p.wall_seconds * (1 - done) / done);
    }
    line += fmt::format(", {:.2f} M events/s", rate * 1e-6);
    std::fprintf(stderr, "\r%-79s", line.c_str());
    std::fflush(stderr);
    g_line_drawn = true;
  };
}

void end_progress_line() {
  if (!g_line_drawn) return;
  std::fprintf(stderr, "\r%79s\r", "");
  std::fflush(stderr);
  g_line_drawn = false;
}

}  // namespace netwarp::apps
