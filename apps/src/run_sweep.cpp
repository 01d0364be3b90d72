// `netwarp run --sweep`: the points of a grid run in one process, and their table.
#include "run_sweep.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "exit_codes.hpp"
#include "failure_status.hpp"
#include "netwarp/engine/rank_exchange.hpp"
#include "netwarp/validation/validate_run.hpp"
#include "progress_line.hpp"
#include "run_report.hpp"

namespace netwarp::apps {
namespace {

namespace fs = std::filesystem;

struct Sweep {
  std::vector<std::string> fields;
  std::vector<std::vector<std::string>> points;  // a value per field
};

Sweep parse_sweeps(const std::vector<std::string>& options) {
  Sweep sweep;
  std::vector<std::vector<std::string>> values;
  try {
    for (auto& [field, field_values] : validation::parse_sweep_options(options)) {
      sweep.fields.push_back(std::move(field));
      values.push_back(std::move(field_values));
    }
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("--sweep: {}", e.what()));
  }
  sweep.points = validation::sweep_grid(values);
  return sweep;
}

RunOptions point_options(const RunOptions& o, const Sweep& sweep, std::size_t i,
                         const std::string& out) {
  RunOptions p = o;
  p.sweeps.clear();
  p.loaded = nullptr;
  for (std::size_t f = 0; f < sweep.fields.size(); ++f)
    p.sets.push_back(sweep.fields[f] + "=" + sweep.points[i][f]);
  p.out_dir = (fs::path(out) / fmt::format("p{}", i)).string();
  return p;
}

std::string point_text(const Sweep& sweep, std::size_t i) {
  std::string text;
  for (std::size_t f = 0; f < sweep.fields.size(); ++f)
    text += fmt::format("{}{}={}", f == 0 ? "" : " ", sweep.fields[f], sweep.points[i][f]);
  return text;
}

// A CSV field: quoted when it holds a comma, a quote or a line break ("10,10").
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// The run folders OUT/p<k> of points past this sweep's, left by a larger sweep into OUT.
void remove_stale_points(const std::string& out, std::size_t points) {
  for (std::size_t k = points;; ++k) {
    const fs::path stale = fs::path(out) / fmt::format("p{}", k);
    std::error_code none;
    if (!fs::exists(stale / "results.json", none)) return;
    fs::remove_all(stale, none);
  }
}

void write_sweep_csv(const std::string& out, const Sweep& sweep, const std::vector<int>& statuses,
                     const std::vector<PointTotals>& totals) {
  write_file_atomically((fs::path(out) / "sweep.csv").string(), [&](std::ostream& csv) {
    csv << "point";
    for (const std::string& field : sweep.fields) csv << ',' << csv_field(field);
    csv << ",exit_status,folder,completed,messages,messages_delivered,completion_time_ps,"
           "mpi_run_time_ps,packets_dropped,retransmission_timeouts,events_processed,"
           "wall_seconds,digest\n";
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
      csv << 'p' << i;
      for (const std::string& value : sweep.points[i]) csv << ',' << csv_field(value);
      csv << ',' << statuses[i] << ",p" << i;
      const PointTotals& t = totals[i];
      if (t.has_results)
        csv << fmt::format(",{},{},{},{},{},{},{},{},{},{}\n", t.completed, t.messages,
                           t.messages_delivered, t.completion_time_ps,
                           t.mpi_run_time_ps >= 0 ? std::to_string(t.mpi_run_time_ps) : "",
                           t.packets_dropped, t.retransmission_timeouts, t.events_processed,
                           t.wall_seconds, t.digest);
      else
        csv << ",,,,,,,,,,\n";  // no results: the status says why
    }
  });
}

// A point's totals through a pipe from its process: one line of text.
std::string totals_line(const PointTotals& t) {
  return fmt::format("{:d} {:d} {} {} {} {} {} {} {} {} {}\n", t.has_results, t.completed,
                     t.messages, t.messages_delivered, t.completion_time_ps, t.mpi_run_time_ps,
                     t.packets_dropped, t.retransmission_timeouts, t.events_processed,
                     t.wall_seconds, t.digest.empty() ? "-" : t.digest);
}

PointTotals totals_of_line(const std::string& line) {
  PointTotals t;
  std::istringstream in(line);
  in >> t.has_results >> t.completed >> t.messages >> t.messages_delivered >>
      t.completion_time_ps >> t.mpi_run_time_ps >> t.packets_dropped >> t.retransmission_timeouts >>
      t.events_processed >> t.wall_seconds >> t.digest;
  if (!in) return PointTotals{};  // the process ended before it wrote them: no results
  return t;
}

std::string read_all(int fd) {
  std::string text;
  char buffer[512];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) {
      text.append(buffer, static_cast<std::size_t>(got));
    } else if (got == 0 || errno != EINTR) {
      return text;
    }
  }
}

// A point's process that cannot be started: the machine's limit, not the sweep's settings.
UsageError cannot_start(std::size_t point) {
  return UsageError(fmt::format("--jobs: cannot start the process of p{}: {} (lower --jobs)", point,
                                std::strerror(errno)));
}

void print_point(const Sweep& sweep, std::size_t i) {
  std::printf("sweep         point %zu of %zu (p%zu): %s\n", i + 1, sweep.points.size(), i,
              point_text(sweep, i).c_str());
}

// Up to `jobs` points at a time, each in a child process forked from this one (which holds no
// other thread now): the child runs the point as the sequential loop would, turns a failure into
// its one line and status as main() does, hands its totals up a pipe and exits with the status.
void run_side_by_side(const RunOptions& o, const AppContext& context, const Sweep& sweep,
                      const std::vector<scenarios::LoadedScenario>& loaded, const std::string& out,
                      const std::function<int(RunOptions&)>& run_point, std::vector<int>& statuses,
                      std::vector<PointTotals>& totals) {
  struct Child {
    std::size_t point;
    int totals_fd;
  };
  std::map<pid_t, Child> running;
  std::size_t next = 0;
  while (next < sweep.points.size() || !running.empty()) {
    while (running.size() < static_cast<std::size_t>(o.jobs) && next < sweep.points.size()) {
      int fds[2];
      if (::pipe2(fds, O_CLOEXEC) != 0) throw cannot_start(next);
      std::fflush(nullptr);  // nothing buffered here is written twice
      const pid_t sweep_pid = ::getpid();
      const pid_t pid = ::fork();
      if (pid < 0) {
        const UsageError failed = cannot_start(next);
        ::close(fds[0]);
        ::close(fds[1]);
        throw failed;
      }
      if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);                             // ends with the sweep
        if (::getppid() != sweep_pid) ::_exit(exit_code::kTerminated);  // it ended already
        ::close(fds[0]);
        // Its lines leave in one write at its end, whole even on a terminal beside the others.
        std::setvbuf(stdout, nullptr, _IOFBF, std::size_t{1} << 16);
        turn_progress_line_off();  // the others' would overwrite it
        RunOptions point = point_options(o, sweep, next, out);
        point.loaded = &loaded[next];
        PointTotals kept;
        point.point_totals = &kept;
        print_point(sweep, next);
        int status = exit_code::kInternal;
        try {
          status = run_point(point);
        } catch (...) {
          status = failure_status(context);
        }
        const std::string line = totals_line(kept);
        [[maybe_unused]] const ssize_t sent = ::write(fds[1], line.data(), line.size());
        std::fflush(nullptr);
        ::_exit(status);
      }
      ::close(fds[1]);
      running.emplace(pid, Child{next, fds[0]});
      ++next;
    }
    int wait_status = 0;
    const pid_t ended = ::waitpid(-1, &wait_status, 0);
    if (ended < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(fmt::format("--jobs: waitpid: {}", std::strerror(errno)));
    }
    const auto child = running.find(ended);
    if (child == running.end()) continue;
    const std::size_t i = child->second.point;
    statuses[i] = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
    totals[i] = totals_of_line(read_all(child->second.totals_fd));
    ::close(child->second.totals_fd);
    running.erase(child);
  }
}

}  // namespace

PointTotals point_totals(const netmodels::NetworkTotals& network, const engine::RunStats& stats) {
  PointTotals t;
  t.has_results = true;
  t.completed = network.messages_delivered == network.messages;
  t.messages = network.messages;
  t.messages_delivered = network.messages_delivered;
  t.completion_time_ps = network.completion_time_ps;
  t.packets_dropped = network.packets_dropped;
  t.retransmission_timeouts = network.retransmission_timeouts;
  t.events_processed = stats.events_processed;
  t.wall_seconds = stats.wall_seconds;
  t.digest = stats.digest;
  return t;
}

int run_sweep(const RunOptions& o, const AppContext& context,
              const std::function<int(RunOptions&)>& run_point) {
  if (engine::MpiSession::launched_by_mpirun())
    throw UsageError(
        "--sweep runs its points in one process: not under mpirun (use --threads, or one "
        "mpirun per point with --set)");
  if (o.jobs > 1 && context.threads)
    throw UsageError(
        "--jobs runs sweep points as processes forked from this one: not with --threads (give "
        "one of them)");
  const Sweep sweep = parse_sweeps(o.sweeps);
  for (const std::string& field : sweep.fields)
    if (!o.trace.empty() && validation::is_program_field(field))
      throw UsageError(fmt::format("--sweep: {}; sweep a platform field",
                                   validation::program_sweep_problem(field)));
  // Every point loads before any runs: a bad value stops the sweep with nothing run. The points
  // run with what loaded here.
  std::vector<scenarios::LoadedScenario> loaded;
  for (std::size_t i = 0; i < sweep.points.size(); ++i)
    loaded.push_back(load_run_scenario(point_options(o, sweep, i, "")));
  const std::string out = out_dir_or_default(o.out_dir, loaded.front().scenario.name(), "run");
  if (context.is_root()) {
    create_out_dir(out);
    std::error_code none;
    fs::remove(fs::path(out) / "sweep.csv", none);  // never beside points of another sweep
  }
  std::vector<int> statuses(sweep.points.size(), exit_code::kSuccess);
  std::vector<PointTotals> totals(sweep.points.size());
  if (o.jobs > 1 && sweep.points.size() > 1) {
    run_side_by_side(o, context, sweep, loaded, out, run_point, statuses, totals);
  } else {
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
      RunOptions point = point_options(o, sweep, i, out);
      point.loaded = &loaded[i];
      point.point_totals = &totals[i];
      if (context.is_root()) print_point(sweep, i);
      statuses[i] = run_point(point);
    }
  }
  int first_failure = exit_code::kSuccess;
  for (const int status : statuses)
    if (first_failure == exit_code::kSuccess) first_failure = status;
  if (!context.is_root()) return first_failure;
  remove_stale_points(out, sweep.points.size());
  write_sweep_csv(out, sweep, statuses, totals);
  std::printf("sweep         %zu points in %s, their table in %s/sweep.csv\n", sweep.points.size(),
              out.c_str(), out.c_str());
  return first_failure;
}

}  // namespace netwarp::apps
