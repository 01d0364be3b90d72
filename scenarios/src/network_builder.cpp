// build_network_spec: a validated scenario to a NetworkSpec. Link levels and device settings
// are copied field by field; the topology comes from the netmodels builder of its kind, the
// workload from its generator in rank space, then ranks are placed on hosts; outputs resolve
// node names against the built topology. netmodels::InputError from any step becomes a
// ScenarioError located at the field it names.
#include "netwarp/scenarios/network_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>

#include "builder_parts.hpp"
#include "distributions.hpp"
#include "flows_csv.hpp"
#include "netwarp/netmodels/multipath.hpp"
#include "netwarp/netmodels/topology_builders.hpp"
#include "outputs.hpp"
#include "validate.hpp"
#include "validate_time.hpp"

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

RedConfig red_config(const proto::Red& red) {
  return RedConfig{red.min_bytes(), red.max_bytes(), red.max_probability(), red.queue_weight()};
}

SwitchConfig switch_config(const proto::Switch& sw) {
  SwitchConfig config;
  config.buffer_bytes = sw.buffer_bytes();
  config.buffer_packets = sw.buffer_packets();
  config.ecn_threshold_bytes = sw.ecn_threshold_bytes();
  config.flow_control =
      sw.flow_control() == proto::Switch::CREDIT ? FlowControl::credit : FlowControl::none;
  config.count_frame_in_service = sw.count_frame_in_service();
  config.arrival_first = sw.same_instant() == proto::Switch::ARRIVAL_FIRST;
  for (const proto::PortClass& c : sw.classes())
    config.classes.push_back(PortClassConfig{static_cast<std::uint8_t>(c.priority()), c.weight(),
                                             c.buffer_bytes(), c.ecn_threshold_bytes(),
                                             red_config(c.red()), c.lossless()});
  config.scheduler =
      sw.scheduler() == proto::Switch::DRR ? PortScheduler::drr : PortScheduler::strict_priority;
  config.red = red_config(sw.red());
  config.mark_at = sw.mark_at() == proto::Switch::DEQUEUE ? MarkAt::dequeue : MarkAt::enqueue;
  config.mark_ns3_red = sw.mark_reading() == proto::Switch::MARK_NS3_RED;
  if (sw.has_pfc())
    config.pfc = PfcConfig{true, sw.pfc().xoff_bytes(), sw.pfc().xon_bytes(),
                           sw.pfc().headroom_bytes(), sw.pfc().pause_quanta()};
  if (sw.has_shared_buffer())
    config.shared_buffer =
        SharedBufferConfig{sw.shared_buffer().bytes(), sw.shared_buffer().alpha(),
                           sw.shared_buffer().reserved_bytes()};
  return config;
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

RoceConfig roce_config(const proto::Roce& roce) {
  RoceConfig config;
  config.timeout = engine::us(static_cast<std::int64_t>(roce.timeout_us()));
  config.ack_interval_packets = roce.ack_interval_packets();
  const proto::Dcqcn& d = roce.dcqcn();
  DcqcnConfig& c = config.dcqcn;
  c.enabled = d.enabled();
  c.g = d.g();
  c.alpha_timer = engine::us(static_cast<std::int64_t>(d.alpha_timer_us()));
  c.rate_timer = engine::us(static_cast<std::int64_t>(d.rate_timer_us()));
  c.byte_counter_bytes = d.byte_counter_bytes();
  c.fast_recovery_steps = d.fast_recovery_steps();
  c.rai_bps = static_cast<std::uint64_t>(d.rai_mbps() * 1e6);
  c.rhai_bps = static_cast<std::uint64_t>(d.rhai_mbps() * 1e6);
  c.cnp_interval = engine::us(static_cast<std::int64_t>(d.cnp_interval_us()));
  c.min_rate_bps = static_cast<std::uint64_t>(d.min_rate_mbps() * 1e6);
  return config;
}

TransportConfig transport_config(const proto::Transport& transport) {
  TransportConfig config;
  if (transport.kind() == proto::Transport::ROCE) {
    config.kind = TransportKind::roce;
    config.roce = roce_config(transport.roce());
    return config;
  }
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
  config.tcp.prr_whole_segments = tcp.prr_whole_segments();
  config.tcp.sack_reading =
      tcp.sack_reading() == proto::Tcp::SACK_NS3 ? SackReading::ns3 : SackReading::rfc;
  config.tcp.sack_option_bytes = tcp.sack_option_bytes();
  config.tcp.delayed_ack_reading = tcp.delayed_ack_reading() == proto::Tcp::DELAYED_ACK_NS3
                                       ? DelayedAckReading::ns3
                                       : DelayedAckReading::rfc;
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

// `read` of a file the scenario names at `field`: its errors (at the file's own line) say
// where the scenario named it, "SCENARIO:LINE:COL: FIELD: FILE:LINE: ...".
template <typename Read>
auto from_referenced_file(const std::string& field, Read read) {
  try {
    return read();
  } catch (const netmodels::FileInputError& e) {
    throw InputError(field, e.what());
  } catch (const ScenarioError& e) {
    throw InputError(field, e.what());
  }
}

std::vector<FlowSpec> flow_specs(const proto::Scenario& s, const proto::Workload& w,
                                 const std::string& at, std::uint32_t ranks,
                                 const std::string& scenario_path) {
  const proto::Flows& flows = w.flows();
  if (!flows.csv_file().empty())
    return from_referenced_file(at + ".flows.csv_file", [&] {
      return read_scenario_flows_csv(beside_scenario(scenario_path, flows.csv_file()), s, ranks);
    });
  std::vector<FlowSpec> specs;
  for (const proto::Flow& f : flows.flow()) {
    FlowSpec& spec = specs.emplace_back();
    spec.src = f.src();
    spec.dst = f.dst();
    spec.bytes = f.bytes();
    spec.start = engine::ns(static_cast<std::int64_t>(f.start_ns()));
    spec.name = f.name();
    spec.group = f.group();
    spec.after_name = f.after();
    spec.gap = engine::ns(static_cast<std::int64_t>(f.gap_ns()));
    spec.class_name = f.class_();
  }
  resolve_flow_dependencies(specs, at + ".flows.flow");
  return specs;
}

// What the datacenter generator needs beside the scenario's fields: the distribution (read
// here, from its file) and the link rate of each rank's host.
DatacenterSpec datacenter_spec(const proto::Datacenter& d, const std::string& at,
                               const std::string& scenario_path,
                               std::vector<std::uint64_t> rank_rate_bps) {
  DatacenterSpec spec;
  spec.sizes = from_referenced_file(at + ".distribution", [&] {
    return load_distribution(d.distribution(), at + ".distribution", scenario_path);
  });
  spec.load = d.load();
  spec.duration = engine::ns(static_cast<std::int64_t>(d.duration_ns()));
  spec.max_flows = d.flows();
  for (const proto::FlowPair& pair : d.pairs()) spec.pairs.emplace_back(pair.src(), pair.dst());
  spec.rank_rate_bps = std::move(rank_rate_bps);
  spec.seed = d.seed();
  return spec;
}

// One workload in its rank space; `at` names its fields ("workload", "workloads[1]").
// Flows may name their own class: `flow_classes` gets each flow's ("" for the workload's).
Workload make_workload(const proto::Scenario& s, const proto::Workload& w, const std::string& at,
                       std::uint32_t ranks, const std::string& path,
                       const std::vector<std::uint64_t>& rank_rate_bps,
                       std::vector<std::string>& flow_classes) {
  switch (w.kind_case()) {
    case proto::Workload::kFlows: {
      const std::vector<FlowSpec> specs = flow_specs(s, w, at, ranks, path);
      for (const FlowSpec& f : specs) flow_classes.push_back(f.class_name);
      return make_flows(specs, ranks, at + ".flows");
    }
    case proto::Workload::kIncast: {
      const std::uint32_t senders = w.incast().senders() ? w.incast().senders() : ranks - 1;
      const IncastSpec spec{senders, w.incast().receiver(), w.incast().bytes(),
                            engine::ns(static_cast<std::int64_t>(w.incast().start_ns()))};
      return make_incast(spec, ranks, at + ".incast");
    }
    case proto::Workload::kAllToAll: {
      const auto order = static_cast<AllToAllOrder>(w.all_to_all().order());
      const AllToAllSpec spec{order, w.all_to_all().bytes(), ranks, w.all_to_all().seed()};
      return make_all_to_all(spec, ranks, at + ".all_to_all");
    }
    case proto::Workload::kPermutation:
      return make_permutation(PermutationSpec{w.permutation().bytes(), w.permutation().seed()},
                              ranks, at + ".permutation");
    case proto::Workload::kUniformRandom: {
      const proto::UniformRandom& u = w.uniform_random();
      return make_uniform_random(UniformRandomSpec{u.messages_per_host(), u.bytes(), u.seed()},
                                 ranks, at + ".uniform_random");
    }
    case proto::Workload::kDatacenter: {
      const DatacenterSpec spec =
          datacenter_spec(w.datacenter(), at + ".datacenter", path, rank_rate_bps);
      return make_datacenter(spec, ranks, at + ".datacenter");
    }
    case proto::Workload::KIND_NOT_SET:
      break;
  }
  throw InputError(at, "not set");
}

// The rate each rank's host injects at: its NIC's, or its link's.
std::vector<std::uint64_t> rank_rates(const NetworkSpec& spec, const std::vector<NodeId>& hosts) {
  std::vector<std::uint64_t> rates;
  rates.reserve(hosts.size());
  for (NodeId h : hosts)
    rates.push_back(spec.nic.rate_bps != 0 ? spec.nic.rate_bps
                                           : spec.topology.nodes[h].ports[0].rate_bps);
  return rates;
}

// Appends `part` (one workload, already placed on hosts) to `all` as class `class_id`: ids
// renumbered, starts shifted by the workload's start. A host's first message of the part never
// waits for the host's messages of earlier parts: after_previous chains stay in one workload.
void append_part(Workload& all, const Workload& part, const std::vector<std::uint16_t>& class_ids,
                 std::uint8_t priority, std::uint16_t tcp_config, SimTime start,
                 std::uint32_t host_count) {
  std::vector<char> seen(host_count, 0), had(host_count, 0);
  for (const Message& m : all.messages) had[m.src] = 1;
  const auto offset = static_cast<MessageId>(all.messages.size());
  all.messages.reserve(all.messages.size() + part.messages.size());
  for (Message m : part.messages) {
    m.class_id = class_ids[m.id];
    m.id = static_cast<MessageId>(all.messages.size());
    m.start = m.start + start;
    m.priority = priority;
    m.tcp_config = tcp_config;
    if (!seen[m.src] && had[m.src]) m.after_previous = false;
    seen[m.src] = 1;
    all.messages.push_back(m);
  }
  if (part.dependent_begin.empty() && all.dependent_begin.empty()) return;
  // The dependents, shifted; messages without any get empty ranges.
  if (all.dependent_begin.empty()) all.dependent_begin.assign(offset + 1, 0);
  const std::uint32_t base = all.dependent_begin.back();
  for (std::size_t i = 0; i < part.messages.size(); ++i)
    all.dependent_begin.push_back(base +
                                  (part.dependent_begin.empty() ? 0 : part.dependent_begin[i + 1]));
  for (MessageId d : part.dependents) all.dependents.push_back(d + offset);
}

// The class of each message of a part: the workload's, or a flow's own (`class`), numbered in
// order of first appearance after the workloads' own classes.
std::vector<std::uint16_t> part_class_ids(Workload& all, std::size_t messages,
                                          std::uint16_t workload_class,
                                          const std::vector<std::string>& flow_classes) {
  std::vector<std::uint16_t> ids(messages, workload_class);
  for (std::size_t i = 0; i < flow_classes.size() && i < messages; ++i) {
    if (flow_classes[i].empty()) continue;
    std::size_t c = 0;
    while (c < all.classes.size() && all.classes[c].name != flow_classes[i]) ++c;
    if (c == all.classes.size()) all.classes.push_back(TrafficClass{flow_classes[i], false});
    ids[i] = static_cast<std::uint16_t>(c);
  }
  return ids;
}

// A generated workload's time budget (the others are checked before they are built): what its
// busiest host sends or receives, its largest flow, its latest start.
void require_generated_within_budget(const proto::Scenario& s, const Workload& part,
                                     const std::string& at, std::uint32_t ranks) {
  Demand demand{at + ".datacenter"};
  std::vector<std::uint64_t> sent(ranks, 0), received(ranks, 0);
  for (const Message& m : part.messages) {
    sent[m.src] += m.bytes;
    received[m.dst] += m.bytes;
    demand.port_bytes = std::max({demand.port_bytes, sent[m.src], received[m.dst]});
    demand.largest_message_bytes = std::max(demand.largest_message_bytes, m.bytes);
    demand.latest_start_ns =
        std::max(demand.latest_start_ns, static_cast<std::uint64_t>(m.start.ps() / 1000));
  }
  PathBound(s).require_within_budget(demand);
}

// A workload with a TCP transport of its own (validated: the scenario's is TCP too).
bool has_own_tcp(const proto::Workload& w) {
  return w.has_transport() && w.transport().kind() == proto::Transport::TCP;
}

// Every workload of the scenario, each in its rank space, placed on its hosts (its own, or the
// placement over all hosts) and appended as a traffic class of its own; `own_tcp` gets the TCP
// settings of those with a transport of their own (NetworkSpec::workload_tcp).
Workload build_workloads(const LoadedScenario& loaded, const NetworkSpec& spec,
                         std::vector<TcpConfig>& own_tcp) {
  const proto::Scenario& s = loaded.scenario;
  const std::uint32_t host_count = spec.topology.host_count;
  const std::vector<ScenarioWorkload> entries = scenario_workloads(s);
  Workload all;
  for (const ScenarioWorkload& entry : entries)  // the workloads' classes come first
    all.classes.push_back(TrafficClass{entry.class_name, entry.workload->persistent_connections()});
  for (std::size_t c = 0; c < entries.size(); ++c) {
    const ScenarioWorkload& entry = entries[c];
    const proto::Workload& w = *entry.workload;
    const auto ranks = static_cast<std::uint32_t>(workload_rank_count(s, w));
    const std::vector<NodeId> hosts =
        w.has_hosts() ? host_set_hosts(w.hosts(), host_count, entry.at + ".hosts")
                      : place_ranks(placement_spec(s.placement()), ranks, host_count, "placement");
    std::vector<std::string> flow_classes;
    Workload part =
        make_workload(s, w, entry.at, ranks, loaded.path, rank_rates(spec, hosts), flow_classes);
    if (w.has_datacenter()) require_generated_within_budget(s, part, entry.at, ranks);
    apply_placement(part, hosts);
    if (entries.size() == 1) {  // one workload: its messages as they are
      all.kind = part.kind;
      all.persistent_connections = w.persistent_connections();
    } else {
      all.kind = "mixed";
    }
    const std::vector<std::uint16_t> class_ids =
        part_class_ids(all, part.messages.size(), static_cast<std::uint16_t>(c), flow_classes);
    if (has_own_tcp(w)) own_tcp.push_back(transport_config(w.transport()).tcp);
    const auto tcp_config = static_cast<std::uint16_t>(has_own_tcp(w) ? own_tcp.size() : 0);
    append_part(all, part, class_ids, static_cast<std::uint8_t>(w.priority()), tcp_config,
                engine::ns(static_cast<std::int64_t>(w.start_ns())), host_count);
  }
  return all;
}

}  // namespace

std::vector<NodeId> host_set_hosts(const proto::HostSet& set, std::uint32_t host_count,
                                   const std::string& at) {
  std::vector<NodeId> hosts;
  switch (set.kind_case()) {
    case proto::HostSet::kList:
      hosts.assign(set.list().hosts().begin(), set.list().hosts().end());
      break;
    case proto::HostSet::kRange: {
      const std::uint32_t stride = set.range().stride() == 0 ? 1 : set.range().stride();
      for (std::uint32_t i = 0; i < set.range().count(); ++i)
        hosts.push_back(set.range().first() + i * stride);
      break;
    }
    case proto::HostSet::kRandom: {
      const PlacementSpec random{PlacementKind::random, set.random().seed(), {}};
      hosts = place_ranks(random, set.random().count(), host_count, at + ".random");
      break;
    }
    case proto::HostSet::KIND_NOT_SET:
      break;
  }
  return hosts;
}

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

// outputs.size_buckets_bytes, or one packet's payload, 10 KB, 100 KB, 1 MB.
std::vector<std::uint64_t> size_buckets(const proto::Scenario& s) {
  if (s.outputs().size_buckets_bytes_size() > 0)
    return {s.outputs().size_buckets_bytes().begin(), s.outputs().size_buckets_bytes().end()};
  const std::uint64_t payload = s.links().mtu_bytes() - s.links().header_bytes();
  std::vector<std::uint64_t> bounds{payload};
  for (std::uint64_t decade : {10'000, 100'000, 1'000'000})
    if (decade > bounds.back()) bounds.push_back(decade);
  return bounds;
}

// Every switch's queues (ports x classes) must leave part of the shared pool unreserved.
void check_reservations(const SwitchConfig& config, const Topology& topology) {
  const SharedBufferConfig& pool = config.shared_buffer;
  if (pool.bytes == 0 || pool.reserved_bytes == 0) return;
  std::uint64_t ports = 0;
  for (NodeId n = topology.host_count; n < topology.nodes.size(); ++n)
    ports = std::max<std::uint64_t>(ports, topology.nodes[n].ports.size());
  const std::uint64_t queues = ports * std::max<std::size_t>(config.classes.size(), 1);
  if (pool.reserved_bytes * queues >= pool.bytes)
    throw InputError("switch.shared_buffer.reserved_bytes",
                     fmt::format("{} queues (ports x classes) of a {}-port switch reserve {} B of "
                                 "the {} B pool: reserve less, leaving a shared part",
                                 queues, ports, pool.reserved_bytes * queues, pool.bytes));
}

NetworkSpec build(const LoadedScenario& loaded) {
  const proto::Scenario& s = loaded.scenario;
  NetworkSpec spec;
  spec.topology = build_topology(s.topology(), link_levels(s.links()));
  spec.few_groups = s.engine().few_groups() == proto::Engine::SPREAD ? FewGroupsPlacement::spread
                                                                     : FewGroupsPlacement::together;
  spec.format = packet_format(s.links(), s.transport());
  spec.switches = switch_config(s.switch_());
  check_reservations(spec.switches, spec.topology);
  spec.nic = NicConfig{static_cast<std::uint64_t>(s.nic().rate_bps()), s.nic().buffer_bytes(),
                       engine::ns(static_cast<std::int64_t>(s.nic().jitter_ns()))};
  spec.transport = transport_config(s.transport());
  spec.workload = build_workloads(loaded, spec, spec.workload_tcp);
  spec.outputs = resolve_outputs(s.outputs(), spec.topology);
  spec.outputs.size_buckets_bytes = size_buckets(s);
  spec.outputs.drops_by_class =
      spec.workload.classes.size() > 1 || (s.has_mpi() && has_workloads(s));
  return spec;
}

// `make` with netmodels::InputError located in the scenario file.
template <typename Make>
auto located(const LoadedScenario& loaded, Make make) {
  try {
    return make();
  } catch (const ScenarioError&) {
    throw;
  } catch (const InputError& e) {
    throw loaded.error(e.field(), e.message());
  }
}

}  // namespace

NetworkSpec build_network_spec(const LoadedScenario& loaded) {
  return located(loaded, [&] { return build(loaded); });
}

Topology build_scenario_topology(const LoadedScenario& loaded) {
  return located(loaded, [&] {
    return build_topology(loaded.scenario.topology(), link_levels(loaded.scenario.links()));
  });
}

}  // namespace netwarp::scenarios
