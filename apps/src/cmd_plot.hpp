// `netwarp plot DIR [--top N]`: PNG and SVG figures of a run folder (queue occupancy, link
// utilisation and cwnd over time, the FCT CDF, an MPI run's per-rank breakdown), drawn by
// gnuplot into DIR/plots/ beside the gnuplot scripts that made them.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace netwarp::apps {

struct PlotOptions {
  std::string dir;
  std::size_t top = 8;
};

CLI::App* add_plot_command(CLI::App& app, PlotOptions& options);
int plot_command(const PlotOptions& options);

// Draws every figure the run folder has data for; returns the images written. UsageError when
// `dir` holds no results.json or gnuplot cannot draw. Notes (figures left out) go to stderr.
std::vector<std::string> plot_run_folder(const std::string& dir, std::size_t top);

}  // namespace netwarp::apps
