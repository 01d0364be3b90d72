// The plots of a validation report, drawn by gnuplot (PNG and SVG). Without a sweep, a bar chart
// of the run times. Over a sweep (one field, or each field of a grid) the run times above each
// model's error in %, and for a packet network that lost packets the retransmission timeouts
// above the drops, per point. The swept values are the ticks, in units when the field has one
// (KiB, MiB; ns, us, ms); sizes and times spread over more than a factor 8, other numbers over
// two decades, lie on a log axis; an axis of names is categorical (points, no lines joining
// them). Legends sit outside the data.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "netwarp/validation/report.hpp"

namespace netwarp::validation {
namespace {

struct PlotFile {
  std::string stem;  // report, report-<field>: stem.dat, stem.gp, stem.png, stem.svg
  std::string data;
  std::string script;  // without terminal and output: drawn once for PNG, once for SVG
  std::string size = "1000,800";
};

bool is_number(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0';
}

std::string us_value(std::int64_t ps) {
  return fmt::format("{}", static_cast<double>(ps) / 1e6);
}

// The unit run times are drawn in (the data files keep us): the largest value's, so that
// ticks read "3 s" rather than "3e+06 us".
struct RunTimeUnit {
  const char* name = "us";
  double us_per_unit = 1;
};

RunTimeUnit run_time_unit(const ValidationReport& r) {
  std::int64_t most = 0;
  for (const auto& p : r.points) {
    most = std::max(most, p.simulated_ps);
    for (const auto& m : p.models)
      if (m.available) most = std::max(most, m.predicted_ps);
  }
  if (most >= 1'000'000'000'000) return {"s", 1e6};
  if (most >= 1'000'000'000) return {"ms", 1e3};
  return {};
}

std::string file_safe(const std::string& field) {
  std::string out;
  for (char c : field) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

// What a field's number means, from its name: bytes, or a time (picoseconds per unit).
struct FieldUnit {
  bool is_bytes = false;
  double ps_per_unit = 0;  // > 0: a time
};

FieldUnit unit_of(const std::string& field) {
  const std::string last = field.substr(field.rfind('.') + 1);
  if (last.ends_with("bytes")) return {true, 0};
  const std::pair<const char*, double> times[] = {
      {"_ps", 1}, {"_ns", 1e3}, {"_us", 1e6}, {"_ms", 1e9}, {"_s", 1e12}};
  for (const auto& [suffix, ps] : times)
    if (last.ends_with(suffix)) return {false, ps};
  return {};
}

// "16 KiB", "1 MiB", "200 ms": the value in the largest unit it reaches.
std::string tick_label(const std::string& value, const FieldUnit& unit) {
  if (!is_number(value)) return value;
  const double v = std::strtod(value.c_str(), nullptr);
  if (unit.is_bytes) {
    const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double scaled = v;
    int i = 0;
    while (i < 4 && std::abs(scaled) >= 1024) {
      scaled /= 1024;
      ++i;
    }
    return fmt::format("{:g} {}", scaled, names[i]);
  }
  if (unit.ps_per_unit > 0) {
    const double ps = v * unit.ps_per_unit;
    const std::pair<const char*, double> names[] = {
        {"s", 1e12}, {"ms", 1e9}, {"us", 1e6}, {"ns", 1e3}};
    for (const auto& [name, per] : names)
      if (std::abs(ps) >= per) return fmt::format("{:g} {}", ps / per, name);
    return fmt::format("{:g} ps", ps);
  }
  return value;
}

// The x axis of one swept field: its distinct values (first-seen order) as the ticks.
struct Axis {
  std::vector<std::string> values;
  bool numeric = true;
  bool log = false;
  std::string coordinate(const std::string& value) const {
    if (numeric) return value;
    return std::to_string(std::find(values.begin(), values.end(), value) - values.begin());
  }
  // Numbers are joined by lines; names are categories, drawn as points only.
  const char* style() const { return numeric ? "linespoints" : "points"; }
};

Axis make_axis(const std::vector<std::string>& values, const std::string& field) {
  Axis a;
  for (const auto& v : values)
    if (std::find(a.values.begin(), a.values.end(), v) == a.values.end()) a.values.push_back(v);
  a.numeric = std::all_of(a.values.begin(), a.values.end(), is_number);
  if (!a.numeric || a.values.size() < 2) return a;
  double least = INFINITY, most = 0;
  for (const auto& v : a.values) {
    const double x = std::strtod(v.c_str(), nullptr);
    if (x <= 0) return a;
    least = std::min(least, x);
    most = std::max(most, x);
  }
  const FieldUnit unit = unit_of(field);
  a.log = most / least >= (unit.is_bytes || unit.ps_per_unit > 0 ? 8 : 100);
  return a;
}

std::string axis_commands(const Axis& a, const std::string& field, const std::string& label) {
  const FieldUnit unit = unit_of(field);
  std::string tics;
  std::size_t longest = 0;
  for (const auto& v : a.values) {
    const std::string text = tick_label(v, unit);
    longest = std::max(longest, text.size());
    tics += fmt::format("{}\"{}\" {}", tics.empty() ? "" : ", ", text, a.coordinate(v));
  }
  std::string sc =
      fmt::format("set xlabel \"{}\" noenhanced\nset xtics ({}) noenhanced\n", label, tics);
  if (a.values.size() * (longest + 2) > 60) sc += "set xtics rotate by -30\n";
  sc += "set autoscale xfix\n";
  sc += a.log ? "set logscale x\nset offsets graph 0.04, graph 0.04, 0, 0\n"
              : "unset logscale x\nset offsets graph 0.06, graph 0.06, 0, 0\n";
  return sc;
}

// Plot area left, legend in the right margin: nothing covers the data; both panels of a
// multiplot share the same margins, so their x axes line up.
constexpr const char* kLayout =
    "set lmargin at screen 0.10\nset rmargin at screen 0.66\nset grid\nset format y '%g'\n"
    "set key outside right top Left reverse noenhanced\n";

// Times over two decades or more read better on a log scale.
bool spans_decades(const ValidationReport& r) {
  double least = 0, most = 0;
  const auto see = [&](std::int64_t ps) {
    if (ps <= 0) return;
    const auto v = static_cast<double>(ps);
    least = least == 0 ? v : std::min(least, v);
    most = std::max(most, v);
  };
  for (const auto& p : r.points) {
    see(p.simulated_ps);
    for (const auto& m : p.models)
      if (m.available) see(m.predicted_ps);
  }
  return least > 0 && most / least >= 100;
}

bool has_losses(const ValidationReport& r) {
  return std::any_of(r.points.begin(), r.points.end(), [](const SweepPointResult& p) {
    return p.counters.packets_dropped + p.counters.retransmission_timeouts > 0;
  });
}

// Times of one point: simulated, then each model (NaN when unavailable).
std::string times_columns(const SweepPointResult& p) {
  std::string row = us_value(p.simulated_ps);
  for (const auto& m : p.models) {
    row += ' ';  // not ' ' + string&&: GCC 12 warns (-Wrestrict) on it
    row += m.available ? us_value(m.predicted_ps) : std::string("NaN");
  }
  return row;
}

std::string loss_columns(const SweepPointResult& p) {
  return fmt::format("{} {} {} {}", p.counters.retransmission_timeouts, p.counters.fast_retransmits,
                     p.counters.packets_dropped, p.counters.retransmitted_segments);
}

// No sweep: one bar per source (packet, each model), not a point on a meaningless axis.
PlotFile bar_chart(const ValidationReport& r) {
  const SweepPointResult& p = r.points.front();
  PlotFile f{"report", "# source run_time_us\n\"packet\" " + us_value(p.simulated_ps) + "\n", "",
             "900,600"};
  for (const auto& m : p.models)
    if (m.available)
      f.data +=
          fmt::format("\"{} ({:+.1f} %)\" {}\n", m.model, m.error_pct, us_value(m.predicted_ps));
  const RunTimeUnit unit = run_time_unit(r);
  f.script = fmt::format(
      "set title \"{0}: predicted vs simulated run time\" noenhanced\nset ylabel \"run time "
      "({1})\"\nset style fill solid 0.6 border -1\nset boxwidth 0.6\nset yrange [0:*]\n"
      "set grid ytics\nset xtics noenhanced\nset offsets 0.5, 0.5, graph 0.08, 0\n"
      "plot 'report.dat' using 0:($2/{2}):xtic(1) with boxes notitle, '' using "
      "0:($2/{2}):(sprintf(\"%.3f {1}\", $2/{2})) with labels offset 0,1 notitle\n",
      r.scenario, unit.name, unit.us_per_unit);
  return f;
}

// A line (one field) or a group of lines (a grid: one per combination of the other fields).
struct Group {
  std::string title;  // the other fields' values; empty for one field
  std::vector<const SweepPointResult*> points;
};

// A legend's name for a field: its label, else the last part of its path (buffer_bytes).
std::string short_name(const ValidationReport& r, std::size_t field) {
  const std::string& f = r.sweep_fields[field];
  if (r.sweep_labels[field] != f) return r.sweep_labels[field];
  return f.substr(f.rfind('.') + 1);
}

// The points grouped by the values of every field but `field`, first-seen order.
std::vector<Group> groups_over(const ValidationReport& r, std::size_t field) {
  std::vector<Group> groups;
  for (const auto& p : r.points) {
    std::string others;
    for (std::size_t g = 0; g < p.values.size(); ++g)
      if (g != field)
        others += fmt::format("{}{} {}", others.empty() ? "" : ", ", short_name(r, g),
                              tick_label(p.values[g], unit_of(r.sweep_fields[g])));
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const Group& e) { return e.title == others; });
    if (it == groups.end()) it = groups.insert(groups.end(), {others, {}});
    it->points.push_back(&p);
  }
  return groups;
}

std::string with_group(const std::string& what, const Group& g) {
  return g.title.empty() ? what : fmt::format("{} ({})", what, g.title);
}

// The data blocks, one per group: "x simulated model... rtos fast drops retransmitted".
std::string grouped_data(const std::vector<Group>& groups, const Axis& axis, std::size_t field) {
  std::string data;
  for (std::size_t b = 0; b < groups.size(); ++b) {
    data += fmt::format("{}# {}\n", b == 0 ? "" : "\n\n", groups[b].title);
    for (const SweepPointResult* p : groups[b].points)
      data += fmt::format("{} {} {}\n", axis.coordinate(p->values[field]), times_columns(*p),
                          loss_columns(*p));
  }
  return data;
}

// One field's plot: its groups of points and its axis.
struct FieldPlot {
  std::vector<Group> groups;
  Axis axis;
};

FieldPlot field_plot(const ValidationReport& r, std::size_t field) {
  std::vector<std::string> values;
  for (const auto& p : r.points) values.push_back(p.values[field]);
  return {groups_over(r, field), make_axis(values, r.sweep_fields[field])};
}

// Run times above each model's error, over one field (one line per group).
PlotFile times_plot(const ValidationReport& r, std::size_t field, const std::string& stem) {
  const FieldPlot fp = field_plot(r, field);
  const std::vector<Group>& groups = fp.groups;
  const Axis& axis = fp.axis;
  const std::string dat = stem + ".dat";
  PlotFile f{stem, grouped_data(groups, axis, field), "", "1100,850"};
  const std::string label = r.sweep_labels[field];
  std::string times, errors = "0 with lines lc rgb 'gray' notitle";
  const std::size_t models = r.models.size();
  const RunTimeUnit unit = run_time_unit(r);
  for (std::size_t b = 0; b < groups.size(); ++b) {
    const Group& g = groups[b];
    times += fmt::format("{}'{}' index {} using 1:($2/{}) with {} lw 2 pt 7 lc {} title '{}'",
                         b == 0 ? "" : ", ", dat, b, unit.us_per_unit, axis.style(), b + 1,
                         with_group("packet", g));
    for (std::size_t m = 0; m < models; ++m) {
      const int color = static_cast<int>(groups.size() == 1 ? m + 2 : b + 1);
      times += fmt::format(", '' index {} using 1:(${}/{}) with {} dt 2 pt {} lc {} title '{}'", b,
                           m + 3, unit.us_per_unit, axis.style(), m + 4, color,
                           with_group(r.models[m], g));
      errors +=
          fmt::format(", '{}' index {} using 1:(100*(${}-$2)/$2) with {} pt {} lc {} title '{}'",
                      dat, b, m + 3, axis.style(), m + 4, color, with_group(r.models[m], g));
    }
  }
  std::string& sc = f.script;
  sc = "set multiplot layout 2,1\n" + std::string(kLayout) +
       axis_commands(axis, r.sweep_fields[field], label);
  sc += fmt::format(
      "set title \"{}: predicted vs simulated over {}\" noenhanced\nset ylabel \"run time ({})\"\n",
      r.scenario, label, unit.name);
  if (spans_decades(r)) sc += "set logscale y\n";
  sc += "plot " + times + "\n";
  sc +=
      "unset logscale y\nset title \"model error\"\nset ylabel \"(model - packet) / packet (%)\"\n";
  sc += "plot " + errors + "\nunset multiplot\n";
  return f;
}

// Retransmission timeouts above the drops, per point of a packet sweep.
PlotFile losses_plot(const ValidationReport& r, std::size_t field, const std::string& stem) {
  const FieldPlot fp = field_plot(r, field);
  const std::vector<Group>& groups = fp.groups;
  const Axis& axis = fp.axis;
  const std::string dat = stem + ".dat";
  PlotFile f{stem, grouped_data(groups, axis, field), "", "1100,850"};
  const std::size_t rto = r.models.size() + 3;  // the columns after the times
  std::string top, bottom;
  for (std::size_t b = 0; b < groups.size(); ++b) {
    const Group& g = groups[b];
    const std::string sep = b == 0 ? "" : ", ";
    top += fmt::format("{}'{}' index {} using 1:{} with {} lw 2 pt 7 lc {} title '{}'", sep, dat, b,
                       rto, axis.style(), b + 1, with_group("retransmission timeouts", g));
    top += fmt::format(", '' index {} using 1:{} with {} dt 2 pt 6 lc {} title '{}'", b, rto + 1,
                       axis.style(), b + 1, with_group("fast retransmits", g));
    bottom += fmt::format("{}'{}' index {} using 1:{} with {} lw 2 pt 5 lc {} title '{}'", sep, dat,
                          b, rto + 2, axis.style(), b + 1, with_group("packets dropped", g));
    bottom += fmt::format(", '' index {} using 1:{} with {} dt 2 pt 4 lc {} title '{}'", b, rto + 3,
                          axis.style(), b + 1, with_group("segments retransmitted", g));
  }
  const std::string label = r.sweep_labels[field];
  std::string& sc = f.script;
  sc = "set multiplot layout 2,1\n" + std::string(kLayout) +
       axis_commands(axis, r.sweep_fields[field], label);
  sc += fmt::format(
      "set title \"{}: TCP recovery in the packet simulation over {}\" noenhanced\n"
      "set ylabel \"events\"\nset yrange [0:*]\nplot {}\n"
      "set title \"losses\"\nset ylabel \"packets, segments\"\nplot {}\nunset multiplot\n",
      r.scenario, label, top, bottom);
  return f;
}

// Writes stem.dat and stem.gp (PNG then SVG); false when gnuplot is missing or fails.
bool draw(const PlotFile& f, const std::filesystem::path& dir,
          std::vector<std::filesystem::path>& files) {
  const std::string script = fmt::format(
      "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {{\n  set terminal pngcairo size {0} font "
      "'Sans,10'\n}} else {{\n  set terminal png size {0}\n}}\nset output '{1}.png'\n{2}"
      "set terminal svg size {0} dynamic font 'Sans,10'\nset output '{1}.svg'\n{2}",
      f.size, f.stem, f.script);
  for (const auto& [name, text] : {std::pair{f.stem + ".dat", f.data}, {f.stem + ".gp", script}}) {
    std::ofstream out(dir / name);
    out << text;
    out.close();
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write", (dir / name).string()));
    files.push_back(dir / name);
  }
  const std::string command =
      fmt::format("cd '{}' && gnuplot '{}.gp' > /dev/null 2>&1", dir.string(), f.stem);
  if (std::system(command.c_str()) != 0) return false;
  files.push_back(dir / (f.stem + ".png"));
  files.push_back(dir / (f.stem + ".svg"));
  return true;
}

std::string stem_for(const ValidationReport& r, std::size_t field, const std::string& base) {
  return r.sweep_fields.size() == 1 ? base : base + "-" + file_safe(r.sweep_fields[field]);
}

bool has_sweep(const ValidationReport& r) {
  return !r.sweep_fields.empty() && !r.points.empty() && !r.points.front().values.empty();
}

}  // namespace

std::vector<std::string> plot_images(const ValidationReport& r) {
  if (!has_sweep(r)) return {"report.png"};
  std::vector<std::string> images;
  for (std::size_t f = 0; f < r.sweep_fields.size(); ++f)
    images.push_back(stem_for(r, f, "report") + ".png");
  if (has_losses(r))
    for (std::size_t f = 0; f < r.sweep_fields.size(); ++f)
      images.push_back(stem_for(r, f, "report-losses") + ".png");
  return images;
}

std::vector<std::filesystem::path> write_plots(const ValidationReport& r,
                                               const std::filesystem::path& dir,
                                               std::string& note) {
  std::vector<std::filesystem::path> files;
  if (r.points.empty()) return files;
  bool drawn = true;
  if (!has_sweep(r)) {
    drawn = draw(bar_chart(r), dir, files);
  } else {
    for (std::size_t field = 0; field < r.sweep_fields.size(); ++field) {
      drawn = draw(times_plot(r, field, stem_for(r, field, "report")), dir, files) && drawn;
      if (has_losses(r))
        drawn =
            draw(losses_plot(r, field, stem_for(r, field, "report-losses")), dir, files) && drawn;
    }
  }
  if (!drawn)
    note =
        "gnuplot is not installed or failed: the PNG/SVG plots were not drawn (run `gnuplot "
        "report*.gp` in the report folder)";
  return files;
}

}  // namespace netwarp::validation
