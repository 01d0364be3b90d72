// The offered models. CM02 is the plain flow model (max-min sharing, latency paid once per
// route, factors 1); LV08 and SMPI keep SimGrid's own calibration as SimGrid ships it.
#include "network_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

namespace netwarp::simgrid_check {

namespace {

// Numerical precision of SimGrid's clock, in seconds: events closer than this are merged.
// SimGrid's default (1 ns) would blur picosecond results; 0.1 ps stays above the double
// rounding step of any run shorter than about 100 s.
constexpr const char* kTimingPrecision = "1e-13";

const std::vector<NetworkModelChoice>& models() {
  static const std::vector<NetworkModelChoice> all = {
      {"CM02",
       "max-min bandwidth sharing, route latency paid once, no correction factors, no TCP window "
       "bound, no reverse-path (ACK) traffic",
       {{"network/model", "CM02"},
        {"network/latency-factor", "1.0"},
        {"network/bandwidth-factor", "1.0"},
        {"network/weight-S", "0"},
        {"network/TCP-gamma", "0"},
        {"network/crosstraffic", "0"},
        {"surf/precision", kTimingPrecision}}},
      {"LV08",
       "SimGrid's default TCP model as shipped: latency x 13.01, bandwidth x 0.97, RTT-weighted "
       "sharing (weight-S 20537), 4 MiB TCP window bound, 5% reverse-path ACK traffic",
       {{"network/model", "LV08"}, {"surf/precision", kTimingPrecision}}},
      {"SMPI",
       "SimGrid's MPI-calibrated model as shipped: piecewise latency and bandwidth factors by "
       "message size, weight-S 8775, TCP window bound, reverse-path ACK traffic",
       {{"network/model", "SMPI"}, {"surf/precision", kTimingPrecision}}},
  };
  return all;
}

}  // namespace

std::vector<std::string> network_model_names() {
  std::vector<std::string> names;
  for (const NetworkModelChoice& m : models()) names.push_back(m.name);
  std::sort(names.begin(), names.end());
  return names;
}

const NetworkModelChoice& find_network_model(const std::string& name) {
  for (const NetworkModelChoice& m : models())
    if (m.name == name) return m;
  throw std::invalid_argument(fmt::format("--network-model: unknown model '{}' (known: {})", name,
                                          fmt::join(network_model_names(), ", ")));
}

}  // namespace netwarp::simgrid_check
