// Topology queries shared by every builder.
#include "netwarp/netmodels/topology.hpp"

#include <stdexcept>

namespace netwarp::netmodels {

std::vector<NodeId> Topology::path(NodeId src_host, NodeId dst_host) const {
  std::vector<NodeId> nodes_on_path{src_host};
  for_each_link(src_host, dst_host,
                [&](NodeId, const Port& link) { nodes_on_path.push_back(link.peer); });
  return nodes_on_path;
}

void Topology::throw_routing_loop(NodeId src_host, NodeId dst_host) const {
  throw std::logic_error("routing loop from " + nodes[src_host].name + " to " +
                         nodes[dst_host].name);
}

}  // namespace netwarp::netmodels
