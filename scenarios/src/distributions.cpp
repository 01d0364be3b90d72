// Flow-size distributions of datacenter workloads: the ones shipped in scenarios/distributions/
// by name, or a file relative to the scenario's folder.
#include "distributions.hpp"

#include <filesystem>

#include "builder_parts.hpp"
#include "netwarp/netmodels/input_error.hpp"
#include "netwarp/scenarios/scenario_loader.hpp"

namespace netwarp::scenarios {

namespace {

const char* const kShipped[] = {"data_mining", "hadoop", "web_search"};

bool is_shipped(const std::string& name) {
  for (const char* shipped : kShipped)
    if (name == shipped) return true;
  return false;
}

}  // namespace

std::string distribution_path(const std::string& name, const std::string& scenario_path) {
  if (is_shipped(name)) return scenario_library_dir() + "/distributions/" + name + ".cdf";
  return beside_scenario(scenario_path, name);
}

netmodels::EmpiricalCdf load_distribution(const std::string& name, const std::string& field,
                                          const std::string& scenario_path) {
  if (name.empty())
    throw netmodels::InputError(
        field, "required: data_mining, hadoop, web_search, or a file of `bytes probability` lines");
  const std::string path = distribution_path(name, scenario_path);
  if (!is_shipped(name) && !std::filesystem::is_regular_file(path))
    throw netmodels::InputError(field, "'" + name +
                                           "' is neither a shipped distribution (data_mining, "
                                           "hadoop, web_search) nor a file (" +
                                           path + ")");
  return netmodels::EmpiricalCdf::read(path);
}

}  // namespace netwarp::scenarios
