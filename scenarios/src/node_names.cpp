// Node look-up by name for outputs and `netwarp topology`, with the known names in the error.
#include "netwarp/scenarios/node_names.hpp"

#include <cstddef>
#include <vector>

#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::scenarios {

namespace {

using netmodels::NodeId;
using netmodels::Topology;

// Names in their given order, the first `shown` of them, then how many more there are.
std::string first_names(const std::vector<std::string>& names, std::size_t shown) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > shown) text += ", ... (" + std::to_string(names.size() - shown) + " more)";
  return text;
}

}  // namespace

std::string known_node_names(const Topology& topology) {
  std::vector<std::string> switches;
  std::vector<std::string> hosts;
  for (NodeId n = 0; n < topology.nodes.size(); ++n)
    (topology.is_host(n) ? hosts : switches).push_back(topology.nodes[n].name);
  return "switches: " + first_names(switches, 12) + "; hosts: " + first_names(hosts, 4);
}

NodeId find_node(const Topology& topology, const std::string& name, const std::string& field,
                 const std::string& extra) {
  for (NodeId n = 0; n < topology.nodes.size(); ++n)
    if (topology.nodes[n].name == name) return n;
  const std::string also = extra.empty() ? "" : extra + "; ";
  throw netmodels::InputError(
      field, "unknown node '" + name + "' (known: " + also + known_node_names(topology) + ")");
}

}  // namespace netwarp::scenarios
