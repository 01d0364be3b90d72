// `netwarp run --sweep`: the points of a grid run in one process, and their table.
#include "run_sweep.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "exit_codes.hpp"
#include "netwarp/engine/rank_exchange.hpp"
#include "netwarp/scenarios/mpi_builder.hpp"
#include "netwarp/validation/validate_run.hpp"
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
  for (const std::string& text : options) {
    try {
      auto [field, field_values] = validation::parse_sweep_option(text);
      for (const std::string& earlier : sweep.fields)
        if (earlier == field) throw UsageError(fmt::format("--sweep: {} is swept twice", field));
      sweep.fields.push_back(std::move(field));
      values.push_back(std::move(field_values));
    } catch (const std::invalid_argument& e) {
      throw UsageError(fmt::format("--sweep: {}", e.what()));
    }
  }
  sweep.points = validation::sweep_grid(values);
  return sweep;
}

RunOptions point_options(const RunOptions& o, const Sweep& sweep, std::size_t i,
                         const std::string& out) {
  RunOptions p = o;
  p.sweeps.clear();
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
           "packets_dropped,retransmission_timeouts,events_processed,wall_seconds,digest\n";
    for (std::size_t i = 0; i < sweep.points.size(); ++i) {
      csv << 'p' << i;
      for (const std::string& value : sweep.points[i]) csv << ',' << csv_field(value);
      csv << ',' << statuses[i] << ",p" << i;
      const PointTotals& t = totals[i];
      if (t.has_results)
        csv << fmt::format(",{},{},{},{},{},{},{},{},{}\n", t.completed, t.messages,
                           t.messages_delivered, t.completion_time_ps, t.packets_dropped,
                           t.retransmission_timeouts, t.events_processed, t.wall_seconds, t.digest);
      else
        csv << ",,,,,,,,,\n";  // no results: the status says why
    }
  });
}

}  // namespace

int run_sweep(const RunOptions& o, const AppContext& context,
              const std::function<int(RunOptions&)>& run_point) {
  if (engine::MpiSession::launched_by_mpirun())
    throw UsageError(
        "--sweep runs its points in one process: not under mpirun (use --threads, or one "
        "mpirun per point with --set)");
  const Sweep sweep = parse_sweeps(o.sweeps);
  // Every point loads before any runs: a bad value stops the sweep with nothing run.
  std::string name;
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    const scenarios::LoadedScenario loaded = load_run_scenario(point_options(o, sweep, i, ""));
    if (scenarios::is_mpi_scenario(loaded) || !o.trace.empty())
      throw UsageError(fmt::format(
          "--sweep: {} runs an MPI program; `netwarp validate --sweep` sweeps those (or one "
          "`netwarp run --set` per point)",
          loaded.path));
    if (i == 0) name = loaded.scenario.name();
  }
  const std::string out = out_dir_or_default(o.out_dir, name, "run");
  if (context.is_root()) {
    create_out_dir(out);
    std::error_code none;
    fs::remove(fs::path(out) / "sweep.csv", none);  // never beside points of another sweep
  }
  std::vector<int> statuses;
  std::vector<PointTotals> totals(sweep.points.size());
  int first_failure = exit_code::kSuccess;
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    RunOptions point = point_options(o, sweep, i, out);
    point.point_totals = &totals[i];
    if (context.is_root())
      std::printf("sweep         point %zu of %zu (p%zu): %s\n", i + 1, sweep.points.size(), i,
                  point_text(sweep, i).c_str());
    statuses.push_back(run_point(point));
    if (first_failure == exit_code::kSuccess) first_failure = statuses.back();
  }
  if (!context.is_root()) return first_failure;
  remove_stale_points(out, sweep.points.size());
  write_sweep_csv(out, sweep, statuses, totals);
  std::printf("sweep         %zu points in %s, their table in %s/sweep.csv\n", sweep.points.size(),
              out.c_str(), out.c_str());
  return first_failure;
}

}  // namespace netwarp::apps
