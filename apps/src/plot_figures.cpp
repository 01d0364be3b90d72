// Figures of a run folder: queue occupancy, utilisation and cwnd over time, the FCT CDF and the
// per-rank breakdown of an MPI run. Legends sit outside the plot area, so they cover no data.
#include "plot_figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "plot_gnuplot.hpp"
#include "plot_tables.hpp"

namespace netwarp::apps {
namespace {

constexpr const char* kCommon =
    "set grid xtics ytics lc rgb '#dddddd'\n"
    "set key outside right top vertical Left reverse noenhanced\n"
    "set border 3\nset tics nomirror\nset termoption noenhanced\n";

// Long runs are drawn in bins of several sampling intervals, about kMaxBins per figure.
constexpr double kMaxBins = 1000;

struct Binning {
  double interval_ps = 0;  // the run's sampling interval
  std::int64_t per_bin = 1;
  double bin_ps() const { return interval_ps * static_cast<double>(per_bin); }
};

Binning binning_for(const PlotInputs& in, double span_ps) {
  Binning b;
  const auto it = in.results->find("sample_interval_ps");
  if (it == in.results->end() || !it->is_number() || it->get<double>() <= 0) return b;
  b.interval_ps = it->get<double>();
  b.per_bin = std::max<std::int64_t>(
      1, static_cast<std::int64_t>(std::ceil(span_ps / b.interval_ps / kMaxBins)));
  return b;
}

std::string duration_text(double ps) {
  if (ps >= 1e9) return fmt::format("{:.4g} ms", ps * 1e-9);
  return fmt::format("{:.4g} us", ps * 1e-6);
}

// "10 us interval", or "2.5 ms (250 intervals of 10 us)".
std::string bin_text(const Binning& b) {
  if (b.interval_ps <= 0) return "interval";
  if (b.per_bin == 1) return duration_text(b.interval_ps) + " interval";
  return fmt::format("{} ({} intervals of {})", duration_text(b.bin_ps()), b.per_bin,
                     duration_text(b.interval_ps));
}

std::string top_text(std::size_t shown, std::size_t total, const std::string& what,
                     const std::string& by) {
  if (shown == total) return fmt::format("all {} {}", total, what);
  return fmt::format("top {} of {} {} by {}", shown, total, what, by);
}

// Series of a time series table, one per key (the given columns joined), ranked by `rank`
// (summed or maximum over the series' rows); rows outside the window are left out.
std::vector<Series> group_rows(const CsvTable& t, const std::vector<std::string>& key_columns,
                               const std::string& rank, bool is_sum, const TimeWindow& window) {
  std::map<std::string, Series> by_key;
  std::vector<std::string> order;
  std::vector<std::size_t> key_at;
  for (const auto& c : key_columns) key_at.push_back(t.column(c));
  const std::size_t rank_at = t.column(rank);
  const std::size_t time_at = t.column("interval_start_ps");
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (!window.contains(t.number(r, time_at))) continue;
    std::string key;
    for (std::size_t k : key_at) key += (key.empty() ? "" : " ") + t.rows[r][k];
    auto [it, is_new] = by_key.try_emplace(key, Series{key, {}, 0});
    if (is_new) order.push_back(key);
    it->second.rows.push_back(r);
    const double v = t.number(r, rank_at);
    it->second.rank_value = is_sum ? it->second.rank_value + v : std::max(it->second.rank_value, v);
  }
  std::vector<Series> all;
  for (const auto& key : order) all.push_back(by_key.at(key));
  return all;
}

double last_time_ps(const CsvTable& t, const std::string& column) {
  double last = 0;
  const std::size_t at = t.column(column);
  for (std::size_t r = 0; r < t.rows.size(); ++r) last = std::max(last, t.number(r, at));
  return last;
}

// The span of simulated time a time figure covers: the window, within the data.
struct Span {
  double from_ps = 0;
  double to_ps = 0;
  double length() const { return to_ps - from_ps; }
};

Span span_of(const CsvTable& t, const TimeWindow& w) {
  const double last = last_time_ps(t, "interval_start_ps");
  return {w.from_ps, std::min(w.to_ps, last)};
}

// The x axis of a time figure: its unit from the span's end, and its range when windowed.
std::string time_axis_commands(const PlotInputs& in, const Span& span, const TimeAxis& axis) {
  std::string out = fmt::format("set xlabel 'time ({})'\n", axis.unit);
  if (in.window.is_set())
    out += fmt::format("set xrange [{:.6g}:{:.6g}]\n", span.from_ps / axis.ps_per_unit,
                       span.to_ps / axis.ps_per_unit);
  return out;
}

std::string window_title(const PlotInputs& in) {
  return in.window_note.empty() ? std::string() : "\n" + in.window_note;
}

// Whether a column's positive values over the series span more than two decades.
bool spans_decades(const CsvTable& t, const std::vector<Series>& series, std::size_t column) {
  double least = INFINITY, most = 0;
  for (const Series& s : series)
    for (std::size_t r : s.rows) {
      const double v = t.number(r, column);
      if (v <= 0) continue;
      least = std::min(least, v);
      most = std::max(most, v);
    }
  return most > 0 && most / least > 100;
}

enum class Fold { max, mean, last, sum };

struct Column {
  std::string name;
  double scale;
  Fold fold;
};

// A series' rows folded into bins: one line per bin with rows ("time value ..."), and with
// `zero_after_gap` a line of zeros after each bin whose next bin has none (steps then drop to
// zero where the port went idle instead of holding the last value).
std::string series_lines(const CsvTable& t, const Series& series, const TimeAxis& axis,
                         const std::vector<Column>& columns, const Binning& bins,
                         bool zero_after_gap) {
  const std::size_t time_at = t.column("interval_start_ps");
  std::vector<std::size_t> at;
  for (const Column& c : columns) at.push_back(t.column(c.name));
  const double width = bins.interval_ps > 0 ? bins.bin_ps() : 1;
  std::string out;
  std::int64_t current = -1;
  std::vector<double> sums(columns.size(), 0);
  const auto line = [&](std::int64_t bin, bool is_zero) {
    out += fmt::format("{:.6g}", static_cast<double>(bin) * width / axis.ps_per_unit);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const double per = columns[c].fold == Fold::mean ? static_cast<double>(bins.per_bin) : 1;
      out += fmt::format(" {:.6g}", is_zero ? 0 : sums[c] / per * columns[c].scale);
    }
    out += '\n';
  };
  for (std::size_t r : series.rows) {
    const auto bin = static_cast<std::int64_t>(t.number(r, time_at) / width);
    if (bin != current) {
      if (current >= 0) line(current, false);
      if (current >= 0 && zero_after_gap && bin > current + 1) line(current + 1, true);
      std::fill(sums.begin(), sums.end(), 0);
      current = bin;
    }
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const double v = t.number(r, at[c]);
      if (columns[c].fold == Fold::max) sums[c] = std::max(sums[c], v);
      if (columns[c].fold == Fold::last) sums[c] = v;
      if (columns[c].fold == Fold::mean || columns[c].fold == Fold::sum) sums[c] += v;
    }
  }
  if (current >= 0) line(current, false);
  if (current >= 0 && zero_after_gap) line(current + 1, true);
  return out;
}

std::string datablocks(const CsvTable& t, const std::vector<Series>& series, const TimeAxis& axis,
                       const std::vector<Column>& columns, const Binning& bins,
                       bool zero_after_gap) {
  std::string out;
  for (std::size_t i = 0; i < series.size(); ++i)
    out += fmt::format("$s{} << EOD\n{}EOD\n", i,
                       series_lines(t, series[i], axis, columns, bins, zero_after_gap));
  return out;
}

std::string plot_steps(const std::vector<Series>& series, int column, const std::string& suffix) {
  std::string out = "plot ";
  for (std::size_t i = 0; i < series.size(); ++i)
    out += fmt::format("{}$s{} using 1:{} with steps lw 2 lc {} title {}", i == 0 ? "" : ", \\\n  ",
                       i, column, i + 1, gnuplot_quoted(series[i].label + suffix));
  return out + "\n";
}

// "sw0 3" -> "sw0 port 3 -> host0"
std::string port_label(const CsvTable& t, const Series& s) {
  std::string label = s.label;
  label.insert(label.rfind(' '), " port");
  return label + " -> " + t.rows[s.rows.front()][t.column("peer")];
}

Figure port_figure(const PlotInputs& in, const std::string& name, const std::string& rank,
                   bool is_sum) {
  Figure f{name + in.suffix, "", ""};
  const CsvTable t = read_csv(in.dir + "/ports_timeseries.csv");
  if (t.rows.empty()) {
    f.note = "no ports_timeseries.csv rows (outputs.sample_interval_ns: 0?)";
    return f;
  }
  std::vector<Series> all = group_rows(t, {"node", "port"}, rank, is_sum, in.window);
  if (all.empty()) {
    f.note = "no port was active in the time window";
    return f;
  }
  const std::size_t total = all.size();
  std::vector<Series> shown = top_series(std::move(all), in.top);
  for (Series& s : shown) s.label = port_label(t, s);
  const Span span = span_of(t, in.window);
  const TimeAxis axis = time_axis_for(span.to_ps);
  const Binning bins = binning_for(in, span.length());
  std::string body = kCommon + time_axis_commands(in, span, axis);
  if (name == "queue_occupancy") {
    body += datablocks(t, shown, axis, {{"max_queue_bytes", 1.0 / 1024, Fold::max}}, bins, true);
    body += fmt::format(
        "set title {}\nset ylabel 'queue occupancy, max per bin (KiB)'\nset yrange [0:*]\n",
        gnuplot_quoted(fmt::format("Output queue occupancy, max per {}\n{}{}", bin_text(bins),
                                   top_text(shown.size(), total, "ports", "peak"),
                                   window_title(in))));
  } else {
    body += datablocks(t, shown, axis, {{"utilisation", 100.0, Fold::mean}}, bins, true);
    body += fmt::format(
        "set title {}\nset ylabel 'link utilisation, mean per bin (%)'\nset yrange [0:105]\n",
        gnuplot_quoted(fmt::format("Link utilisation, mean per {}\n{}{}", bin_text(bins),
                                   top_text(shown.size(), total, "ports", "busy time"),
                                   window_title(in))));
  }
  f.body = body + plot_steps(shown, 2, "");
  return f;
}

// Busy time per sampling interval (the ports' utilisation summed), in time order.
std::map<double, double> busy_per_interval(const CsvTable& t) {
  std::map<double, double> busy;
  const std::size_t time_at = t.column("interval_start_ps");
  const std::size_t util_at = t.column("utilisation");
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const double u = t.number(r, util_at);
    if (u > 0) busy[t.number(r, time_at)] += u;
  }
  return busy;
}

}  // namespace

Figure port_overlay_figure(const std::vector<OverlayRun>& runs, const std::string& name,
                           const TimeWindow& window) {
  const bool queue = name == "queue_occupancy";
  const Column column = queue ? Column{"max_queue_bytes", 1.0 / 1024, Fold::max}
                              : Column{"utilisation", 100.0, Fold::mean};
  Figure f{name, "", ""};
  std::vector<CsvTable> tables;
  double end = 0;
  for (const OverlayRun& run : runs) {
    tables.push_back(read_csv(run.dir + "/ports_timeseries.csv"));
    if (!tables.back().rows.empty()) end = std::max(end, span_of(tables.back(), window).to_ps);
  }
  const TimeAxis axis = time_axis_for(end);
  std::string body = kCommon + fmt::format("set xlabel 'time ({})'\n", axis.unit);
  if (window.is_set())
    body += fmt::format("set xrange [{:.6g}:{:.6g}]\n", window.from_ps / axis.ps_per_unit,
                        std::min(window.to_ps, end) / axis.ps_per_unit);
  std::string plot;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const CsvTable& t = tables[i];
    if (t.rows.empty()) continue;
    std::vector<Series> busiest =
        top_series(group_rows(t, {"node", "port"}, column.name, !queue, window), 1);
    if (busiest.empty()) continue;
    PlotInputs in;
    in.dir = runs[i].dir;
    in.results = runs[i].results;
    in.window = window;
    const Binning bins = binning_for(in, span_of(t, window).length());
    body += fmt::format("$s{} << EOD\n{}EOD\n", i,
                        series_lines(t, busiest.front(), axis, {column}, bins, true));
    plot += fmt::format("{}$s{} using 1:2 with steps lw 2 lc {} title {}",
                        plot.empty() ? "plot " : ", \\\n  ", i, i + 1,
                        gnuplot_quoted(runs[i].label + ": " + port_label(t, busiest.front())));
  }
  if (plot.empty()) {
    f.note = "no run has ports_timeseries.csv rows";
    return f;
  }
  body += fmt::format(
      "set title {}\nset ylabel '{}'\nset yrange [{}]\n",
      gnuplot_quoted(queue ? "Output queue occupancy of each run's busiest port"
                           : "Link utilisation of each run's busiest port"),
      queue ? "queue occupancy, max per bin (KiB)" : "link utilisation, mean per bin (%)",
      queue ? "0:*" : "0:105");
  f.body = body + plot + "\n";
  return f;
}

std::optional<TimeWindow> busiest_interval(const PlotInputs& in) {
  const CsvTable t = read_csv(in.dir + "/ports_timeseries.csv");
  const double interval = in.results->value("sample_interval_ps", 0.0);
  if (t.rows.empty() || interval <= 0) return std::nullopt;
  const std::map<double, double> busy = busy_per_interval(t);
  if (busy.empty()) return std::nullopt;
  const double run = busy.rbegin()->first + interval;
  // Bursts: active intervals with gaps shorter than 20 intervals and 2 % of the run between.
  const double gap = std::max(20 * interval, 0.02 * run);
  TimeWindow best, current{busy.begin()->first, busy.begin()->first};
  double best_busy = -1, current_busy = 0, last = busy.begin()->first;
  for (const auto& [start, amount] : busy) {
    if (start - last > gap) {
      if (current_busy > best_busy) {
        best = current;
        best_busy = current_busy;
      }
      current = {start, start};
      current_busy = 0;
    }
    current.to_ps = start + interval;
    current_busy += amount;
    last = start;
  }
  if (current_busy > best_busy) best = current;
  if (best.to_ps - best.from_ps >= 0.25 * run) return std::nullopt;
  const double margin = 0.05 * (best.to_ps - best.from_ps);
  return TimeWindow{std::max(0.0, best.from_ps - margin), best.to_ps + margin};
}

Figure queue_figure(const PlotInputs& in) {
  return port_figure(in, "queue_occupancy", "max_queue_bytes", false);
}

Figure utilisation_figure(const PlotInputs& in) {
  return port_figure(in, "utilisation", "utilisation", true);
}

// Flows ranked by RTO events alone tie (often all at 0, or all equal in a symmetric incast):
// among equals the flows active last, the stragglers, come first.
void rank_later_last_among_equals(const CsvTable& t, std::vector<Series>& series) {
  const std::size_t time_at = t.column("interval_start_ps");
  const double end = last_time_ps(t, "interval_start_ps") + 1;
  for (Series& s : series) s.rank_value += t.number(s.rows.back(), time_at) / end;
}

Figure cwnd_figure(const PlotInputs& in) {
  Figure f{"cwnd" + in.suffix, "", ""};
  const CsvTable t = read_csv(in.dir + "/flows_timeseries.csv");
  if (t.rows.empty()) {
    f.note = "no flows_timeseries.csv rows (no TCP senders sampled)";
    return f;
  }
  std::vector<Series> all = group_rows(t, {"flow"}, "rto_events", true, in.window);
  if (all.empty()) {
    f.note = "no TCP sender changed in the time window";
    return f;
  }
  rank_later_last_among_equals(t, all);
  const std::size_t total = all.size();
  std::vector<Series> shown = top_series(std::move(all), in.top);
  const std::size_t src = t.column("src"), dst = t.column("dst");
  for (Series& s : shown) {
    const auto& row = t.rows[s.rows.front()];
    s.label = fmt::format("flow {} {}->{}", s.label, row[src], row[dst]);
  }
  const Span span = span_of(t, in.window);
  const TimeAxis axis = time_axis_for(span.to_ps);
  const Binning bins = binning_for(in, span.length());
  std::string body = kCommon + time_axis_commands(in, span, axis);
  body += datablocks(t, shown, axis,
                     {{"cwnd_bytes", 1.0 / 1024, Fold::last}, {"rto_events", 1.0, Fold::sum}}, bins,
                     false);
  body +=
      fmt::format("set title {}\nset ylabel 'cwnd at the end of each bin (KiB)'\n{}",
                  gnuplot_quoted(fmt::format(
                      "TCP congestion window at the end of each {}; x: RTO\n{}{}", bin_text(bins),
                      top_text(shown.size(), total, "flows", "RTO events, then last active"),
                      window_title(in))),
                  spans_decades(t, shown, t.column("cwnd_bytes")) ? "set logscale y 2\n"
                                                                  : "set yrange [0:*]\n");
  std::string plot = plot_steps(shown, 2, "");
  plot.pop_back();
  for (std::size_t i = 0; i < shown.size(); ++i)
    plot += fmt::format(", \\\n  $s{} using 1:($3 > 0 ? $2 : 1/0) with points pt 2 ps 2 lc {} {}",
                        i, i + 1, i == 0 ? "title 'RTO in interval'" : "notitle");
  f.body = body + plot + "\n";
  return f;
}

Figure rank_breakdown_figure(const PlotInputs& in) {
  Figure f{"rank_breakdown", "", ""};
  const auto ranks = in.results->find("ranks");
  if (ranks == in.results->end() || !ranks->is_array() || ranks->empty()) {
    f.note = "not an MPI run (no per-rank breakdown)";
    return f;
  }
  static const std::vector<std::pair<std::string, std::string>> kParts = {
      {"compute_ps", "compute"},
      {"overhead_ps", "overhead (o)"},
      {"send_wait_ps", "send wait"},
      {"recv_wait_ps", "receive wait"},
      {"sync_ps", "synchronisation"}};
  std::string body = kCommon;
  body += "$ranks << EOD\n";
  for (const auto& r : *ranks) {
    body += fmt::format("{}", r.value("rank", 0));
    for (const auto& [key, label] : kParts)
      body += fmt::format(" {:.6g}", r.value(key, 0.0) * 1e-6);
    body += '\n';
  }
  body += "EOD\n";
  body += fmt::format(
      "set title {}\nset xlabel 'rank'\nset ylabel 'time (us)'\nset yrange [0:*]\n"
      "set style data histograms\nset style histogram rowstacked\n"
      "set style fill solid 0.85 border -1\nset boxwidth 0.8\nset xtics rotate by -45\n"
      "set grid noxtics\n",
      gnuplot_quoted(fmt::format("Where each rank's time goes ({} ranks)", ranks->size())));
  std::string plot = "plot ";
  for (std::size_t i = 0; i < kParts.size(); ++i)
    plot += fmt::format("{}$ranks using {}{} title {}", i == 0 ? "" : ", \\\n  ", i + 2,
                        i == 0 ? ":xtic(1)" : "", gnuplot_quoted(kParts[i].second));
  f.body = body + plot + "\n";
  return f;
}

}  // namespace netwarp::apps
