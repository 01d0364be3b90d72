// fill_defaults: one function per field group, each writing the defaults documented in
// scenario.proto. Derived defaults that could be ill-defined (MSS from a bad MTU, dragonfly
// group count from zero sizes) are left alone for the validator to report.
#include "defaults.hpp"

#include "netwarp/engine/splitmix.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace netwarp::scenarios {

namespace {

// The workloads with a TCP transport of their own (Workload.transport).
std::vector<proto::Workload*> own_tcp_transports(proto::Scenario& s) {
  std::vector<proto::Workload*> out;
  if (s.has_workload() && s.workload().transport().kind() == proto::Transport::TCP)
    out.push_back(s.mutable_workload());
  for (proto::Workload& w : *s.mutable_workloads())
    if (w.transport().kind() == proto::Transport::TCP) out.push_back(&w);
  return out;
}

// TCP's readings of the RFCs as ns-3.37's TcpSocketBase has them (validation/ns3/SEMANTICS.md
// sections 6-8); ns-3 has no RFC 6298 5.7 rule after a timed-out SYN: data starts at the
// minimum RTO.
void apply_ns3_tcp_defaults(proto::Tcp& tcp) {
  if (!tcp.has_ssthresh_on_loss()) tcp.set_ssthresh_on_loss(proto::Tcp::BYTES_IN_FLIGHT);
  if (!tcp.has_recovery_exit_cwnd()) tcp.set_recovery_exit_cwnd(proto::Tcp::SSTHRESH);
  if (!tcp.has_rto_backoff_reset()) tcp.set_rto_backoff_reset(proto::Tcp::ON_NEW_ACK);
  if (!tcp.has_syn_timeout_rto_us())
    tcp.set_syn_timeout_rto_us(tcp.has_min_rto_us() ? tcp.min_rto_us() : 200'000);
  const bool is_cubic = tcp.congestion_control() == proto::Tcp::CUBIC;
  const bool ns3_recovery = !tcp.has_recovery() || tcp.recovery() == proto::Tcp::NS3_CLASSIC;
  if (is_cubic && !tcp.has_cubic_reading() && !tcp.sack() && !tcp.ecn() && ns3_recovery)
    tcp.set_cubic_reading(proto::Tcp::CUBIC_NS3);
  const bool is_dctcp = tcp.congestion_control() == proto::Tcp::DCTCP;
  if (is_dctcp && !tcp.has_dctcp_reading() && !tcp.sack() && ns3_recovery)
    tcp.set_dctcp_reading(proto::Tcp::DCTCP_NS3);
  const bool ns3_window_rules = tcp.congestion_control() == proto::Tcp::NEW_RENO ||
                                (is_cubic && tcp.cubic_reading() == proto::Tcp::CUBIC_NS3);
  // TcpDctcp turns ECN on by itself, so `ecn` does not matter to it.
  const bool ns3_dctcp = is_dctcp && tcp.dctcp_reading() == proto::Tcp::DCTCP_NS3;
  const bool is_ns3_classic_case = !tcp.sack() && ((!tcp.ecn() && ns3_window_rules) || ns3_dctcp);
  // Window scale (3 B), with SACK also SACK permitted (2 B), padded to 4-byte words.
  if (!tcp.has_syn_option_bytes()) tcp.set_syn_option_bytes(tcp.sack() ? 8 : 4);
  if (!tcp.has_recovery() && is_ns3_classic_case) tcp.set_recovery(proto::Tcp::NS3_CLASSIC);
  if (!tcp.has_sack_reading()) tcp.set_sack_reading(proto::Tcp::SACK_NS3);
  if (!tcp.has_sack_option_bytes()) tcp.set_sack_option_bytes(true);
  if (!tcp.has_delayed_ack_reading()) tcp.set_delayed_ack_reading(proto::Tcp::DELAYED_ACK_NS3);
}

// DCQCN and RoCE defaults: scenario.proto (Roce, Dcqcn) cites each.
void fill_roce(proto::Roce& roce) {
  if (!roce.has_timeout_us()) roce.set_timeout_us(4000);
  if (!roce.has_ack_interval_packets()) roce.set_ack_interval_packets(1);
  proto::Dcqcn& d = *roce.mutable_dcqcn();
  if (!d.has_enabled()) d.set_enabled(true);
  if (!d.has_g()) d.set_g(1.0 / 256);
  if (!d.has_alpha_timer_us()) d.set_alpha_timer_us(55);
  if (!d.has_rate_timer_us()) d.set_rate_timer_us(55);
  if (!d.has_byte_counter_bytes()) d.set_byte_counter_bytes(10 * 1024 * 1024);
  if (!d.has_fast_recovery_steps()) d.set_fast_recovery_steps(5);
  if (!d.has_rai_mbps()) d.set_rai_mbps(40);
  if (!d.has_rhai_mbps()) d.set_rhai_mbps(400);
  if (!d.has_cnp_interval_us()) d.set_cnp_interval_us(50);
  if (!d.has_min_rate_mbps()) d.set_min_rate_mbps(10);
}

// emulate: NS3 is a preset of defaults (scenario.proto lists the fields); what the file or
// --set wrote keeps its value. Runs before the native defaults fill the rest.
void apply_ns3_defaults(proto::Scenario& s) {
  if (!s.engine().has_tie_order()) s.mutable_engine()->set_tie_order(proto::Engine::FIFO_CREATOR);
  if (!s.links().has_frame_overhead_bytes()) s.mutable_links()->set_frame_overhead_bytes(2);
  proto::Switch& sw = *s.mutable_switch_();
  if (!sw.has_count_frame_in_service()) sw.set_count_frame_in_service(false);
  if (!sw.has_same_instant()) sw.set_same_instant(proto::Switch::ARRIVAL_FIRST);
  // netwarp-ns3 puts a RedQueueDisc step marker on every port that marks by the threshold.
  const bool marks_by_threshold = sw.ecn_threshold_bytes() != 0 && sw.classes_size() == 0 &&
                                  !sw.has_red() && sw.mark_at() == proto::Switch::ENQUEUE &&
                                  sw.flow_control() == proto::Switch::NONE &&
                                  sw.buffer_packets() == 0 && !sw.has_shared_buffer();
  if (!sw.has_mark_reading() && marks_by_threshold)
    sw.set_mark_reading(proto::Switch::MARK_NS3_RED);
  if (s.transport().kind() == proto::Transport::TCP)
    apply_ns3_tcp_defaults(*s.mutable_transport()->mutable_tcp());
  for (proto::Workload* w : own_tcp_transports(s))
    apply_ns3_tcp_defaults(*w->mutable_transport()->mutable_tcp());
}

void fill_engine(proto::Engine& engine) {
  if (engine.gvt_interval() == 0) engine.set_gvt_interval(64);
  if (engine.batch() == 0) engine.set_batch(16);
  if (!engine.has_tie_order()) engine.set_tie_order(proto::Engine::FIFO);
}

void fill_switch(proto::Switch& sw) {
  if (!sw.has_count_frame_in_service()) sw.set_count_frame_in_service(true);
  if (!sw.has_same_instant()) sw.set_same_instant(proto::Switch::DEPARTURE_FIRST);
  for (proto::PortClass& c : *sw.mutable_classes())
    if (c.weight() == 0) c.set_weight(1);
  if (sw.has_shared_buffer() && !sw.shared_buffer().has_alpha())
    sw.mutable_shared_buffer()->set_alpha(1);
  if (sw.has_pfc() && !sw.pfc().has_pause_quanta()) sw.mutable_pfc()->set_pause_quanta(65535);
}

void fill_links(proto::Links& links) {
  if (!links.has_rate_bps()) links.set_rate_bps(1'000'000'000);
  if (!links.has_latency_ns()) links.set_latency_ns(1000);
  if (!links.has_mtu_bytes()) links.set_mtu_bytes(1500);
  if (!links.has_header_bytes()) links.set_header_bytes(40);
  if (!links.has_frame_overhead_bytes()) links.set_frame_overhead_bytes(38);
  for (proto::LinkLevel& level : *links.mutable_levels()) {
    if (!level.has_rate_bps()) level.set_rate_bps(links.rate_bps());
    if (!level.has_latency_ns()) level.set_latency_ns(links.latency_ns());
  }
}

void fill_multipath(proto::Multipath& multipath, std::uint64_t seed) {
  if (multipath.mode() == proto::Multipath::DEFAULT) return;
  if (multipath.seed() == 0) multipath.set_seed(seed);
  if (multipath.mode() == proto::Multipath::FLOWLET && multipath.flowlet_gap_ns() == 0)
    multipath.set_flowlet_gap_ns(50'000);
}

void fill_topology(proto::Topology& topology, std::uint64_t seed) {
  if (topology.has_fat_tree() && topology.fat_tree().routing() == proto::FatTree::ECMP &&
      topology.fat_tree().route_seed() == 0)
    topology.mutable_fat_tree()->set_route_seed(seed);
  if (topology.has_tree() && topology.tree().uplinks() == 0)
    topology.mutable_tree()->set_uplinks(1);
  if (topology.has_leaf_spine() && topology.leaf_spine().links_per_spine() == 0)
    topology.mutable_leaf_spine()->set_links_per_spine(1);
  if (topology.has_multipath()) fill_multipath(*topology.mutable_multipath(), seed);
  if (topology.has_torus() && topology.torus().hosts_per_router() == 0)
    topology.mutable_torus()->set_hosts_per_router(1);
  if (!topology.has_dragonfly() || topology.dragonfly().groups() != 0) return;
  proto::Dragonfly& dragonfly = *topology.mutable_dragonfly();
  const std::uint64_t groups =
      std::uint64_t{dragonfly.routers_per_group()} * dragonfly.global_per_router() + 1;
  if (groups > 1 && groups <= std::numeric_limits<std::uint32_t>::max())
    dragonfly.set_groups(static_cast<std::uint32_t>(groups));
}

void fill_tcp(proto::Tcp& tcp, const proto::Links& links) {
  if (tcp.mss_bytes() == 0 && links.mtu_bytes() > links.header_bytes())
    tcp.set_mss_bytes(links.mtu_bytes() - links.header_bytes());
  if (!tcp.has_initial_window_segments()) tcp.set_initial_window_segments(10);
  if (!tcp.has_min_rto_us()) tcp.set_min_rto_us(200'000);
  if (!tcp.has_max_rto_us()) tcp.set_max_rto_us(60'000'000);
  // RFC 6298's 1 s, moved inside [min_rto_us, max_rto_us] when those were set around it.
  if (!tcp.has_initial_rto_us() && tcp.min_rto_us() <= tcp.max_rto_us())
    tcp.set_initial_rto_us(
        std::clamp<std::uint64_t>(1'000'000, tcp.min_rto_us(), tcp.max_rto_us()));
  if (!tcp.has_initial_rto_us()) tcp.set_initial_rto_us(1'000'000);
  if (!tcp.has_dupack_threshold()) tcp.set_dupack_threshold(3);
  if (!tcp.has_delayed_ack_timeout_us()) tcp.set_delayed_ack_timeout_us(40'000);
  if (!tcp.has_handshake()) tcp.set_handshake(true);
  if (!tcp.has_limited_transmit()) tcp.set_limited_transmit(true);
  if (!tcp.has_syn_timeout_rto_us()) tcp.set_syn_timeout_rto_us(3'000'000);
  // Only the chosen algorithm's parameters, so a stray one is an error (validate.cpp).
  if (tcp.congestion_control() == proto::Tcp::CUBIC && !tcp.has_cubic_c()) tcp.set_cubic_c(0.4);
  if (tcp.congestion_control() == proto::Tcp::CUBIC && !tcp.has_cubic_beta())
    tcp.set_cubic_beta(0.7);
  if (tcp.congestion_control() == proto::Tcp::DCTCP && !tcp.has_dctcp_g())
    tcp.set_dctcp_g(1.0 / 16);
  if (tcp.congestion_control() == proto::Tcp::DCTCP && !tcp.has_dctcp_initial_alpha())
    tcp.set_dctcp_initial_alpha(1);
}

void fill_placement(proto::Placement& placement, std::uint64_t seed) {
  if (placement.kind_case() == proto::Placement::KIND_NOT_SET) placement.mutable_regular();
  if (placement.has_random() && placement.random().seed() == 0)
    placement.mutable_random()->set_seed(seed);
}

// The default seed of an entry of `workloads`: the scenario's mixed with its name, so that two
// workloads of one kind draw differently (`workload` keeps the scenario's, as before).
std::uint64_t named_workload_seed(std::uint64_t seed, const std::string& name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ULL;
  return engine::splitmix64_finalize(seed ^ h);
}

void fill_workload(proto::Workload& workload, std::uint64_t seed) {
  if (workload.has_datacenter() && workload.datacenter().seed() == 0)
    workload.mutable_datacenter()->set_seed(seed);
  if (workload.hosts().has_random() && workload.hosts().random().seed() == 0)
    workload.mutable_hosts()->mutable_random()->set_seed(seed);
  if (workload.has_all_to_all() && workload.all_to_all().seed() == 0)
    workload.mutable_all_to_all()->set_seed(seed);
  if (workload.has_permutation() && workload.permutation().seed() == 0)
    workload.mutable_permutation()->set_seed(seed);
  if (workload.has_uniform_random() && workload.uniform_random().seed() == 0)
    workload.mutable_uniform_random()->set_seed(seed);
}

void fill_mpi_host(proto::MpiHost& h) {
  if (!h.has_o_ns()) h.set_o_ns(1000);
  if (!h.has_send_eager_ns_per_byte()) h.set_send_eager_ns_per_byte(0.1);
  if (!h.has_recv_eager_ns_per_byte()) h.set_recv_eager_ns_per_byte(0.1);
  if (!h.has_send_rendezvous_ns_per_byte()) h.set_send_rendezvous_ns_per_byte(0.05);
  if (!h.has_recv_rendezvous_ns_per_byte()) h.set_recv_rendezvous_ns_per_byte(0.05);
  if (!h.has_copy_gbytes_per_s()) h.set_copy_gbytes_per_s(10);
  if (!h.has_flops()) h.set_flops(1e9);
  if (!h.has_shm_latency_ns()) h.set_shm_latency_ns(200);
  if (!h.has_shm_gbytes_per_s()) h.set_shm_gbytes_per_s(10);
  if (!h.has_shm_eager_bytes()) h.set_shm_eager_bytes(4096);
  if (!h.has_shm_single_copy_gbytes_per_s()) h.set_shm_single_copy_gbytes_per_s(12.5);
  if (!h.has_shm_single_copy_setup_ns()) h.set_shm_single_copy_setup_ns(1000);
}

// The short limit defaults to what fits one packet with the envelope (at most 1024 B).
void fill_mpi_protocol(proto::MpiProtocol& p, const proto::Links& links) {
  if (!p.has_envelope_bytes()) p.set_envelope_bytes(64);
  if (!p.has_eager_bytes()) p.set_eager_bytes(16384);
  if (p.has_short_bytes()) return;
  const std::int64_t room = std::int64_t{links.mtu_bytes()} - links.header_bytes() -
                            static_cast<std::int64_t>(p.envelope_bytes());
  p.set_short_bytes(static_cast<std::uint64_t>(std::clamp<std::int64_t>(room, 0, 1024)));
}

void fill_mpi_collectives(proto::MpiCollectives& c) {
  if (c.bcast().empty()) c.set_bcast("binomial");
  if (c.reduce().empty()) c.set_reduce("binomial");
  if (c.allreduce().empty()) c.set_allreduce("recursive_doubling");
  if (c.alltoall().empty()) c.set_alltoall("simple_spread");
  if (c.barrier().empty()) c.set_barrier("dissemination");
  if (c.gather().empty()) c.set_gather("linear");
  if (c.allgather().empty()) c.set_allgather("ring");
}

void fill_mpi_program(proto::Mpi& mpi) {
  if (mpi.has_pingpong() && mpi.pingpong().repetitions() == 0)
    mpi.mutable_pingpong()->set_repetitions(1);
  if (mpi.has_alltoall()) {
    proto::AlltoallKernel& a = *mpi.mutable_alltoall();
    if (a.algorithm().empty()) a.set_algorithm("algorithm_a");
    if (a.iterations() == 0) a.set_iterations(1);
  }
  if (mpi.has_ring() && mpi.ring().iterations() == 0) mpi.mutable_ring()->set_iterations(1);
  if (mpi.has_collective() && mpi.collective().iterations() == 0)
    mpi.mutable_collective()->set_iterations(1);
  if (mpi.has_gauss() && mpi.gauss().forward().empty())
    mpi.mutable_gauss()->set_forward("blocking");
  if (mpi.has_npb() && mpi.npb().size_class().empty()) mpi.mutable_npb()->set_size_class("S");
}

void fill_mpi(proto::Mpi& mpi, const proto::Links& links) {
  fill_mpi_host(*mpi.mutable_host());
  fill_mpi_protocol(*mpi.mutable_protocol(), links);
  fill_mpi_collectives(*mpi.mutable_collectives());
  fill_mpi_program(mpi);
}

}  // namespace

void fill_defaults(proto::Scenario& scenario) {
  if (scenario.seed() == 0) scenario.set_seed(1);
  if (scenario.emulate() == proto::NS3) apply_ns3_defaults(scenario);
  fill_engine(*scenario.mutable_engine());
  fill_links(*scenario.mutable_links());
  fill_switch(*scenario.mutable_switch_());
  fill_topology(*scenario.mutable_topology(), scenario.seed());
  if (scenario.transport().kind() == proto::Transport::TCP)
    fill_tcp(*scenario.mutable_transport()->mutable_tcp(), scenario.links());
  if (scenario.transport().kind() == proto::Transport::ROCE)
    fill_roce(*scenario.mutable_transport()->mutable_roce());
  for (proto::Workload* w : own_tcp_transports(scenario))
    fill_tcp(*w->mutable_transport()->mutable_tcp(), scenario.links());
  fill_placement(*scenario.mutable_placement(), scenario.seed());
  if (scenario.has_workload()) fill_workload(*scenario.mutable_workload(), scenario.seed());
  for (proto::Workload& w : *scenario.mutable_workloads())
    fill_workload(w, named_workload_seed(scenario.seed(), w.name()));
  if (scenario.has_mpi()) fill_mpi(*scenario.mutable_mpi(), scenario.links());
}

}  // namespace netwarp::scenarios
