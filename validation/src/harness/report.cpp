// report.json, report.md and the per-rank tables of a validation run (the plots: report_plots.cpp).
#include "netwarp/validation/report.hpp"

#include "netwarp/validation/ns3_check.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
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
  out.close();
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write", path.string()));
}

// ranks/<point>.csv: ranks/run.csv without a sweep, ranks/pN.csv for point N.
std::string rank_table_file(const ValidationReport& r, std::size_t point) {
  if (r.sweep_fields.empty()) return "ranks/run.csv";
  return fmt::format("ranks/p{}.csv", point);
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

std::string size_range(const ClassErrorRow& row) {
  if (row.whole_class()) return "all sizes";
  if (row.min_bytes == 0) return fmt::format("<= {} B", row.max_bytes);
  if (row.max_bytes == UINT64_MAX) return fmt::format("> {} B", row.min_bytes);
  return fmt::format("{} - {} B", row.min_bytes + 1, row.max_bytes);
}

// The model's error at one percentile; none where the packet run's flow there lost a packet.
std::optional<double> class_error(double model, double packet, bool loss) {
  if (loss || packet <= 0) return std::nullopt;
  return 100.0 * (model - packet) / packet;
}

std::string error_cell(std::optional<double> error) {
  return error ? fmt::format("{:+.1f}", *error) : std::string("loss");
}

std::string class_table(const ClassComparison& c) {
  std::string md = fmt::format(
      "\n{}:\n\n| class | flow size | flows | lossy | packet p50 | {} p50 | error % | packet p99 | "
      "{} p99 | error % |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
      c.model, c.model, c.model);
  for (const ClassErrorRow& r : c.rows)
    md +=
        fmt::format("| {} | {} | {} | {} | {:.3f} | {:.3f} | {} | {:.3f} | {:.3f} | {} |\n",
                    r.class_name, size_range(r), r.flows, r.lossy_flows, r.packet_p50, r.model_p50,
                    error_cell(class_error(r.model_p50, r.packet_p50, r.p50_loss)), r.packet_p99,
                    r.model_p99, error_cell(class_error(r.model_p99, r.packet_p99, r.p99_loss)));
  return md;
}

// FCT slowdown by class and flow size, packet run beside each flow model (Parsimon's and m3's
// way of reporting); nothing for MPI points.
std::string class_errors_markdown(const ValidationReport& r) {
  const bool any = std::any_of(r.points.begin(), r.points.end(),
                               [](const SweepPointResult& p) { return !p.class_errors.empty(); });
  if (!any) return "";
  std::string md =
      "\n## Slowdown by class and flow size\n\nFCT slowdown = a flow's completion time over its "
      "completion alone on the empty network (docs/reference/outputs.md); p50 and p99 over the "
      "flows of each class and size bucket; error = 100 x (model - packet) / packet. `loss`: the "
      "packet run's flow at that percentile recovered from a lost packet (it retransmitted), "
      "which the model does not represent, so no error is given there. `lossy`: flows of the row "
      "that retransmitted.\n";
  for (const SweepPointResult& p : r.points) {
    if (p.class_errors.empty()) continue;
    if (!r.sweep_field.empty()) md += fmt::format("\n### {} = {}\n", r.sweep_field, p.value);
    for (const ClassComparison& c : p.class_errors) md += class_table(c);
  }
  const bool below_one = std::any_of(r.points.begin(), r.points.end(), [](const auto& p) {
    return std::any_of(p.class_errors.begin(), p.class_errors.end(), [](const auto& c) {
      return std::any_of(c.rows.begin(), c.rows.end(),
                         [](const ClassErrorRow& row) { return row.model_p50 < 1.0; });
    });
  });
  if (below_one)
    md +=
        "\nA model slowdown below 1: the flow model (MFS) has no propagation or store-and-forward "
        "delay, which the ideal completion counts, so a flow of a few packets finishes in its "
        "serialisation time alone (`netwarp flow --latency` adds its route's propagation).\n";
  return md;
}

nlohmann::ordered_json class_errors_json(const std::vector<ClassComparison>& comparisons) {
  const auto error = [](std::optional<double> e) {
    return e ? nlohmann::ordered_json(*e) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json per_model = nlohmann::ordered_json::object();
  for (const ClassComparison& c : comparisons) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const ClassErrorRow& row : c.rows) {
      nlohmann::ordered_json j;
      j["class"] = row.class_name;
      j["min_bytes_exclusive"] = row.min_bytes;
      j["max_bytes"] = row.max_bytes == UINT64_MAX ? nlohmann::ordered_json(nullptr)
                                                   : nlohmann::ordered_json(row.max_bytes);
      j["flows"] = row.flows;
      j["lossy_flows"] = row.lossy_flows;
      j["packet_slowdown"] = {{"p50", row.packet_p50}, {"p99", row.packet_p99}};
      j["model_slowdown"] = {{"p50", row.model_p50}, {"p99", row.model_p99}};
      j["error_pct"] = {{"p50", error(class_error(row.model_p50, row.packet_p50, row.p50_loss))},
                        {"p99", error(class_error(row.model_p99, row.packet_p99, row.p99_loss))}};
      rows.push_back(j);
    }
    per_model[c.model] = rows;
  }
  return per_model;
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

// Shares of a model's summed |error| by key (call kind, source, step), a cell per point.
class AcrossPoints {
 public:
  explicit AcrossPoints(std::size_t points) : points_(points) {}
  void add(const std::string& key, std::size_t point, double abs_error_ns, double share) {
    auto [it, is_new] = rows_.try_emplace(key, Row{key, std::vector<double>(points_, -1), 0});
    it->second.shares[point] = share;
    it->second.total += abs_error_ns;
  }
  bool empty() const { return rows_.empty(); }
  // The `max_rows` keys with the largest |error| over all points, a share per point.
  std::string table(const ValidationReport& r, const std::string& header,
                    std::size_t max_rows) const {
    std::vector<Row> rows;
    for (const auto& [key, row] : rows_) rows.push_back(row);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.total > b.total; });
    std::string md = fmt::format("\n| {} |", header);
    std::string rule = "|---|";
    for (const auto& p : r.points) {
      md += fmt::format(" {} |", point_label(p));
      rule += "---:|";
    }
    md += "\n" + rule + "\n";
    for (std::size_t i = 0; i < rows.size() && i < max_rows; ++i) {
      md += fmt::format("| {} |", rows[i].key);
      for (double share : rows[i].shares)
        md += share < 0 ? std::string(" - |") : fmt::format(" {:.1f} % |", 100 * share);
      md += "\n";
    }
    if (rows.size() > max_rows) md += fmt::format("| ({} more) |\n", rows.size() - max_rows);
    return md;
  }

 private:
  struct Row {
    std::string key;
    std::vector<double> shares;  // per point; < 0: absent there
    double total = 0;
  };
  std::size_t points_;
  std::map<std::string, Row> rows_;
};

// Several points: per model one table of call kinds, one of the top sources and one of the top
// collective steps, each point's shares side by side.
std::string call_errors_across_points(const ValidationReport& r) {
  std::string md;
  for (const std::string& model : r.models) {
    AcrossPoints kinds(r.points.size()), sources(r.points.size()), steps(r.points.size());
    for (std::size_t i = 0; i < r.points.size(); ++i) {
      for (const CallErrorTable& t : r.points[i].call_errors) {
        if (t.model != model) continue;
        for (const CallErrorRow& row : t.kinds) kinds.add(row.key, i, row.abs_error_ns, row.share);
        for (const CallErrorRow& row : t.sources)
          sources.add(row.key, i, row.abs_error_ns, row.share);
      }
      for (const StepErrorTable& t : r.points[i].step_errors) {
        if (t.model != model) continue;
        for (const StepErrorRow& row : t.steps)
          steps.add(row.kind + " " + row.step, i, row.abs_error_ns, row.share);
      }
    }
    if (kinds.empty()) continue;
    md += fmt::format("\n### {}: share of the summed |error| of each point\n", model);
    md += kinds.table(r, "call kind", 12);
    md += sources.table(r, "call source", 6);
    if (!steps.empty()) md += steps.table(r, "collective step", 6);
  }
  return md;
}

// The files of each point, for the reader who wants every call or message.
std::string point_files_markdown(const ValidationReport& r) {
  std::string md;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const SweepPointResult& p = r.points[i];
    if (p.calls_file.empty()) continue;
    md += fmt::format("- {}: `{}`", point_title(r, p), p.calls_file);
    if (!p.steps_file.empty()) md += fmt::format(", `{}`", p.steps_file);
    if (!p.timeline_file.empty()) md += fmt::format(", `{}`", p.timeline_file);
    if (!p.timeline_note.empty()) md += fmt::format(" ({} only)", p.timeline_note);
    md += "\n";
  }
  return md;
}

// Per point (one point: in full; several: side by side): the call kinds, sources and steps of
// collectives that carry each model's call-time error.
std::string call_errors_markdown(const ValidationReport& r) {
  const bool any = std::any_of(r.points.begin(), r.points.end(),
                               [](const SweepPointResult& p) { return !p.calls_file.empty(); });
  if (!any) return {};
  std::string md =
      "\n## Call by call: where the error is\n\nError of a call = predicted duration - "
      "simulated duration; the tables rank call kinds, call sources (trace file:line, or the "
      "kernel's call) and the steps of collectives (the messages a rank receives inside one, "
      "in order: round k of a recursive doubling, the k-th exchange of an all-to-all) by their "
      "sum of |error|. Every call is in calls_compare, every message inside a collective in "
      "steps_compare, and both timelines side by side in timeline_compare (ui.perfetto.dev):\n\n";
  md += point_files_markdown(r);
  if (r.points.size() > 1) return md + call_errors_across_points(r);
  const SweepPointResult& p = r.points.front();
  if (p.call_errors.empty()) return md + "\nNo model predicts per call.\n";
  return md + call_error_markdown(p.call_errors) + step_error_markdown(p.step_errors);
}

// Mean over ranks per point and source; the per-rank tables are in ranks/*.csv.
std::string time_split_markdown(const ValidationReport& r) {
  std::string md;
  std::string files;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const SweepPointResult& p = r.points[i];
    if (p.simulated_ranks.empty()) continue;
    if (md.empty())
      md = fmt::format(
          "\n## Where the time goes (mean over ranks, us)\n\n| {} | source | compute | overhead "
          "| send wait | receive wait | sync |\n|---|---|---:|---:|---:|---:|---:|\n",
          r.sweep_field.empty() ? "point" : r.sweep_field);
    md += split_row(point_label(p) + " | packet", mean_split(p.simulated_ranks));
    for (const auto& m : p.models)
      if (m.available && !m.ranks.empty())
        md += split_row(point_label(p) + " | " + m.model, mean_split(m.ranks));
    files += fmt::format("{}[{}]({})", files.empty() ? "" : ", ", rank_table_file(r, i),
                         rank_table_file(r, i));
  }
  if (md.empty()) return md;
  return md + "\nPer rank: " + files + ".\n";
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
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const SweepPointResult& p = r.points[i];
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
    if (!p.class_errors.empty()) pj["classes"] = class_errors_json(p.class_errors);
    if (p.values.size() > 1) pj["values"] = p.values;
    if (!p.run_dir.empty()) pj["run_dir"] = p.run_dir;
    if (!p.calls_file.empty()) pj["calls_file"] = p.calls_file;
    if (!p.timeline_file.empty()) pj["timeline_file"] = p.timeline_file;
    if (!p.steps_file.empty()) pj["steps_file"] = p.steps_file;
    if (!p.simulated_ranks.empty()) pj["ranks_file"] = rank_table_file(r, i);
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
  md += '\n';  // appended piece by piece: GCC 12 warns (-Wrestrict) on "literal" + string&&
  md += point_rule(r);
  md += "---:|";
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
  for (const auto& image : plot_images(r))
    md += fmt::format("\n![predicted vs simulated]({})\n", image);
  md += call_errors_markdown(r);
  md += class_errors_markdown(r);
  md += counters_markdown(r);
  md += ns3_comparison_markdown(r);
  md += time_split_markdown(r);
  md += run_times_markdown(r);
  return md;
}

std::vector<std::string> write_rank_tables(const ValidationReport& r,
                                           const std::filesystem::path& dir) {
  std::vector<std::string> files;
  const auto row = [](std::size_t rank, const std::string& source, const TimeSplit& s) {
    const auto ps = [](double ns) { return std::llround(ns * 1000.0); };
    return fmt::format("{},{},{},{},{},{},{},{}\n", rank, source, ps(s.compute), ps(s.overhead),
                       ps(s.send_wait), ps(s.recv_wait), ps(s.sync), ps(s.total()));
  };
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const SweepPointResult& p = r.points[i];
    if (p.simulated_ranks.empty()) continue;
    std::string text =
        "rank,source,compute_ps,overhead_ps,send_wait_ps,recv_wait_ps,sync_ps,total_ps\n";
    for (std::size_t rank = 0; rank < p.simulated_ranks.size(); ++rank) {
      text += row(rank, "packet", p.simulated_ranks[rank]);
      for (const auto& m : p.models)
        if (m.available && m.ranks.size() == p.simulated_ranks.size())
          text += row(rank, m.model, m.ranks[rank]);
    }
    std::filesystem::create_directories(dir / "ranks");
    write_text(dir / rank_table_file(r, i), text);
    files.push_back(rank_table_file(r, i));
  }
  return files;
}

}  // namespace netwarp::validation
