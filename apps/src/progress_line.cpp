// Progress line on stderr (progress_line.hpp).
#include "progress_line.hpp"

#include "interrupt.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace netwarp::apps {
namespace {

std::atomic<bool> g_line_drawn{false};  // read by the signal handler
bool g_turned_off = false;              // turn_progress_line_off

// Under mpirun, rank 0's stderr is a pipe that mpirun relays to its own stderr at once. When
// the job has a controlling terminal, a person is watching: draw the line through the pipe.
bool is_mpirun_relaying_to_a_terminal() {
  if (!engine::MpiSession::launched_by_mpirun()) return false;
  struct stat st {};
  if (fstat(STDERR_FILENO, &st) != 0 || !S_ISFIFO(st.st_mode)) return false;
  const int tty = open("/dev/tty", O_RDONLY | O_NOCTTY);
  if (tty < 0) return false;
  close(tty);
  return true;
}

}  // namespace

void turn_progress_line_off() {
  g_turned_off = true;
}

bool progress_wanted() {
  if (g_turned_off) return false;
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::string_view(ci) == "true") return false;
  return isatty(STDERR_FILENO) != 0 || is_mpirun_relaying_to_a_terminal();
}

std::string sim_time_text(engine::SimTime time) {
  const auto ps = static_cast<double>(time.ps());
  if (time.ps() < 1'000'000) return fmt::format("{:.4g} ns", ps * 1e-3);
  if (time.ps() < 1'000'000'000) return fmt::format("{:.4g} us", ps * 1e-6);
  if (time.ps() < 1'000'000'000'000) return fmt::format("{:.4g} ms", ps * 1e-9);
  return fmt::format("{:.4g} s", ps * 1e-12);
}

int percent_done(engine::SimTime now, engine::SimTime end) {
  if (end.ps() <= 0 || now >= end) return 100;
  __extension__ using I128 = __int128;
  return static_cast<int>(I128{std::max<engine::SimTime::Rep>(now.ps(), 0)} * 100 / end.ps());
}

std::string eta_text(double seconds) {
  const auto s = static_cast<long long>(std::ceil(std::max(seconds, 0.0)));
  if (s < 60) return fmt::format("ETA {} s", s);
  if (s < 3600) return fmt::format("ETA {} min {} s", s / 60, s % 60);
  return fmt::format("ETA {} h {} min", s / 3600, s % 3600 / 60);
}

std::string progress_text(const engine::Progress& p) {
  const double rate =
      p.wall_seconds > 0 ? static_cast<double>(p.events_committed) / p.wall_seconds : 0;
  const bool has_end = !p.end.is_max() && p.end.ps() > 0;
  const engine::SimTime now = has_end ? std::min(p.now, p.end) : p.now;
  std::string line = "[netwarp] t = " + (now.is_max() ? std::string("end") : sim_time_text(now));
  if (has_end) {
    const double done = now.to_seconds() / p.end.to_seconds();
    line += fmt::format(" of {} ({}%)", sim_time_text(p.end), percent_done(now, p.end));
    if (done > 0.001 && done < 1) line += ", " + eta_text(p.wall_seconds * (1 - done) / done);
  } else {
    line += " (no end_time: total unknown)";
  }
  return line + fmt::format(", {:.2f} M events/s", rate * 1e-6);
}

std::function<void(const engine::Progress&)> make_progress_line(const AppContext& context) {
  // The optimistic kernel sums committed events over ranks for each report, a collective: every
  // rank must agree on having a callback, so rank 0's terminal decides for all.
  const bool wanted = context.exchange->max(context.is_root() && progress_wanted() ? 1 : 0) != 0;
  interrupt::note_simulated_time(0);  // the run starts
  if (!wanted || !context.is_root())
    return [](const engine::Progress& p) { interrupt::note_simulated_time(p.now.ps()); };
  return [](const engine::Progress& p) {
    interrupt::note_simulated_time(p.now.ps());
    std::fprintf(stderr, "\r%-79s", progress_text(p).c_str());
    std::fflush(stderr);
    g_line_drawn = true;
  };
}

bool is_progress_line_drawn() {
  return g_line_drawn;
}

void end_progress_line() {
  if (!g_line_drawn) return;
  std::fprintf(stderr, "\r%79s\r", "");
  std::fflush(stderr);
  g_line_drawn = false;
}

}  // namespace netwarp::apps
