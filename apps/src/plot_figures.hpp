// The figures of `netwarp plot`, as gnuplot script bodies (data inline, no terminal): each
// returns an empty body when the run has nothing to show for it, with the reason in `note`.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace netwarp::apps {

struct Figure {
  std::string name;  // file stem, e.g. "queue_occupancy"
  std::string body;  // gnuplot commands; empty: not drawn
  std::string note;  // why not drawn, or what was left out
};

struct PlotInputs {
  std::string dir;  // the run folder
  const nlohmann::json* results = nullptr;
  std::size_t top = 8;  // ports and flows drawn at most
};

Figure queue_figure(const PlotInputs& in);
Figure utilisation_figure(const PlotInputs& in);
Figure cwnd_figure(const PlotInputs& in);
Figure fct_figure(const PlotInputs& in);
Figure rank_breakdown_figure(const PlotInputs& in);

}  // namespace netwarp::apps
