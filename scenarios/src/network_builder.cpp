// build_network_spec: a validated scenario to a NetworkSpec. Link levels and device settings
// are copied field by field; the topology comes from the netmodels builder of its kind, the
// workload from its generator in rank space, then ranks are placed on hosts; outputs resolve
// node names against the built topology. netmodels::InputError from any step becomes a
// ScenarioError located at the field it names.
#include "netwarp/scenarios/network_builder.hpp"

#include <filesystem>
#include <string>
#include <utility>

#include "builder_parts.hpp"
#include "flows_csv.hpp"
#include "netwarp/netmodels/multipath.hpp"
#include "netwarp/netmodels/topology_builders.hpp"
#include "outputs.hpp"
#include "validate.hpp"

namespace netwarp::scenarios {

namespace {

using namespace netmodels;

LinkSpec link_spec(std::int64_t rate_bps, std::int64_t latency_ns) {
  return LinkSpec{static_cast<std::uint64_t>(rate_bps), engine::ns(latency_ns)};
}

LinkLevels link_levels(const proto::Links& links) {
  LinkLevels levels{link_spec(links.rate_bps(), links.latency_ns()), {}};
  for (const proto::LinkLevel& level : links.levels())
    levels.overrides.emplace_back(static_cast<std::uint8_t>(level.level()),
                                  link_spec(level.rate_bps(), level.latency_ns()));
  return levels;
}

ExplicitSpec explicit_spec(const proto::Graph& graph, bool equal_cost_paths) {
  ExplicitSpec spec;
  spec.equal_cost_paths = equal_cost_paths;
  for (const proto::GraphNode& node : graph.nodes())
    spec.nodes.push_back({node.name(), node.kind() == proto::GraphNode::SWITCH});
  for (const proto::GraphLink& link : graph.links()) {
    ExplicitLink& added = spec.links.emplace_back(ExplicitLink{link.a(), link.b(), {}, {}});
    if (link.has_rate_bps()) added.rate_bps = static_cast<std::uint64_t>(link.rate_bps());
    if (link.has_latency_ns()) added.latency = engine::ns(link.latency_ns());
  }
  for (const proto::GraphRoute& route : graph.routes())
    spec.routes.push_back({route.at(), route.host(), route.next()});
  return spec;
}

DragonflyRouting dragonfly_routing(proto::Dragonfly::Routing routing) {
  switch (routing) {
    case proto::Dragonfly::VALIANT:
      return DragonflyRouting::valiant;
    case proto::Dragonfly::UGAL:
      return DragonflyRouting::ugal;
    default:
      return DragonflyRouting::minimal;
  }
}

MultipathSpec multipath_spec(const proto::Multipath& m) {
  MultipathSpec spec;
  spec.seed = m.seed();
  spec.flowlet_gap = engine::ns(static_cast<std::int64_t>(m.flowlet_gap_ns()));
  switch (m.mode()) {
    case proto::Multipath::SPRAY_RANDOM:
      spec.mode = MultipathMode::spray_random;
      break;
    case proto::Multipath::SPRAY_ROUND_ROBIN:
      spec.mode = MultipathMode::spray_round_robin;
      break;
    case proto::Multipath::FLOWLET:
      spec.mode = MultipathMode::flowlet;
      break;
    default:
      break;
  }
  return spec;
}

// A fat tree's own ECMP (FatTree.routing) and multipath ECMP are one setting: the router's.
Topology build_fat_tree_of(const proto::Topology& t, const LinkLevels& links) {
  const std::uint32_t k = t.fat_tree().k() ? t.fat_tree().k() : 2 * t.fat_tree().p();
  const bool multipath_ecmp = t.multipath().mode() == proto::Multipath::ECMP;
  const bool ecmp = t.fat_tree().routing() == proto::FatTree::ECMP || multipath_ecmp;
  const std::uint64_t seed = multipath_ecmp ? t.multipath().seed() : t.fat_tree().route_seed();
  return build_fat_tree(FatTreeSpec{k, ecmp ? FatTreeRouting::ecmp : FatTreeRouting::d_mod_k, seed},
                        links, "topology.fat_tree");
}

Topology build_kind(const proto::Topology& t, const LinkLevels& links) {
  switch (t.kind_case()) {
    case proto::Topology::kStar:
      return build_star(StarSpec{t.star().hosts()}, links, "topology.star");
    case proto::Topology::kTree:
      return build_tree(TreeSpec{t.tree().leaves(), t.tree().hosts_per_leaf(), t.tree().uplinks()},
                        links, "topology.tree");
    case proto::Topology::kLeafSpine: {
      const proto::LeafSpine& ls = t.leaf_spine();
      return build_leaf_spine(
          LeafSpineSpec{ls.leaves(), ls.spines(), ls.hosts_per_leaf(), ls.links_per_spine()}, links,
          "topology.leaf_spine");
    }
    case proto::Topology::kTorus: {
      const proto::Torus& torus = t.torus();
      const TorusSpec spec{
          {torus.dims().begin(), torus.dims().end()}, !torus.mesh(), torus.hosts_per_router()};
      return build_torus(spec, links, "topology.torus");
    }
    case proto::Topology::kDragonfly: {
      const proto::Dragonfly& d = t.dragonfly();
      const DragonflySpec spec{d.routers_per_group(), d.hosts_per_router(), d.global_per_router(),
                               d.groups(), dragonfly_routing(d.routing())};
      return build_dragonfly(spec, links, "topology.dragonfly");
    }
    case proto::Topology::kGraph:
      return build_explicit(
          explicit_spec(t.graph(), t.multipath().mode() != proto::Multipath::DEFAULT), links,
          "topology.graph");
    case proto::Topology::kFatTree:
    case proto::Topology::KIND_NOT_SET:
      break;
  }
  throw InputError("topology", "not set");
}

// With multipath (validated: the kind has equal-cost paths), switches choose among them.
Topology build_topology(const proto::Topology& t, const LinkLevels& links) {
  Topology topology = t.has_fat_tree() ? build_fat_tree_of(t, links) : build_kind(t, links);
  const proto::Multipath::Mode mode = t.multipath().mode();
  const bool is_fat_tree_ecmp = t.has_fat_tree() && mode == proto::Multipath::ECMP;
  if (mode != proto::Multipath::DEFAULT && !is_fat_tree_ecmp)
    topology.router = with_multipath(topology.router, multipath_spec(t.multipath()));
  return topology;
}

PacketFormat packet_format(const proto::Links& links, const proto::Transport& transport) {
  const std::uint32_t syn_options =
      transport.kind() == proto::Transport::TCP ? transport.tcp().syn_option_bytes() : 0;
  return PacketFormat{links.mtu_bytes(), links.header_bytes(), links.frame_overhead_bytes(),
                      links.control_bytes(), syn_options};
}

SwitchConfig switch_config(const proto::Switch& sw) {
  return SwitchConfig{
      sw.buffer_bytes(),
      sw.buffer_packets(),
      sw.ecn_threshold_bytes(),
      sw.flow_control() == proto::Switch::CREDIT ? FlowControl::credit : FlowControl::none,
      sw.count_frame_in_service(),
      sw.same_instant() == proto::Switch::ARRIVAL_FIRST};
}

TcpRecovery tcp_recovery(proto::Tcp::Recovery recovery) {
  switch (recovery) {
    case proto::Tcp::SACK_6675:
      return TcpRecovery::sack_6675;
    case proto::Tcp::PRR:
      return TcpRecovery::prr;
    case proto::Tcp::NS3_CLASSIC:
      return TcpRecovery::ns3_classic;
    default:
      return TcpRecovery::newreno;
  }
}

TransportConfig transport_config(const proto::Transport& transport) {
  TransportConfig config;
  if (transport.kind() != proto::Transport::TCP) return config;
  const proto::Tcp& tcp = transport.tcp();
  config.kind = TransportKind::tcp;
  config.tcp = TcpConfig{tcp.mss_bytes(),
                         tcp.initial_window_segments(),
                         tcp.receive_window_bytes(),
                         engine::us(static_cast<std::int64_t>(tcp.min_rto_us())),
                         engine::us(static_cast<std::int64_t>(tcp.initial_rto_us())),
                         engine::us(static_cast<std::int64_t>(tcp.max_rto_us())),
                         tcp.dupack_threshold(),
                         tcp.delayed_ack(),
                         engine::us(static_cast<std::int64_t>(tcp.delayed_ack_timeout_us())),
                         tcp.ecn()};
  config.tcp.sack = tcp.sack();
  config.tcp.recovery = tcp_recovery(tcp.recovery());
  config.tcp.prr_conservative = tcp.prr_conservative_bound();
  config.tcp.max_ooo_ranges = tcp.max_ooo_ranges();
  config.tcp.handshake = tcp.handshake();
  config.tcp.rto_after_syn_timeout =
      engine::us(static_cast<std::int64_t>(tcp.syn_timeout_rto_us()));
  config.tcp.limited_transmit = tcp.limited_transmit();
  config.tcp.ssthresh_base = tcp.ssthresh_on_loss() == proto::Tcp::BYTES_IN_FLIGHT
                                 ? SsthreshBase::bytes_in_flight
                                 : SsthreshBase::flight_size;
  config.tcp.recovery_exit_cwnd = tcp.recovery_exit_cwnd() == proto::Tcp::SSTHRESH
                                      ? RecoveryExitCwnd::ssthresh
                                      : RecoveryExitCwnd::bounded_by_flight;
  config.tcp.rto_backoff_reset = tcp.rto_backoff_reset() == proto::Tcp::ON_NEW_ACK
                                     ? RtoBackoffReset::on_new_ack
                                     : RtoBackoffReset::on_rtt_sample;
  set_congestion_control(tcp, config.tcp);
  return config;
}

std::vector<FlowSpec> flow_specs(const proto::Scenario& s, std::uint32_t ranks,
                                 const std::string& scenario_path) {
  const proto::Flows& flows = s.workload().flows();
  if (!flows.csv_file().empty())
    return read_scenario_flows_csv(beside_scenario(scenario_path, flows.csv_file()), s, ranks);
  std::vector<FlowSpec> specs;
  for (const proto::Flow& f : flows.flow())
    specs.push_back(
        FlowSpec{f.src(), f.dst(), f.bytes(), engine::ns(static_cast<std::int64_t>(f.start_ns()))});
  return specs;
}

Workload make_workload(const proto::Scenario& s, std::uint32_t ranks, const std::string& path) {
  const proto::Workload& w = s.workload();
  switch (w.kind_case()) {
    case proto::Workload::kFlows:
      return make_flows(flow_specs(s, ranks, path), ranks, "workload.flows");
    case proto::Workload::kIncast: {
      const std::uint32_t senders = w.incast().senders() ? w.incast().senders() : ranks - 1;
      const IncastSpec spec{senders, w.incast().receiver(), w.incast().bytes(),
                            engine::ns(static_cast<std::int64_t>(w.incast().start_ns()))};
      return make_incast(spec, ranks, "workload.incast");
    }
    case proto::Workload::kAllToAll: {
      const auto order = static_cast<AllToAllOrder>(w.all_to_all().order());
      const AllToAllSpec spec{order, w.all_to_all().bytes(), ranks, w.all_to_all().seed()};
      return make_all_to_all(spec, ranks, "workload.all_to_all");
    }
    case proto::Workload::kPermutation:
      return make_permutation(PermutationSpec{w.permutation().bytes(), w.permutation().seed()},
                              ranks, "workload.permutation");
    case proto::Workload::kUniformRandom: {
      const proto::UniformRandom& u = w.uniform_random();
      return make_uniform_random(UniformRandomSpec{u.messages_per_host(), u.bytes(), u.seed()},
                                 ranks, "workload.uniform_random");
    }
    case proto::Workload::kDatacenter:
    case proto::Workload::KIND_NOT_SET:
      break;
  }
  throw InputError("workload", "not set");
}

}  // namespace

std::string beside_scenario(const std::string& scenario_path, const std::string& file) {
  return (std::filesystem::path(scenario_path).parent_path() / file).string();
}

PlacementSpec placement_spec(const proto::Placement& placement) {
  if (placement.has_random())
    return PlacementSpec{PlacementKind::random, placement.random().seed(), {}};
  if (!placement.has_explicit_()) return PlacementSpec{};
  const auto& hosts = placement.explicit_().hosts();
  return PlacementSpec{PlacementKind::explicit_list, 1, {hosts.begin(), hosts.end()}};
}

namespace {

NetworkSpec build(const LoadedScenario& loaded) {
  const proto::Scenario& s = loaded.scenario;
  NetworkSpec spec;
  spec.topology = build_topology(s.topology(), link_levels(s.links()));
  spec.few_groups = s.engine().few_groups() == proto::Engine::SPREAD ? FewGroupsPlacement::spread
                                                                     : FewGroupsPlacement::together;
  spec.format = packet_format(s.links(), s.transport());
  spec.switches = switch_config(s.switch_());
  spec.nic = NicConfig{static_cast<std::uint64_t>(s.nic().rate_bps()), s.nic().buffer_bytes(),
                       engine::ns(static_cast<std::int64_t>(s.nic().jitter_ns()))};
  spec.transport = transport_config(s.transport());
  if (s.has_workload()) {
    const auto ranks = static_cast<std::uint32_t>(workload_rank_count(s));
    spec.workload = make_workload(s, ranks, loaded.path);
    spec.workload.persistent_connections = s.workload().persistent_connections();
    const std::uint32_t hosts = spec.topology.host_count;
    apply_placement(spec.workload,
                    place_ranks(placement_spec(s.placement()), ranks, hosts, "placement"));
  }
  spec.outputs = resolve_outputs(s.outputs(), spec.topology);
  return spec;
}

}  // namespace

NetworkSpec build_network_spec(const LoadedScenario& loaded) {
  try {
    return build(loaded);
  } catch (const ScenarioError&) {
    throw;
  } catch (const InputError& e) {
    throw loaded.error(e.field(), e.message());
  }
}

}  // namespace netwarp::scenarios
