// The SimGrid network models netwarp-simgrid offers, each with the SimGrid configuration it
// runs with. The same settings go into the platform file's <config> block, so the written
// platform reproduces the run when SimGrid loads it elsewhere.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace netwarp::simgrid_check {

struct NetworkModelChoice {
  std::string name;  // SimGrid's network/model value
  std::string description;
  std::vector<std::pair<std::string, std::string>> config;  // SimGrid option -> value
};

inline constexpr const char* kDefaultNetworkModel = "CM02";

// Throws std::invalid_argument naming the known models for an unknown name.
const NetworkModelChoice& find_network_model(const std::string& name);
std::vector<std::string> network_model_names();

}  // namespace netwarp::simgrid_check
