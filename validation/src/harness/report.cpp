// report.json, report.md and the gnuplot plot of a validation run.
#include "netwarp/validation/report.hpp"

#include "netwarp/validation/ns3_check.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace netwarp::validation {
namespace {

nlohmann::ordered_json ranks_json(const std::vector<TimeSplit>& ranks) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& r : ranks) rows.push_back(time_split_json(r));
  return rows;
}

TimeSplit mean_split(const std::vector<TimeSplit>& ranks) {
  TimeSplit m;
  for (const auto& r : ranks) {
    m.compute += r.compute;
    m.overhead += r.overhead;
    m.send_wait += r.send_wait;
    m.recv_wait += r.recv_wait;
    m.sync += r.sync;
  }
  const double n = ranks.empty() ? 1.0 : static_cast<double>(ranks.size());
  m.compute /= n;
  m.overhead /= n;
  m.send_wait /= n;
  m.recv_wait /= n;
  m.sync /= n;
  return m;
}

std::string us(double ps) {
  return fmt::format("{:.3f}", ps / 1e6);
}

std::string split_row(const std::string& who, const TimeSplit& s) {
  return fmt::format("| {} | {} | {} | {} | {} | {} |\n", who, us(s.compute * 1e3),
                     us(s.overhead * 1e3), us(s.send_wait * 1e3), us(s.recv_wait * 1e3),
                     us(s.sync * 1e3));
}

std::string point_title(const ValidationReport& r, const SweepPointResult& p) {
  return r.sweep_field.empty() ? std::string("the scenario")
                               : fmt::format("{} = {}", r.sweep_field, p.value);
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write", path.string()));
}

// The sweep value as a plot coordinate: the number itself, else the point's index.
bool numeric_axis(const ValidationReport& r) {
  for (const auto& p : r.points) {
    char* end = nullptr;
    std::strtod(p.value.c_str(), &end);
    if (p.value.empty() || *end != '\0') return false;
  }
  return true;
}

// Per rank, side by side: busy (compute + overhead) / waiting (send, receive, sync), in us.
std::string per_rank_markdown(const SweepPointResult& p) {
  constexpr std::size_t kMaxRanks = 64;
  if (p.simulated_ranks.size() > kMaxRanks) return {};
  const auto cell = [](const TimeSplit& s) {
    return fmt::format("{} / {}", us((s.compute + s.overhead) * 1e3),
                       us((s.send_wait + s.recv_wait + s.sync) * 1e3));
  };
  std::string md = "\nPer rank, busy / waiting (us):\n\n| rank | packet |";
  std::string rule = "|---|---:|";
  std::vector<const ModelResult*> shown;
  for (const auto& m : p.models)
    if (m.available && m.ranks.size() == p.simulated_ranks.size()) {
      shown.push_back(&m);
      md += fmt::format(" {} |", m.model);
      rule += "---:|";
    }
  md += "\n" + rule + "\n";
  for (std::size_t r = 0; r < p.simulated_ranks.size(); ++r) {
    md += fmt::format("| {} | {} |", r, cell(p.simulated_ranks[r]));
    for (const ModelResult* m : shown) md += fmt::format(" {} |", cell(m->ranks[r]));
    md += "\n";
  }
  return md;
}

// Each model's notes once, with the points they concern when not all of them.
std::string notes_markdown(const ValidationReport& r) {
  std::vector<std::pair<std::string, std::vector<std::string>>> notes;  // in first-seen order
  for (const auto& p : r.points)
    for (const auto& m : p.models) {
      if (m.note.empty()) continue;
      const std::string text = fmt::format("{}: {}", m.model, m.note);
      auto it =
          std::find_if(notes.begin(), notes.end(), [&](const auto& n) { return n.first == text; });
      if (it == notes.end()) it = notes.insert(notes.end(), {text, {}});
      it->second.push_back(p.value);
    }
  if (notes.empty()) return {};
  std::string md = "\nNotes:\n";
  for (const auto& [text, values] : notes)
    md += values.size() == r.points.size() || r.sweep_field.empty()
              ? fmt::format("- {}\n", text)
              : fmt::format("- {} ({} = {})\n", text, r.sweep_field, fmt::join(values, ", "));
  return md;
}

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

std::string point_label(const SweepPointResult& p) {
  return p.value.empty() ? std::string("-") : p.value;
}

// Losses and TCP recovery per point; nothing when the network lost nothing anywhere.
std::string counters_markdown(const ValidationReport& r) {
  const bool any = std::any_of(r.points.begin(), r.points.end(), [](const SweepPointResult& p) {
    return p.counters.packets_dropped + p.counters.retransmission_timeouts > 0;
  });
  if (!any) return "";
  std::string md = fmt::format(
      "\n## Packet network: losses and recovery\n\n| {} | packets dropped | retransmission "
      "timeouts | segments retransmitted | fast retransmits |\n|---|---:|---:|---:|---:|\n",
      r.sweep_field.empty() ? "point" : r.sweep_field);
  for (const auto& p : r.points)
    md += fmt::format("| {} | {} | {} | {} | {} |\n", point_label(p), p.counters.packets_dropped,
                      p.counters.retransmission_timeouts, p.counters.retransmitted_segments,
                      p.counters.fast_retransmits);
  return md;
}

// Wall-clock seconds of the packet simulation and of each model's prediction (fitting excluded).
std::string run_times_markdown(const ValidationReport& r) {
  std::string md = fmt::format("\n## Run times (wall-clock seconds)\n\n| {} | packet | events |",
                               r.sweep_field.empty() ? "point" : r.sweep_field);
  for (const auto& m : r.models) md += fmt::format(" {} |", m);
  md += "\n|---|---:|---:|";
  for (std::size_t i = 0; i < r.models.size(); ++i) md += "---:|";
  md += "\n";
  for (const auto& p : r.points) {
    md += fmt::format("| {} | {:.3f} | {} |", point_label(p), p.simulated_wall_seconds,
                      p.simulated_events);
    for (const auto& m : p.models)
      md += m.available ? fmt::format(" {:.4f} |", m.wall_seconds) : std::string(" n/a |");
    md += "\n";
  }
  return md;
}

// The main table's first columns: one per grid field, else the sweep field (or "point").
std::string point_header(const ValidationReport& r) {
  if (r.sweep_fields.size() <= 1)
    return fmt::format("| {} |", r.sweep_field.empty() ? "point" : r.sweep_field);
  std::string h = "|";
  for (const auto& f : r.sweep_fields) h += fmt::format(" {} |", f);
  return h;
}

std::string point_rule(const ValidationReport& r) {
  std::string rule = "|";
  for (std::size_t i = 0; i < std::max<std::size_t>(r.sweep_fields.size(), 1); ++i) rule += "---|";
  return rule;
}

std::string point_cells(const SweepPointResult& p) {
  if (p.values.size() <= 1) return fmt::format("| {} |", p.value.empty() ? "-" : p.value);
  std::string cells = "|";
  for (const auto& v : p.values) cells += fmt::format(" {} |", v);
  return cells;
}

// Per point: the call kinds and sources that carry each model's call-time error.
std::string call_errors_markdown(const ValidationReport& r) {
  std::string md;
  for (const auto& p : r.points) {
    if (p.calls_file.empty()) continue;
    if (md.empty())
      md = "\n## Call by call: where the error is\n\nError of a call = predicted duration - "
           "simulated duration; the tables rank call kinds and call sources (trace file:line, "
           "or the kernel's call) by their sum of |error|.\n";
    md += fmt::format("\n### {} (`{}`; timelines side by side in `{}`, open in ui.perfetto.dev)\n",
                      point_title(r, p), p.calls_file, p.timeline_file);
    md += p.call_errors.empty() ? std::string("\nNo model predicts per call.\n")
                                : call_error_markdown(p.call_errors);
  }
  return md;
}

}  // namespace

nlohmann::ordered_json time_split_json(const TimeSplit& s) {
  const auto ps = [](double ns) { return std::llround(ns * 1000.0); };
  return {{"compute_ps", ps(s.compute)},
          {"overhead_ps", ps(s.overhead)},
          {"send_wait_ps", ps(s.send_wait)},
          {"recv_wait_ps", ps(s.recv_wait)},
          {"sync_ps", ps(s.sync)}};
}

double error_pct(std::int64_t predicted_ps, std::int64_t simulated_ps) {
  if (simulated_ps == 0) return 0;
  return 100.0 * static_cast<double>(predicted_ps - simulated_ps) /
         static_cast<double>(simulated_ps);
}

nlohmann::ordered_json report_json(const ValidationReport& r) {
  nlohmann::ordered_json j;
  j["scenario"] = r.scenario;
  j["scenario_file"] = r.scenario_file;
  j["program"] = r.program;
  j["sweep_field"] = r.sweep_field;
  if (r.sweep_fields.size() > 1) j["sweep_fields"] = r.sweep_fields;
  j["models"] = r.models;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& p : r.points) {
    nlohmann::ordered_json pj;
    pj["value"] = p.value;
    pj["simulated_ps"] = p.simulated_ps;
    pj["simulated_wall_seconds"] = p.simulated_wall_seconds;
    pj["simulated_events"] = p.simulated_events;
    pj["simulated_ranks"] = ranks_json(p.simulated_ranks);
    pj["packets_dropped"] = p.counters.packets_dropped;
    pj["retransmission_timeouts"] = p.counters.retransmission_timeouts;
    pj["retransmitted_segments"] = p.counters.retransmitted_segments;
    pj["fast_retransmits"] = p.counters.fast_retransmits;
    if (p.ns3) pj["ns3"] = ns3_comparison_json(*p.ns3, p);
    if (p.values.size() > 1) pj["values"] = p.values;
    if (!p.run_dir.empty()) pj["run_dir"] = p.run_dir;
    if (!p.calls_file.empty()) pj["calls_file"] = p.calls_file;
    if (!p.timeline_file.empty()) pj["timeline_file"] = p.timeline_file;
    points.push_back(pj);
  }
  j["points"] = points;
  // Per model: one entry per sweep point (what the acceptance checks read).
  nlohmann::ordered_json per_model = nlohmann::ordered_json::object();
  for (std::size_t m = 0; m < r.models.size(); ++m) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& p : r.points) {
      const ModelResult& mr = p.models[m];
      nlohmann::ordered_json row;
      row["value"] = p.value;
      row["available"] = mr.available;
      if (mr.available) {
        row["predicted_ps"] = mr.predicted_ps;
        row["simulated_ps"] = p.simulated_ps;
        row["error_pct"] = mr.error_pct;
        row["wall_seconds"] = mr.wall_seconds;
        if (!mr.ranks.empty()) row["ranks"] = ranks_json(mr.ranks);
      }
      if (!mr.params_file.empty()) row["params_file"] = mr.params_file;
      if (!mr.note.empty()) row["note"] = mr.note;
      rows.push_back(row);
    }
    per_model[r.models[m]] = rows;
  }
  j["results"] = per_model;
  return j;
}

std::string report_markdown(const ValidationReport& r) {
  std::string md = fmt::format("# Validation: {}\n\nScenario `{}`, program {}.\n", r.scenario,
                               r.scenario_file, r.program);
  md += "Error = 100 x (predicted - simulated) / simulated; times in microseconds.\n\n";
  md += point_header(r) + " packet (simulated) |";
  for (const auto& m : r.models) md += fmt::format(" {} | {} error % |", m, m);
  md += "\n" + point_rule(r) + "---:|";
  for (std::size_t i = 0; i < r.models.size(); ++i) md += "---:|---:|";
  md += "\n";
  for (const auto& p : r.points) {
    md += point_cells(p) + fmt::format(" {} |", us(static_cast<double>(p.simulated_ps)));
    for (const auto& m : p.models)
      md += m.available ? fmt::format(" {} | {:+.2f} |", us(static_cast<double>(m.predicted_ps)),
                                      m.error_pct)
                        : std::string(" n/a | n/a |");
    md += "\n";
  }
  md += notes_markdown(r);
  md += counters_markdown(r);
  md += ns3_comparison_markdown(r);
  md += run_times_markdown(r);
  if (std::any_of(r.points.begin(), r.points.end(),
                  [](const SweepPointResult& p) { return !p.simulated_ranks.empty(); }))
    md += "\n## Where the time goes (mean over ranks, us)\n";
  for (const auto& p : r.points) {
    if (p.simulated_ranks.empty()) continue;
    md += fmt::format(
        "\n### {}\n\n| source | compute | overhead | send wait | receive wait | "
        "sync |\n|---|---:|---:|---:|---:|---:|\n",
        point_title(r, p));
    md += split_row("packet", mean_split(p.simulated_ranks));
    for (const auto& m : p.models)
      if (m.available && !m.ranks.empty()) md += split_row(m.model, mean_split(m.ranks));
    md += per_rank_markdown(p);
  }
  md += call_errors_markdown(r);
  for (const auto& image : plot_images(r))
    md += fmt::format("\n![predicted vs simulated]({})\n", image);
  return md;
}

namespace {

struct PlotFile {
  std::string stem;  // report, report-<field>: stem.dat, stem.gp, stem.png, stem.svg
  std::string data;
  std::string script;  // without terminal and output: drawn once for PNG, once for SVG
};

bool is_number(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0';
}

std::string us_value(std::int64_t ps) {
  return fmt::format("{}", static_cast<double>(ps) / 1e6);
}

// Times of one point: simulated, then each model (NaN when unavailable).
std::string times_columns(const SweepPointResult& p) {
  std::string row = us_value(p.simulated_ps);
  for (const auto& m : p.models) row += m.available ? " " + us_value(m.predicted_ps) : " NaN";
  return row;
}

std::string file_safe(const std::string& field) {
  std::string out;
  for (char c : field) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

// No sweep: one bar per source (packet, each model), not a point on a meaningless axis.
PlotFile bar_chart(const ValidationReport& r) {
  const SweepPointResult& p = r.points.front();
  PlotFile f{"report", "# source run_time_us\n\"packet\" " + us_value(p.simulated_ps) + "\n", ""};
  for (const auto& m : p.models)
    if (m.available)
      f.data +=
          fmt::format("\"{} ({:+.1f} %)\" {}\n", m.model, m.error_pct, us_value(m.predicted_ps));
  f.script = fmt::format(
      "set title \"{}: predicted vs simulated run time\" noenhanced\nset ylabel \"run time (us)\"\n"
      "set style fill solid 0.6 border -1\nset boxwidth 0.6\nset yrange [0:*]\nset grid ytics\n"
      "set xtics noenhanced\nset offsets 0.5, 0.5, 0, 0\n"
      "plot 'report.dat' using 0:2:xtic(1) with boxes notitle, '' using 0:2:(sprintf(\"%.3f "
      "us\", $2)) with labels offset 0,1 notitle\n",
      r.scenario);
  return f;
}

std::string times_plot(const ValidationReport& r, const std::string& dat) {
  std::string plot = fmt::format("'{}' using 1:2 with linespoints lw 2 title 'packet'", dat);
  for (std::size_t m = 0; m < r.models.size(); ++m)
    plot += fmt::format(", '' using 1:{} with linespoints title '{}'", m + 3, r.models[m]);
  return plot;
}

// One sweep field: run times over it, and below them each model's error in %.
PlotFile line_plot_with_errors(const ValidationReport& r) {
  const bool numeric = numeric_axis(r);
  PlotFile f{"report", "# x simulated_us", ""};
  for (const auto& m : r.models) f.data += " " + m + "_us";
  f.data += "\n";
  std::string xtics;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const auto& p = r.points[i];
    f.data += fmt::format("{} {}\n", numeric ? p.value : std::to_string(i), times_columns(p));
    xtics += fmt::format("{}\"{}\" {}", xtics.empty() ? "" : ", ", p.value, i);
  }
  const std::string label = r.sweep_label.empty() ? r.sweep_field : r.sweep_label;
  std::string& sc = f.script;
  sc = fmt::format(
      "set multiplot layout 2,1\nset grid\nset key top left\nset xlabel \"{}\" noenhanced\n",
      label);
  if (numeric && r.points.size() >= 2) sc += "set logscale x 2\n";
  if (!numeric) sc += fmt::format("set xtics ({}) noenhanced\nset offsets 0.3, 0.3, 0, 0\n", xtics);
  sc += fmt::format(
      "set title \"{}: predicted vs simulated\" noenhanced\nset ylabel \"run time (us)\"\n",
      r.scenario);
  if (spans_decades(r)) sc += "set logscale y\n";
  sc += "plot " + times_plot(r, "report.dat") + "\n";
  sc +=
      "unset logscale y\nset title \"model error\"\nset ylabel \"(model - packet) / packet (%)\"\n";
  std::string errors = "0 with lines lc rgb 'gray' notitle";
  for (std::size_t m = 0; m < r.models.size(); ++m)
    errors +=
        fmt::format(", 'report.dat' using 1:(100*(${}-$2)/$2) with linespoints lc {} title '{}'",
                    m + 3, m + 2, r.models[m]);
  sc += "plot " + errors + "\nunset multiplot\n";
  return f;
}

// A grid, one plot per field: run times over that field, one line per combination of the
// other fields' values.
PlotFile grid_field_plot(const ValidationReport& r, std::size_t field) {
  std::vector<std::string> axis;  // the field's values, first-seen order
  std::vector<std::pair<std::string, std::vector<const SweepPointResult*>>> groups;
  for (const auto& p : r.points) {
    if (std::find(axis.begin(), axis.end(), p.values[field]) == axis.end())
      axis.push_back(p.values[field]);
    std::string others;
    for (std::size_t g = 0; g < p.values.size(); ++g)
      if (g != field)
        others +=
            fmt::format("{}{}={}", others.empty() ? "" : ", ", r.sweep_labels[g], p.values[g]);
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& e) { return e.first == others; });
    if (it == groups.end()) it = groups.insert(groups.end(), {others, {}});
    it->second.push_back(&p);
  }
  const bool numeric = std::all_of(axis.begin(), axis.end(), is_number);
  PlotFile f{"report-" + file_safe(r.sweep_fields[field]), "", ""};
  const std::string dat = f.stem + ".dat";
  std::string plot;
  for (std::size_t b = 0; b < groups.size(); ++b) {
    f.data += fmt::format("{}# {}\n", b == 0 ? "" : "\n\n", groups[b].first);
    for (const SweepPointResult* p : groups[b].second) {
      const auto x = std::find(axis.begin(), axis.end(), p->values[field]) - axis.begin();
      f.data +=
          fmt::format("{} {}\n", numeric ? p->values[field] : std::to_string(x), times_columns(*p));
    }
    plot += fmt::format(
        "{}'{}' index {} using 1:2 with linespoints lw 2 lc {} pt 7 title 'packet ({})' noenhanced",
        b == 0 ? "" : ", ", dat, b, b + 1, groups[b].first);
    for (std::size_t m = 0; m < r.models.size(); ++m)
      plot += fmt::format(
          ", '' index {} using 1:{} with linespoints dt 2 lc {} pt {} title '{} ({})' noenhanced",
          b, m + 3, b + 1, m + 4, r.models[m], groups[b].first);
  }
  std::string xtics;
  for (std::size_t i = 0; i < axis.size(); ++i)
    xtics += fmt::format("{}\"{}\" {}", i == 0 ? "" : ", ", axis[i], i);
  f.script = fmt::format(
      "set title \"{}: predicted vs simulated over {}\" noenhanced\nset xlabel \"{}\" noenhanced\n"
      "set ylabel \"run time (us)\"\nset key outside right top\nset grid\n",
      r.scenario, r.sweep_labels[field], r.sweep_labels[field]);
  if (numeric && axis.size() >= 2) f.script += "set logscale x 2\n";
  if (!numeric)
    f.script += fmt::format("set xtics ({}) noenhanced\nset offsets 0.3, 0.3, 0, 0\n", xtics);
  if (spans_decades(r)) f.script += "set logscale y\n";
  f.script += "plot " + plot + "\n";
  return f;
}

// Writes stem.dat and stem.gp (PNG then SVG); false when gnuplot is missing or fails.
bool draw(const PlotFile& f, const std::filesystem::path& dir, const std::string& size,
          std::vector<std::filesystem::path>& files) {
  const std::string script = fmt::format(
      "set terminal png size {0}\nset output '{1}.png'\n{2}"
      "set terminal svg size {0}\nset output '{1}.svg'\n{2}",
      size, f.stem, f.script);
  write_text(dir / (f.stem + ".dat"), f.data);
  write_text(dir / (f.stem + ".gp"), script);
  files.push_back(dir / (f.stem + ".dat"));
  files.push_back(dir / (f.stem + ".gp"));
  const std::string command =
      fmt::format("cd '{}' && gnuplot '{}.gp' > /dev/null 2>&1", dir.string(), f.stem);
  if (std::system(command.c_str()) != 0) return false;
  files.push_back(dir / (f.stem + ".png"));
  files.push_back(dir / (f.stem + ".svg"));
  return true;
}

}  // namespace

std::vector<std::string> plot_images(const ValidationReport& r) {
  if (r.sweep_fields.size() <= 1) return {"report.png"};
  std::vector<std::string> images;
  for (const auto& field : r.sweep_fields) images.push_back("report-" + file_safe(field) + ".png");
  return images;
}

std::vector<std::filesystem::path> write_plots(const ValidationReport& r,
                                               const std::filesystem::path& dir,
                                               std::string& note) {
  std::vector<std::filesystem::path> files;
  if (r.points.empty()) return files;
  bool drawn = true;
  if (r.sweep_fields.empty() || r.points.front().values.empty()) {
    drawn = draw(bar_chart(r), dir, "900,600", files);
  } else if (r.sweep_fields.size() == 1) {
    drawn = draw(line_plot_with_errors(r), dir, "900,900", files);
  } else {
    for (std::size_t field = 0; field < r.sweep_fields.size(); ++field)
      drawn = draw(grid_field_plot(r, field), dir, "1100,600", files) && drawn;
  }
  if (!drawn)
    note =
        "gnuplot is not installed or failed: the PNG/SVG plots were not drawn (run `gnuplot "
        "report*.gp` in the report folder)";
  return files;
}

}  // namespace netwarp::validation
