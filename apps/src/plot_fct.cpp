// The flow completion time CDF of a run: fct_cdf.csv, or per traffic class from flows.csv when
// it has a `class` column. FCTs spread over decades (a 0.07 ms median beside a 200 ms timeout),
// so the x axis is always logarithmic.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
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

namespace netwarp::apps {
namespace {

std::string size_text(std::uint64_t bytes) {
  if (bytes >= 1'000'000 && bytes % 100'000 == 0) return fmt::format("{:g} MB", bytes / 1e6);
  if (bytes >= 1'000 && bytes % 100 == 0) return fmt::format("{:g} KB", bytes / 1e3);
  return fmt::format("{} B", bytes);
}

// "<= 1460 B", "1460 B - 10 KB", "> 1 MB": a bucket of results.json's slowdown_by_size.
std::string bucket_label(const nlohmann::json& bucket) {
  const auto low = bucket["min_bytes_exclusive"].get<std::uint64_t>();
  if (bucket["max_bytes"].is_null()) return "> " + size_text(low);
  const auto high = bucket["max_bytes"].get<std::uint64_t>();
  return low == 0 ? "<= " + size_text(high) : size_text(low) + " - " + size_text(high);
}

// The workload classes of results.json that have flows by size (the MPI job's entry has none).
std::vector<const nlohmann::json*> classes_by_size(const PlotInputs& in) {
  std::vector<const nlohmann::json*> out;
  const auto it = in.results->find("classes");
  if (it == in.results->end()) return out;
  for (const nlohmann::json& c : *it) {
    if (!c.contains("slowdown_by_size")) continue;
    const std::string name = c["name"].get<std::string>();
    if (!in.classes.empty() &&
        std::find(in.classes.begin(), in.classes.end(), name) == in.classes.end())
      continue;
    out.push_back(&c);
  }
  return out;
}

}  // namespace

// FCT slowdown at p50 (solid) and p99 (dashed) per flow-size bucket, a pair of lines per class
// (Parsimon's and m3's figure); the y axis logarithmic when the values span a decade or more.
Figure slowdown_by_size_figure(const PlotInputs& in) {
  Figure f{"slowdown_by_size", "", ""};
  const std::vector<const nlohmann::json*> classes = classes_by_size(in);
  if (classes.empty()) {
    f.note = "no traffic classes with delivered flows in results.json";
    return f;
  }
  const nlohmann::json& buckets = (*classes.front())["slowdown_by_size"];
  std::string xtics;
  for (std::size_t b = 0; b < buckets.size(); ++b)
    xtics +=
        fmt::format("{}{} {}", b == 0 ? "" : ", ", gnuplot_quoted(bucket_label(buckets[b])), b);
  std::string body = kCommon, plot;
  double low = INFINITY, high = 0;
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const nlohmann::json& c = *classes[i];
    std::string rows;
    for (std::size_t b = 0; b < c["slowdown_by_size"].size(); ++b) {
      const nlohmann::json& s = c["slowdown_by_size"][b]["slowdown"];
      if (s["count"].get<std::uint64_t>() == 0) continue;
      const double p50 = s["p50"].get<double>(), p99 = s["p99"].get<double>();
      low = std::min(low, p50);
      high = std::max(high, p99);
      rows += fmt::format("{} {:.6g} {:.6g} {}\n", b, p50, p99, s["count"].get<std::uint64_t>());
    }
    if (rows.empty()) continue;
    body += fmt::format("$c{} << EOD\n{}EOD\n", i, rows);
    const std::string name = c["name"].get<std::string>();
    plot += fmt::format(
        "{}$c{} using 1:2 with linespoints lw 2 pt 7 lc {} title {}, \\\n"
        "  $c{} using 1:3 with linespoints lw 2 dt 2 pt 6 lc {} title {}",
        plot.empty() ? "plot " : ", \\\n  ", i, i + 1, gnuplot_quoted("class " + name + " p50"), i,
        i + 1, gnuplot_quoted("class " + name + " p99"));
  }
  if (plot.empty()) {
    f.note = "no class delivered a flow";
    return f;
  }
  const bool log_y = high >= 10 * low && low > 0;
  body += fmt::format(
      "set title 'FCT slowdown by flow size (p50 solid, p99 dashed)'\n"
      "set xlabel 'flow size'\nset ylabel 'FCT slowdown{}'\nset xtics ({})\n"
      "set xrange [-0.5:{}.5]\n{}",
      log_y ? " (log scale)" : "", xtics, buckets.size() - 1,
      log_y ? "set logscale y\n" : "set yrange [0:*]\n");
  f.body = body + plot + "\n";
  return f;
}

}  // namespace netwarp::apps
