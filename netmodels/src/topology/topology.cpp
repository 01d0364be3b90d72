// Topology queries shared by every builder.
#include "netwarp/netmodels/topology.hpp"

#include <stdexcept>

namespace netwarp::netmodels {

std::vector<NodeId> Topology::path(NodeId src_host, NodeId dst_host) const {
  std::vector<NodeId> nodes_on_path{src_host};
  NodeId at = src_host;
  while (at != dst_host) {
    if (nodes_on_path.size() > nodes.size())
      throw std::logic_error("routing loop from " + nodes[src_host].name + " to " +
                             nodes[dst_host].name);
    at = nodes[at].ports[next_port(at, dst_host)].peer;
    nodes_on_path.push_back(at);
  }
  return nodes_on_path;
}

}  // namespace netwarp::netmodels
