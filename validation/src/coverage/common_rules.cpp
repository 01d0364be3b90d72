// The rules ns3_fields.cpp and simgrid_fields.cpp share.
#include "common_rules.hpp"

namespace netwarp::validation {

using C = Coverage;

std::vector<FieldRule> label_and_kernel_rules() {
  constexpr const char* kKernelOnly = "results are byte-identical whatever the kernel settings";
  std::vector<FieldRule> rules{
      {"name", C::no_effect, {}, "", {}},
      {"description", C::no_effect, {}, "", {}},
      {"emulate", C::no_effect, {}, "it only fills defaults, each judged by its own field", {}},
  };
  for (const char* field :
       {"engine.kernel", "engine.gvt_interval", "engine.batch", "engine.window_us",
        "engine.max_uncommitted", "engine.max_uncommitted_bytes", "engine.record_buffer_bytes",
        "engine.adaptive_window", "engine.few_groups", "engine.sync"})
    rules.push_back({field, C::no_effect, {}, kKernelOnly, {}});
  return rules;
}

std::vector<FieldRule> fixed_route_topology_rules(const std::string& routes) {
  std::vector<FieldRule> rules;
  for (const char* field : {"topology.star.hosts",
                            "topology.tree.leaves",
                            "topology.tree.hosts_per_leaf",
                            "topology.tree.uplinks",
                            "topology.fat_tree.p",
                            "topology.fat_tree.k",
                            "topology.torus.dims",
                            "topology.torus.mesh",
                            "topology.torus.hosts_per_router",
                            "topology.dragonfly.routers_per_group",
                            "topology.dragonfly.hosts_per_router",
                            "topology.dragonfly.global_per_router",
                            "topology.dragonfly.groups",
                            "topology.graph.nodes.name",
                            "topology.graph.nodes.kind",
                            "topology.graph.links.a",
                            "topology.graph.links.b",
                            "topology.graph.links.rate_bps",
                            "topology.graph.links.latency_ns",
                            "topology.graph.routes.at",
                            "topology.graph.routes.host",
                            "topology.graph.routes.next",
                            "placement.regular",
                            "placement.random.seed",
                            "placement.explicit.hosts"})
    rules.push_back({field, C::mirrored, {}, "", {}});
  rules.push_back({"topology.fat_tree.routing",
                   C::mirrored,
                   {"D_MOD_K"},
                   routes + "; ECMP's per-connection hash is not mirrored",
                   {}});
  rules.push_back({"topology.fat_tree.route_seed", C::no_effect, {}, "ECMP only, refused", {}});
  rules.push_back({"topology.dragonfly.routing",
                   C::mirrored,
                   {"MINIMAL"},
                   routes + "; per-packet Valiant and UGAL choices are not mirrored",
                   {}});
  return rules;
}

}  // namespace netwarp::validation
