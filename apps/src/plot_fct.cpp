// The flow completion time CDF of a run: fct_cdf.csv, or per traffic class from flows.csv when
// it has a `class` column. FCTs spread over decades (a 0.07 ms median beside a 200 ms timeout),
// so the x axis is always logarithmic.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "plot_figures.hpp"
#include "plot_gnuplot.hpp"
#include "plot_tables.hpp"

namespace netwarp::apps {
namespace {

constexpr const char* kCommon =
    "set grid xtics ytics mxtics lc rgb '#dddddd'\n"
    "set key outside right top vertical Left reverse noenhanced\n"
    "set border 3\nset tics nomirror\nset termoption noenhanced\n";

// Sorted FCTs (ps) of the delivered messages of each class, from flows.csv.
std::map<std::string, std::vector<double>> fcts_by_class(const CsvTable& flows,
                                                         const std::vector<std::string>& wanted) {
  std::map<std::string, std::vector<double>> by_class;
  const std::size_t cls = flows.column("class");
  const std::size_t start = flows.column("start_ps");
  const std::size_t delivered = flows.column("delivered_ps");
  for (std::size_t r = 0; r < flows.rows.size(); ++r) {
    const std::string& name = flows.rows[r][cls];
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), name) == wanted.end()) continue;
    const std::string& end = flows.rows[r][delivered];
    if (end.empty() || end == "-1") continue;
    by_class[name].push_back(flows.number(r, delivered) - flows.number(r, start));
  }
  for (auto& [name, fcts] : by_class) std::sort(fcts.begin(), fcts.end());
  return by_class;
}

// A CDF as steps: from (first, 0) up to (last, 1).
std::string cdf_block(const std::string& name, const std::vector<double>& sorted,
                      const TimeAxis& axis) {
  std::string out = fmt::format("${} << EOD\n{:.6g} 0\n", name, sorted.front() / axis.ps_per_unit);
  for (std::size_t i = 0; i < sorted.size(); ++i)
    out += fmt::format("{:.6g} {:.6g}\n", sorted[i] / axis.ps_per_unit,
                       static_cast<double>(i + 1) / static_cast<double>(sorted.size()));
  return out + "EOD\n";
}

std::string stats_text(const PlotInputs& in, const TimeAxis& axis) {
  const auto it = in.results->find("flow_completion");
  if (it == in.results->end() || !it->contains("p50_ps")) return {};
  const auto at = [&](const char* key) { return (*it)[key].get<double>() / axis.ps_per_unit; };
  return fmt::format(": p50 {:.4g} {}, p99 {:.4g} {}, max {:.4g} {}", at("p50_ps"), axis.unit,
                     at("p99_ps"), axis.unit, at("max_ps"), axis.unit);
}

}  // namespace

Figure fct_figure(const PlotInputs& in) {
  Figure f{"fct_cdf", "", ""};
  const CsvTable t = read_csv(in.dir + "/fct_cdf.csv");
  if (t.rows.empty()) {
    f.note = "no fct_cdf.csv rows (no message delivered, or an MPI run)";
    return f;
  }
  std::vector<double> all;
  const std::size_t fct = t.column("fct_ps");
  for (std::size_t r = 0; r < t.rows.size(); ++r) all.push_back(t.number(r, fct));
  std::sort(all.begin(), all.end());
  const TimeAxis axis = time_axis_for(all.back());
  std::map<std::string, std::vector<double>> classes;
  const CsvTable flows = read_csv(in.dir + "/flows.csv");
  if (std::find(flows.columns.begin(), flows.columns.end(), "class") != flows.columns.end())
    classes = fcts_by_class(flows, in.classes);
  std::string body = kCommon + cdf_block("all", all, axis);
  std::string plot = "plot $all using 1:2 with steps lw 2 lc 1 title 'all flows'";
  int i = 0;
  for (const auto& [name, fcts] : classes) {
    if (fcts.empty()) continue;
    body += cdf_block(fmt::format("c{}", i), fcts, axis);
    plot += fmt::format(", \\\n  $c{} using 1:2 with steps lw 2 dt 2 lc {} title {}", i, i + 2,
                        gnuplot_quoted(fmt::format("class {} ({} flows)", name, fcts.size())));
    ++i;
  }
  body += fmt::format(
      "set title {}\nset xlabel 'flow completion time ({}, log scale)'\n"
      "set ylabel 'fraction of flows'\nset yrange [0:1.05]\nset logscale x\n",
      gnuplot_quoted(
          fmt::format("Flow completion time CDF, {} flows{}", t.rows.size(), stats_text(in, axis))),
      axis.unit);
  f.body = body + plot + "\n";
  return f;
}

Figure fct_overlay_figure(const std::vector<OverlayRun>& runs) {
  Figure f{"fct_cdf", "", ""};
  std::vector<std::vector<double>> fcts;
  double last = 0;
  for (const OverlayRun& run : runs) {
    const CsvTable t = read_csv(run.dir + "/fct_cdf.csv");
    std::vector<double>& mine = fcts.emplace_back();
    if (t.rows.empty()) continue;
    const std::size_t fct = t.column("fct_ps");
    for (std::size_t r = 0; r < t.rows.size(); ++r) mine.push_back(t.number(r, fct));
    std::sort(mine.begin(), mine.end());
    last = std::max(last, mine.back());
  }
  const TimeAxis axis = time_axis_for(last);
  std::string body = kCommon, plot;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (fcts[i].empty()) continue;
    body += cdf_block(fmt::format("r{}", i), fcts[i], axis);
    plot += fmt::format(
        "{}$r{} using 1:2 with steps lw 2 lc {} title {}", plot.empty() ? "plot " : ", \\\n  ", i,
        i + 1, gnuplot_quoted(fmt::format("{} ({} flows)", runs[i].label, fcts[i].size())));
  }
  if (plot.empty()) {
    f.note = "no run has fct_cdf.csv rows";
    return f;
  }
  body += fmt::format(
      "set title 'Flow completion time CDF of each run'\n"
      "set xlabel 'flow completion time ({}, log scale)'\nset ylabel 'fraction of flows'\n"
      "set yrange [0:1.05]\nset logscale x\n",
      axis.unit);
  f.body = body + plot + "\n";
  return f;
}

}  // namespace netwarp::apps
