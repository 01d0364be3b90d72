// TableRouter::check: the table has a row per switch and an entry per host, then the routes
// toward every host are walked (O(switches x hosts): explicit tables are for small networks).
#include <stdexcept>
#include <string>

#include "netwarp/netmodels/router.hpp"
#include "netwarp/netmodels/topology.hpp"
#include "routing/route_walk.hpp"

namespace netwarp::netmodels {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::logic_error("check_topology: " + what);
}

}  // namespace

void TableRouter::check(const Topology& topology) const {
  if (host_count_ != topology.host_count)
    fail("route table made for " + std::to_string(host_count_) + " hosts, not " +
         std::to_string(topology.host_count));
  if (table_.size() != topology.switch_count())
    fail("route table has " + std::to_string(table_.size()) + " rows for " +
         std::to_string(topology.switch_count()) + " switches");
  for (std::uint32_t s = 0; s < table_.size(); ++s)
    if (table_[s].size() != topology.host_count)
      fail("routes of " + topology.nodes[topology.host_count + s].name + " have " +
           std::to_string(table_[s].size()) + " entries for " +
           std::to_string(topology.host_count) + " hosts");
  std::vector<RouteReach> reach;
  for (NodeId h = 0; h < topology.host_count; ++h) check_routes_toward(topology, h, reach);
}

}  // namespace netwarp::netmodels
