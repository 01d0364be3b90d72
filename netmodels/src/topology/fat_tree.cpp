// build_fat_tree: the 3-level k-ary fat tree (Al-Fares et al., SIGCOMM 2008) with p = k / 2:
// k pods of p edge and p aggregation switches, p^2 core switches, k p^2 hosts (MFS: 2 p^3).
// Layout, with e, a, c, j in [0, p):
//   host (pod * p + e) * p + j  is on port j of "edge<pod>.<e>";
//   edge port p + a             goes to "agg<pod>.<a>" (whose port e comes back);
//   agg port p + c              goes to "core<a * p + c>" (whose port pod comes back).
// Switch nodes follow the hosts pod by pod (edges, then aggregations), then the cores.
// Routing (FatTreeRouter) is up-down with d-mod-k spreading toward host h: an edge goes up to
// aggregation h % p, an aggregation goes up to its core (h / p) % p, so each destination of a
// pod has its own core; the way down is the only one. Paths are shortest: 2, 4 or 6 links.
// Groups: edge <pod>.<e>, its hosts and agg <pod>.<e> are group pod * p + e; core i joins
// group 2 i, which spreads the cores evenly over the pods.
#include "netwarp/netmodels/topology_builders.hpp"
#include "routing/fat_tree_router.hpp"
#include "topology/topology_building.hpp"

namespace netwarp::netmodels {
namespace {

FatTreeShape validate(const FatTreeSpec& spec, const std::string& at) {
  using namespace topology_building;
  if (spec.k < 2 || spec.k % 2 != 0)
    throw InputError(at + ".k", "must be even and >= 2, got " + std::to_string(spec.k));
  require_port_count(at + ".k", spec.k, "each switch");
  const std::uint64_t p = spec.k / 2;
  const std::uint64_t hosts = checked_product(at + ".k", {spec.k, p, p}, "hosts");
  require_node_count(at + ".k", hosts, 2 * std::uint64_t{spec.k} * p + p * p);
  return FatTreeShape{spec.k, spec.k / 2, static_cast<std::uint32_t>(hosts)};
}

void add_pod(Topology& topology, const FatTreeShape& shape, std::uint32_t pod,
             const LinkLevels& links) {
  using namespace topology_building;
  const std::uint32_t p = shape.p;
  for (std::uint32_t e = 0; e < p; ++e) {
    const std::uint32_t group = pod * p + e;
    const std::string suffix = std::to_string(pod) + "." + std::to_string(e);
    set_switch(topology, shape.edge(pod, e), "edge" + suffix, group);
    set_switch(topology, shape.agg(pod, e), "agg" + suffix, group);
    attach_hosts(topology, shape.edge(pod, e), group * p, p, links, group);
  }
  for (std::uint32_t e = 0; e < p; ++e)
    for (std::uint32_t a = 0; a < p; ++a)
      add_cable(topology, shape.edge(pod, e), shape.agg(pod, a), 1, links);
}

void add_cores(Topology& topology, const FatTreeShape& shape, const LinkLevels& links) {
  using namespace topology_building;
  for (std::uint32_t i = 0; i < shape.p * shape.p; ++i)
    set_switch(topology, shape.core(i), "core" + std::to_string(i), 2 * i);
  // Pod by pod, so core port `pod` leads to that pod; aggregation a's cores in order.
  for (std::uint32_t pod = 0; pod < shape.k; ++pod)
    for (std::uint32_t a = 0; a < shape.p; ++a)
      for (std::uint32_t c = 0; c < shape.p; ++c)
        add_cable(topology, shape.agg(pod, a), shape.core(a * shape.p + c), 2, links);
}

}  // namespace

Topology build_fat_tree(const FatTreeSpec& spec, const LinkLevels& links, const std::string& at) {
  const FatTreeShape shape = validate(spec, at);
  Topology topology = topology_building::start_topology("fat_tree", shape.hosts, shape.switches());
  for (std::uint32_t pod = 0; pod < shape.k; ++pod) add_pod(topology, shape, pod, links);
  add_cores(topology, shape, links);
  topology.router =
      std::make_shared<FatTreeRouter>(shape, spec.routing == FatTreeRouting::ecmp, spec.route_seed);
  return topology;
}

}  // namespace netwarp::netmodels
