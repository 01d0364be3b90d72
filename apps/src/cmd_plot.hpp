// `netwarp plot DIR [--from T] [--to T] [--top N] [--classes A,B]`: PNG and SVG figures of a
// run folder (queue occupancy, link utilisation and cwnd over time, the FCT CDF, an MPI run's
// per-rank breakdown), drawn by gnuplot into DIR/plots/ beside the gnuplot scripts that made
// them; with idle gaps stretching the run, the time figures once more zoomed on its busiest
// interval (NAME_busy). `netwarp plot DIR_A DIR_B ... [--label A ...] [--out DIR]` overlays the
// runs in one set of figures.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace netwarp::apps {

struct PlotOptions {
  std::vector<std::string> dirs;
  std::vector<std::string> labels;  // --label, one per folder (default: the folder's name)
  std::string out;                  // overlays: where the figures go
  std::size_t top = 8;
  std::string from;  // --from / --to: a time window, with a unit ("4ms")
  std::string to;
  std::vector<std::string> classes;  // FCT CDF per traffic class: these (empty: all)
};

CLI::App* add_plot_command(CLI::App& app, PlotOptions& options);
int plot_command(const PlotOptions& options);

// Draws every figure the run folder has data for; returns the images written. UsageError when
// `dir` holds no results.json or gnuplot cannot draw. Notes (figures left out) go to stderr.
std::vector<std::string> plot_run_folder(const std::string& dir, const PlotOptions& options);

}  // namespace netwarp::apps
