// The JSON report of a netwarp-simgrid run (what `netwarp validate` reads):
//   {"tool": "simgrid", "simgrid_version": "3.32.0", "network_model": "CM02",
//    "predicted_ps": 12345, "ranks": [{"rank": 0, "end_ps": 12345}, ...],
//    "wall_seconds": 0.02, "platform": "plat.xml" or null, ...}
#pragma once

#include <string>

#include "simgrid_run.hpp"

namespace netwarp::simgrid_check {

struct ReportContext {
  std::string scenario;  // as given, or the default platform's path
  std::string program;   // "pingpong", "trace FILE", ...
  std::string network_model;
  std::string platform;  // empty: none written
  double wall_seconds = 0;
};

std::string result_json(const SimgridRunResult& result, const ReportContext& context);

// The one summary line printed on stdout.
std::string summary_line(const SimgridRunResult& result, const ReportContext& context,
                         const std::string& out_path);

}  // namespace netwarp::simgrid_check
