// `netwarp plot`: the figures of a run folder, or of several overlaid.
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
#include "unit_options.hpp"

namespace netwarp::apps {
namespace {

nlohmann::json read_results(const std::string& dir) {
  const std::string path = dir + "/results.json";
  std::ifstream in(path);
  if (!in && std::ifstream(dir + "/sweep.csv"))
    throw UsageError(fmt::format(
        "plot: {} holds a sweep (sweep.csv): plot one of its points ({}/p0, ...), or give "
        "`netwarp run --sweep` --plot",
        dir, dir));
  if (!in)
    throw UsageError(fmt::format(
        "plot: {} has no results.json (give the folder `netwarp run --out DIR` wrote)", dir));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(fmt::format("plot: {}: not JSON ({})", path, e.what()));
  }
}

double time_option_ps(const std::string& name, const std::string& text, double otherwise) {
  if (text.empty()) return otherwise;
  try {
    return parse_time_with_unit(text, "ps");
  } catch (const std::invalid_argument& e) {
    throw UsageError(fmt::format("{}: {}", name, e.what()));
  }
}

TimeWindow window_of(const PlotOptions& o) {
  const TimeWindow w{time_option_ps("--from", o.from, 0), time_option_ps("--to", o.to, INFINITY)};
  if (w.from_ps < 0 || w.to_ps <= w.from_ps)
    throw UsageError(
        fmt::format("--from, --to: the window must start at >= 0 and end after it, "
                    "got {} to {}",
                    o.from.empty() ? "0" : o.from, o.to.empty() ? "the end" : o.to));
  return w;
}

std::string time_text(double ps) {
  if (ps >= 1e9) return fmt::format("{:.4g} ms", ps * 1e-9);
  return fmt::format("{:.4g} us", ps * 1e-6);
}

// "out/incast/" -> "incast".
std::string folder_name(const std::string& dir) {
  std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
  if (p.filename().empty() && p.has_parent_path()) p = p.parent_path();
  return p.filename().string();
}

std::string make_plots_dir(const std::string& plots) {
  std::error_code error;
  std::filesystem::create_directories(plots, error);
  if (error) throw UsageError(fmt::format("plot: {}: cannot create ({})", plots, error.message()));
  return plots;
}

void draw(const Figure& figure, const std::string& plots,
          const std::vector<ImageTerminal>& terminals, std::vector<std::string>& images) {
  if (figure.body.empty()) {
    std::fprintf(stderr, "netwarp plot: %s left out: %s\n", figure.name.c_str(),
                 figure.note.c_str());
    return;
  }
  for (std::string& image : render_figure(plots, figure.name, figure.body, terminals))
    images.push_back(std::move(image));
}

}  // namespace

CLI::App* add_plot_command(CLI::App& app, PlotOptions& o) {
  CLI::App* plot = app.add_subcommand(
      "plot",
      "Draw a run folder's figures (PNG and SVG via gnuplot) into DIR/plots: queue occupancy, "
      "link utilisation and cwnd over time (and zoomed on the busiest interval, NAME_busy, when "
      "idle gaps stretch the run), the FCT CDF, an MPI run's per-rank breakdown; several "
      "folders: the runs overlaid in --out");
  plot->add_option("dirs", o.dirs, "The folder `netwarp run --out DIR` wrote; several to overlay")
      ->required()
      ->expected(1, -1);
  plot->add_option("--top", o.top, "Draw at most this many ports and flows (the busiest)")
      ->default_val(8)
      ->check(CLI::Range(1, 64));
  plot->add_option("--from", o.from, "Time figures from this simulated time (4ms, 200us, ps)")
      ->transform(time_with_unit("ps"));
  plot->add_option("--to", o.to, "Time figures up to this simulated time (with a unit)")
      ->transform(time_with_unit("ps"));
  plot->add_option("--classes", o.classes,
                   "FCT CDF and slowdown by size: a curve per traffic class (flows.csv's class "
                   "column, results.json's classes), these only "
                   "(comma-separated; default: every class)")
      ->delimiter(',');
  plot->add_option("--label", o.labels,
                   "Overlays: one label per folder, in order (default: the "
                   "folder's name)");
  plot->add_option("--out", o.out, "Overlays: the folder for the figures")
      ->default_str("out/plot-overlay");
  return plot;
}

std::vector<std::string> plot_run_folder(const std::string& dir, const PlotOptions& o) {
  const nlohmann::json results = read_results(dir);
  const std::vector<ImageTerminal> terminals = image_terminals();
  for (const std::string& note : terminal_notes())
    std::fprintf(stderr, "netwarp plot: %s\n", note.c_str());
  const std::string plots = make_plots_dir(dir + "/plots");
  PlotInputs in{dir, &results, o.top, window_of(o), "", "", o.classes};
  if (in.window.is_set())
    in.window_note = fmt::format(
        "from {} to {}", time_text(in.window.from_ps),
        std::isfinite(in.window.to_ps) ? time_text(in.window.to_ps) : std::string("the end"));
  std::vector<std::string> images;
  for (const auto& make : {queue_figure, utilisation_figure, cwnd_figure, fct_figure,
                           slowdown_by_size_figure, rank_breakdown_figure})
    draw(make(in), plots, terminals, images);
  if (in.window.is_set()) return images;
  const std::optional<TimeWindow> busy = busiest_interval(in);
  if (!busy) return images;
  PlotInputs zoom = in;
  zoom.window = *busy;
  zoom.suffix = "_busy";
  const double run_ps = results.value("completion_time_ps", results.value("run_time_ps", 0.0));
  zoom.window_note =
      fmt::format("zoom on the busiest interval, {} to {}, of a run that idle gaps stretch to {}",
                  time_text(busy->from_ps), time_text(busy->to_ps), time_text(run_ps));
  for (const auto& make : {queue_figure, utilisation_figure, cwnd_figure})
    draw(make(zoom), plots, terminals, images);
  return images;
}

int plot_command(const PlotOptions& o) {
  if (o.dirs.size() > 1) {
    if (!o.labels.empty() && o.labels.size() != o.dirs.size())
      throw UsageError(fmt::format("--label: {} labels for {} folders: give one per folder",
                                   o.labels.size(), o.dirs.size()));
    std::vector<OverlayRun> runs;
    std::vector<nlohmann::json> results;
    results.reserve(o.dirs.size());
    for (std::size_t i = 0; i < o.dirs.size(); ++i) results.push_back(read_results(o.dirs[i]));
    for (std::size_t i = 0; i < o.dirs.size(); ++i)
      runs.push_back(
          {o.dirs[i], o.labels.empty() ? folder_name(o.dirs[i]) : o.labels[i], &results[i]});
    const std::vector<ImageTerminal> terminals = image_terminals();
    const std::string out = make_plots_dir(o.out.empty() ? "out/plot-overlay" : o.out);
    std::vector<std::string> images;
    const TimeWindow window = window_of(o);
    for (const Figure& figure :
         {fct_overlay_figure(runs), port_overlay_figure(runs, "queue_occupancy", window),
          port_overlay_figure(runs, "utilisation", window)})
      draw(figure, out, terminals, images);
    std::printf("plots         %zu files in %s\n", images.size(), out.c_str());
    for (const std::string& image : images) std::printf("  %s\n", image.c_str());
    return exit_code::kSuccess;
  }
  const std::vector<std::string> images = plot_run_folder(o.dirs.front(), o);
  std::printf("plots         %zu files in %s/plots\n", images.size(), o.dirs.front().c_str());
  for (const std::string& image : images) std::printf("  %s\n", image.c_str());
  return exit_code::kSuccess;
}

}  // namespace netwarp::apps
