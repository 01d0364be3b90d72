// The figures of `netwarp plot`, as gnuplot script bodies (data inline, no terminal): each
// returns an empty body when the run has nothing to show for it, with the reason in `note`.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace netwarp::apps {

struct Figure {
  std::string name;  // file stem, e.g. "queue_occupancy"
  std::string body;  // gnuplot commands; empty: not drawn
  std::string note;  // why not drawn, or what was left out
};

// The stretch of simulated time the time figures show, in ps.
struct TimeWindow {
  double from_ps = 0;
  double to_ps = INFINITY;
  bool is_set() const { return from_ps > 0 || std::isfinite(to_ps); }
  bool contains(double t_ps) const { return t_ps >= from_ps && t_ps <= to_ps; }
};

struct PlotInputs {
  std::string dir;  // the run folder
  const nlohmann::json* results = nullptr;
  std::size_t top = 8;               // ports and flows drawn at most
  TimeWindow window;                 // time figures: rows in it only
  std::string suffix;                // appended to the figures' names ("_busy")
  std::string window_note;           // said in the titles of windowed figures
  std::vector<std::string> classes;  // FCT CDF, slowdown: the traffic classes drawn (empty: all)
};

// The busiest stretch of a run whose idle gaps (flows waiting out retransmission timers) take
// most of its time: the burst of activity in ports_timeseries.csv with the most busy time, when
// it spans under a quarter of the run. Nothing when the run has no such gaps.
std::optional<TimeWindow> busiest_interval(const PlotInputs& in);

// One run of an overlay: its folder, its label, its results.json.
struct OverlayRun {
  std::string dir;
  std::string label;
  const nlohmann::json* results = nullptr;
};

// Overlays: the FCT CDF of every run; the queue occupancy ("queue_occupancy") or utilisation
// ("utilisation") of each run's busiest port.
Figure fct_overlay_figure(const std::vector<OverlayRun>& runs);
Figure port_overlay_figure(const std::vector<OverlayRun>& runs, const std::string& name,
                           const TimeWindow& window);

Figure queue_figure(const PlotInputs& in);
Figure utilisation_figure(const PlotInputs& in);
Figure cwnd_figure(const PlotInputs& in);
Figure fct_figure(const PlotInputs& in);
Figure slowdown_by_size_figure(const PlotInputs& in);
Figure rank_breakdown_figure(const PlotInputs& in);

}  // namespace netwarp::apps
