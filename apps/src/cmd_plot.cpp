// `netwarp plot`: the figures of a run folder.
#include "cmd_plot.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app_context.hpp"
#include "exit_codes.hpp"
#include "plot_figures.hpp"
#include "plot_gnuplot.hpp"

namespace netwarp::apps {
namespace {

nlohmann::json read_results(const std::string& dir) {
  const std::string path = dir + "/results.json";
  std::ifstream in(path);
  if (!in)
    throw UsageError(fmt::format(
        "plot: {} has no results.json (give the folder `netwarp run --out DIR` wrote)", dir));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(fmt::format("plot: {}: not JSON ({})", path, e.what()));
  }
}

}  // namespace

CLI::App* add_plot_command(CLI::App& app, PlotOptions& o) {
  CLI::App* plot = app.add_subcommand(
      "plot",
      "Draw a run folder's figures (PNG and SVG via gnuplot) into DIR/plots: queue occupancy, "
      "link utilisation and cwnd over time, the FCT CDF, an MPI run's per-rank breakdown");
  plot->add_option("dir", o.dir, "The folder `netwarp run --out DIR` wrote")->required();
  plot->add_option("--top", o.top, "Draw at most this many ports and flows (the busiest)")
      ->default_val(8)
      ->check(CLI::Range(1, 64));
  return plot;
}

std::vector<std::string> plot_run_folder(const std::string& dir, std::size_t top) {
  const nlohmann::json results = read_results(dir);
  const std::vector<ImageTerminal> terminals = image_terminals();
  for (const std::string& note : terminal_notes())
    std::fprintf(stderr, "netwarp plot: %s\n", note.c_str());
  const std::string plots = dir + "/plots";
  std::error_code error;
  std::filesystem::create_directories(plots, error);
  if (error) throw UsageError(fmt::format("plot: {}: cannot create ({})", plots, error.message()));
  const PlotInputs in{dir, &results, top};
  std::vector<std::string> images;
  for (const auto& make :
       {queue_figure, utilisation_figure, cwnd_figure, fct_figure, rank_breakdown_figure}) {
    const Figure figure = make(in);
    if (figure.body.empty()) {
      std::fprintf(stderr, "netwarp plot: %s left out: %s\n", figure.name.c_str(),
                   figure.note.c_str());
      continue;
    }
    for (std::string& image : render_figure(plots, figure.name, figure.body, terminals))
      images.push_back(std::move(image));
  }
  return images;
}

int plot_command(const PlotOptions& o) {
  const std::vector<std::string> images = plot_run_folder(o.dir, o.top);
  std::printf("plots         %zu files in %s/plots\n", images.size(), o.dir.c_str());
  for (const std::string& image : images) std::printf("  %s\n", image.c_str());
  return exit_code::kSuccess;
}

}  // namespace netwarp::apps
