// report.json, report.md and the gnuplot plot of a validation run.
#include "netwarp/validation/report.hpp"

#include "netwarp/validation/ns3_check.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
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
  md += fmt::format("| {} | packet (simulated) |", r.sweep_field.empty() ? "point" : r.sweep_field);
  for (const auto& m : r.models) md += fmt::format(" {} | {} error % |", m, m);
  md += "\n|---|---:|";
  for (std::size_t i = 0; i < r.models.size(); ++i) md += "---:|---:|";
  md += "\n";
  for (const auto& p : r.points) {
    md += fmt::format("| {} | {} |", p.value.empty() ? "-" : p.value,
                      us(static_cast<double>(p.simulated_ps)));
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
  md += "\n![predicted vs simulated](report.png)\n";
  return md;
}

std::vector<std::filesystem::path> write_plots(const ValidationReport& r,
                                               const std::filesystem::path& dir,
                                               std::string& note) {
  const bool numeric = numeric_axis(r);
  std::string data = "# x simulated_us";
  for (const auto& m : r.models) data += " " + m + "_us";
  data += "\n";
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const auto& p = r.points[i];
    data += fmt::format("{} {}", numeric ? p.value : std::to_string(i),
                        static_cast<double>(p.simulated_ps) / 1e6);
    for (const auto& m : p.models)
      data += m.available ? fmt::format(" {}", static_cast<double>(m.predicted_ps) / 1e6)
                          : std::string(" NaN");
    data += "\n";
  }
  std::string plot = fmt::format("'report.dat' using 1:2 with linespoints lw 2 title 'packet'");
  for (std::size_t m = 0; m < r.models.size(); ++m)
    plot += fmt::format(", '' using 1:{} with linespoints title '{}'", m + 3, r.models[m]);
  const std::string label = r.sweep_label.empty() ? r.sweep_field : r.sweep_label;
  std::string script = fmt::format(
      "set title \"{}: predicted vs simulated\" noenhanced\nset xlabel \"{}\" noenhanced\n"
      "set ylabel \"run time (us)\"\nset key top left\nset grid\n{}",
      r.scenario, label.empty() ? "point" : label, numeric ? "set logscale x 2\n" : "");
  if (numeric && r.points.size() < 2) script += "unset logscale x\n";
  if (spans_decades(r)) script += "set logscale y\n";
  script += fmt::format("set terminal png size 900,600\nset output 'report.png'\nplot {}\n", plot);
  script += fmt::format("set terminal svg size 900,600\nset output 'report.svg'\nplot {}\n", plot);
  write_text(dir / "report.dat", data);
  write_text(dir / "report.gp", script);
  std::vector<std::filesystem::path> files{dir / "report.dat", dir / "report.gp"};
  const std::string command =
      fmt::format("cd '{}' && gnuplot report.gp > /dev/null 2>&1", dir.string());
  if (std::system(command.c_str()) != 0) {
    note =
        "gnuplot is not installed or failed: report.png/report.svg not drawn (run `gnuplot "
        "report.gp` in the report folder)";
    return files;
  }
  files.push_back(dir / "report.png");
  files.push_back(dir / "report.svg");
  return files;
}

}  // namespace netwarp::validation
