// Validator of the topology block: one oneof member set, each size in range, fat tree given by
// exactly one of p and k, torus of 2 or 3 dimensions, explicit graph links' rates and latencies
// and its route table size, and at most kMaxHosts hosts. The
// netmodels builders check again (ports per switch, node ids); these checks come first so the
// errors are reported at load time.
#include <string>
#include <vector>

#include "validate.hpp"

namespace netwarp::scenarios {

namespace {

// Product of sizes, saturating at kMaxHosts + 1 so it never overflows.
std::uint64_t capped_product(const std::vector<std::uint64_t>& factors) {
  std::uint64_t product = 1;
  for (std::uint64_t factor : factors) {
    product *= factor;
    if (product > kMaxHosts) return kMaxHosts + 1;
  }
  return product;
}

void validate_fat_tree(const proto::FatTree& tree) {
  const std::string at = "topology.fat_tree";
  if (tree.p() != 0 && tree.k() != 0)
    fail(at, "set exactly one of p and k, got both (p: " + std::to_string(tree.p()) +
                 ", k: " + std::to_string(tree.k()) + ")");
  if (tree.p() == 0 && tree.k() == 0)
    fail(at,
         "set exactly one of p (2p-port switches, 2p^3 hosts) and k (k-port switches, "
         "k^3/4 hosts)");
  if (tree.k() % 2 != 0) fail(at + ".k", "must be even, got " + std::to_string(tree.k()));
  if (tree.k() != 0) require_at_least(at + ".k", tree.k(), 2);
}

void validate_leaf_spine(const proto::LeafSpine& ls) {
  const std::string at = "topology.leaf_spine";
  require_at_least(at + ".leaves", ls.leaves(), 2);
  require_at_least(at + ".spines", ls.spines(), 1);
  require_at_least(at + ".hosts_per_leaf", ls.hosts_per_leaf(), 1);
  require_at_least(at + ".links_per_spine", ls.links_per_spine(), 1);
}

void validate_torus(const proto::Torus& torus) {
  const std::string at = "topology.torus";
  if (torus.dims_size() < 2 || torus.dims_size() > 3)
    fail(at + ".dims", "needs 2 or 3 dimensions, got " + std::to_string(torus.dims_size()));
  for (int i = 0; i < torus.dims_size(); ++i)
    require_at_least(at + ".dims[" + std::to_string(i) + "]", torus.dims(i), 2);
  require_at_least(at + ".hosts_per_router", torus.hosts_per_router(), 1);
}

void validate_dragonfly(const proto::Dragonfly& dragonfly) {
  const std::string at = "topology.dragonfly";
  require_at_least(at + ".routers_per_group", dragonfly.routers_per_group(), 1);
  require_at_least(at + ".hosts_per_router", dragonfly.hosts_per_router(), 1);
  require_at_least(at + ".global_per_router", dragonfly.global_per_router(), 1);
  // groups is 0 only when its default, routers_per_group x global_per_router + 1, was too large.
  if (dragonfly.groups() == 0)
    fail(at + ".global_per_router",
         "routers_per_group x global_per_router + 1 (the default groups) must be < 2^32, got " +
             std::to_string(
                 std::uint64_t{dragonfly.routers_per_group()} * dragonfly.global_per_router() + 1));
  require_at_least(at + ".groups", dragonfly.groups(), 2);
  require_at_most(at + ".groups", dragonfly.groups(),
                  std::uint64_t{dragonfly.routers_per_group()} * dragonfly.global_per_router() + 1);
  if (dragonfly.routing() != proto::Dragonfly::MINIMAL && dragonfly.groups() < 3)
    fail(at + ".routing", proto::Dragonfly::Routing_Name(dragonfly.routing()) +
                              " needs groups >= 3 (an intermediate group besides the source's "
                              "and the destination's), got " +
                              std::to_string(dragonfly.groups()));
}

// Route table entries (switches x hosts, 2 B each) an explicit graph may need: 128 MiB.
inline constexpr std::uint64_t kMaxGraphRouteEntries = std::uint64_t{1} << 26;

void validate_graph_link(const proto::GraphLink& link, const std::string& at) {
  if (link.has_rate_bps()) require_positive(at + ".rate_bps", link.rate_bps());
  if (!link.has_latency_ns()) return;
  if (link.latency_ns() < 0)
    fail(at + ".latency_ns", "must be >= 0, got " + std::to_string(link.latency_ns()));
  require_at_most(at + ".latency_ns", static_cast<std::uint64_t>(link.latency_ns()), kMaxTimeNs);
}

// Names, cabling and routes are checked by the netmodels builder; here the numbers.
void validate_graph(const proto::Graph& graph) {
  const std::string at = "topology.graph";
  for (int i = 0; i < graph.links_size(); ++i)
    validate_graph_link(graph.links(i), at + ".links[" + std::to_string(i) + "]");
  std::uint64_t hosts = 0;
  for (const proto::GraphNode& node : graph.nodes())
    hosts += node.kind() == proto::GraphNode::HOST ? 1 : 0;
  if (hosts == 0) fail(at + ".nodes", "lists no host");
  const std::uint64_t switches = static_cast<std::uint64_t>(graph.nodes_size()) - hosts;
  if (hosts * switches > kMaxGraphRouteEntries)
    fail(at + ".nodes", std::to_string(hosts) + " hosts x " + std::to_string(switches) +
                            " switches need more than " + std::to_string(kMaxGraphRouteEntries) +
                            " route table entries");
}

void validate_sizes(const proto::Topology& topology) {
  switch (topology.kind_case()) {
    case proto::Topology::kStar:
      return require_at_least("topology.star.hosts", topology.star().hosts(), 2);
    case proto::Topology::kTree:
      require_at_least("topology.tree.leaves", topology.tree().leaves(), 1);
      require_at_least("topology.tree.hosts_per_leaf", topology.tree().hosts_per_leaf(), 1);
      return require_at_least("topology.tree.uplinks", topology.tree().uplinks(), 1);
    case proto::Topology::kFatTree:
      return validate_fat_tree(topology.fat_tree());
    case proto::Topology::kTorus:
      return validate_torus(topology.torus());
    case proto::Topology::kDragonfly:
      return validate_dragonfly(topology.dragonfly());
    case proto::Topology::kGraph:
      return validate_graph(topology.graph());
    case proto::Topology::kLeafSpine:
      return validate_leaf_spine(topology.leaf_spine());
    case proto::Topology::KIND_NOT_SET:
      fail("topology",
           "not set (set one of dragonfly, fat_tree, graph, leaf_spine, star, torus, tree)");
  }
}

std::string kind_name(const proto::Topology& topology) {
  const auto* field = topology.GetDescriptor()->FindFieldByNumber(topology.kind_case());
  return field ? field->name() : "";
}

// The link levels each kind has, as scenario.proto lists them with the kind.
std::vector<std::string> link_level_names(const proto::Topology& topology) {
  switch (topology.kind_case()) {
    case proto::Topology::kStar:
      return {"host-switch"};
    case proto::Topology::kTree:
      return {"host-leaf", "leaf-root"};
    case proto::Topology::kFatTree:
      return {"host-edge", "edge-aggregation", "aggregation-core"};
    case proto::Topology::kTorus:
      return {"host-router", "router-router"};
    case proto::Topology::kDragonfly:
      return {"host-router", "local", "global"};
    case proto::Topology::kGraph:
      return {"host links", "between switches"};
    case proto::Topology::kLeafSpine:
      return {"host-leaf", "leaf-spine"};
    case proto::Topology::KIND_NOT_SET:
      break;
  }
  return {};
}

}  // namespace

std::uint32_t link_level_count(const proto::Topology& topology) {
  return static_cast<std::uint32_t>(link_level_names(topology).size());
}

std::uint64_t topology_host_count(const proto::Topology& topology) {
  switch (topology.kind_case()) {
    case proto::Topology::kStar:
      return topology.star().hosts();
    case proto::Topology::kTree:
      return capped_product({topology.tree().leaves(), topology.tree().hosts_per_leaf()});
    case proto::Topology::kFatTree: {
      const std::uint64_t k = topology.fat_tree().k() ? topology.fat_tree().k()
                                                      : 2 * std::uint64_t{topology.fat_tree().p()};
      return capped_product({k / 2, k / 2, k});  // k^3 / 4
    }
    case proto::Topology::kTorus: {
      std::vector<std::uint64_t> factors(topology.torus().dims().begin(),
                                         topology.torus().dims().end());
      factors.push_back(topology.torus().hosts_per_router());
      return capped_product(factors);
    }
    case proto::Topology::kDragonfly:
      return capped_product({topology.dragonfly().groups(),
                             topology.dragonfly().routers_per_group(),
                             topology.dragonfly().hosts_per_router()});
    case proto::Topology::kGraph: {
      std::uint64_t hosts = 0;
      for (const proto::GraphNode& node : topology.graph().nodes())
        hosts += node.kind() == proto::GraphNode::HOST ? 1 : 0;
      return hosts;
    }
    case proto::Topology::kLeafSpine:
      return capped_product(
          {topology.leaf_spine().leaves(), topology.leaf_spine().hosts_per_leaf()});
    case proto::Topology::KIND_NOT_SET:
      break;
  }
  return 0;
}

void validate_link_levels(const proto::Scenario& scenario) {
  const std::vector<std::string> names = link_level_names(scenario.topology());
  const proto::Links& links = scenario.links();
  for (int i = 0; i < links.levels_size(); ++i) {
    const std::uint32_t level = links.levels(i).level();
    if (level < names.size()) continue;
    std::string known;
    for (std::size_t l = 0; l < names.size(); ++l)
      known += (l ? ", " : "") + std::to_string(l) + " " + names[l];
    fail("links.levels[" + std::to_string(i) + "].level",
         "a " + kind_name(scenario.topology()) + " has no link level " + std::to_string(level) +
             " (its levels: " + known + ")");
  }
}

namespace {

// Multipath needs equal-cost paths of the topology's own family, and one setting per choice.
void validate_multipath(const proto::Topology& topology) {
  const std::string at = "topology.multipath";
  const proto::Multipath& m = topology.multipath();
  if (m.mode() == proto::Multipath::DEFAULT) {
    if (m.seed() != 0) fail(at + ".seed", "has no effect with mode DEFAULT");
    if (m.flowlet_gap_ns() != 0) fail(at + ".flowlet_gap_ns", "has no effect with mode DEFAULT");
    return;
  }
  const std::string mode = proto::Multipath::Mode_Name(m.mode());
  if (m.mode() != proto::Multipath::FLOWLET && m.flowlet_gap_ns() != 0)
    fail(at + ".flowlet_gap_ns", "is for mode FLOWLET only, not " + mode);
  require_at_most(at + ".flowlet_gap_ns", m.flowlet_gap_ns(), kMaxTimeNs);
  if (topology.has_star() || topology.has_torus() || topology.has_dragonfly())
    fail(at + ".mode", mode + " needs equal-cost paths: a " + kind_name(topology) +
                           " has one route per destination (multipath: tree, leaf_spine, "
                           "fat_tree, graph)");
  if (topology.has_graph() && topology.graph().routes_size() > 0)
    fail(at + ".mode", mode +
                           " takes every shortest path: topology.graph.routes fix one path "
                           "per destination (remove one or the other)");
  if (!topology.has_fat_tree() || topology.fat_tree().routing() != proto::FatTree::ECMP) return;
  if (m.mode() != proto::Multipath::ECMP)
    fail(at + ".mode", mode + " conflicts with topology.fat_tree.routing ECMP (set one of them)");
  if (m.seed() != topology.fat_tree().route_seed())
    fail(at + ".seed", "differs from topology.fat_tree.route_seed (" +
                           std::to_string(topology.fat_tree().route_seed()) +
                           "): with both set to ECMP the two are one setting");
}

}  // namespace

void validate_topology(const proto::Topology& topology) {
  validate_sizes(topology);
  validate_multipath(topology);
  const std::uint64_t hosts = topology_host_count(topology);
  if (hosts > kMaxHosts)
    fail("topology." + kind_name(topology),
         "gives more than the " + std::to_string(kMaxHosts) + " hosts supported");
}

}  // namespace netwarp::scenarios
