// `netwarp validate`: for each sweep point of a scenario, the packet simulation (ground truth),
// each requested model fitted on the same platform and predicting the same program, and the
// SimGrid (MPI) or ns-3 (network workload) cross-check when asked for; the report of report.hpp.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "netwarp/validation/model_names.hpp"
#include "netwarp/validation/report.hpp"

namespace netwarp::validation {

struct ValidateOptions {
  std::string scenario;
  std::vector<std::string> sets;
  // Each "field=v1,v2,...": together a grid (every combination of the values) that replaces
  // the scenario's validation.sweep; empty: keep that.
  std::vector<std::string> sweeps;
  bool no_sweep = false;   // one point: neither the scenario's sweep nor any --sweep
  bool keep_runs = false;  // each point's packet outputs in out_dir/runs/<point>/
  // timeline_compare.json: none, summary (TimelineLimit::summary(): small enough for the
  // Perfetto UI) or full (every call of every rank).
  std::string timelines = "summary";
  std::string trace;                                 // replaces the scenario's program
  std::optional<std::vector<ModelKind>> models;      // default: the scenario's, else loggps
  std::string out_dir;                               // parameter files go to out_dir/params/
  std::string simgrid_program;                       // netwarp-simgrid; empty: not built
  std::string ns3_program;                           // netwarp-ns3; empty: not built
  std::function<void(const std::string&)> progress;  // one line per step (may be empty)
};

// "field=v1,v2,..." (or "field=v1;v2;..." when a value is a list, e.g. torus dims "10,10") as
// (field, values), each value trimmed; std::invalid_argument when malformed.
std::pair<std::string, std::vector<std::string>> parse_sweep_option(const std::string& text);
// Several --sweep options (fields in the given order, each with its values); also
// std::invalid_argument for a field given twice ("FIELD is swept twice").
std::vector<std::pair<std::string, std::vector<std::string>>> parse_sweep_options(
    const std::vector<std::string>& texts);
// Whether `field` (a --set path) lies in the scenario's MPI program (mpi.pingpong..., the
// `program` oneof), which --trace replaces.
bool is_program_field(const std::string& field);
// Why a --sweep of such a field cannot go with --trace (each caller adds its own advice).
std::string program_sweep_problem(const std::string& field);
// Every combination of several swept fields' values (`values[f]`: field f's), the last field
// varying fastest; one empty point without fields.
std::vector<std::vector<std::string>> sweep_grid(
    const std::vector<std::vector<std::string>>& values);

// Runs everything and writes the parameter files; the caller writes the report.
ValidationReport run_validation(const ValidateOptions& options);

}  // namespace netwarp::validation
