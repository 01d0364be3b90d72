// Bad scenarios, table-driven: each malformed or invalid snippet with the exact one-line error
// a person gets (file, line:col when the field was written, field path, message). Every case
// is a two-line valid base (lines 1-2) plus the snippet from line 3, unless it replaces the base.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "netwarp/scenarios/network_builder.hpp"
#include "scenario_files.hpp"

namespace netwarp::scenarios {
namespace {

constexpr const char* kBase =
    "topology { star { hosts: 4 } }\n"
    "workload { incast { bytes: 1000 } }\n";

struct BadCase {
  std::string name;
  std::string text;  // appended to kBase unless it starts with '!'
  std::vector<std::string> overrides;
  std::string expected;  // "F" stands for the file's path
  bool needs_build = false;
};

std::string scenario_text(const BadCase& c) {
  return c.text.starts_with('!') ? c.text.substr(1) : kBase + c.text;
}

const std::vector<BadCase> kBadCases = {
    {"gvt_interval_out_of_range",
     "engine { gvt_interval: 4294967295 }\n",
     {},
     "F:3:10: engine.gvt_interval: must be <= 1048576, got 4294967295"},
    {"max_uncommitted_bytes_out_of_range",
     "engine { max_uncommitted_bytes: 2000000000000000 }\n",
     {},
     "F:3:10: engine.max_uncommitted_bytes: must be <= 1125899906842624, got 2000000000000000"},
    {"record_buffer_bytes_out_of_range",
     "engine { record_buffer_bytes: 2000000000000 }\n",
     {},
     "F:3:10: engine.record_buffer_bytes: must be <= 1099511627776, got 2000000000000"},
    {"batch_out_of_range",
     "engine { batch: 2000000 }\n",
     {},
     "F:3:10: engine.batch: must be <= 1048576, got 2000000"},
    {"syntax_missing_brace", "links { rate_bps: 100\n", {}, "F:4:1: Expected identifier, got: "},
    {"syntax_missing_colon", "seed 5\n", {}, "F:3:6: Expected \":\", found \"5\"."},
    {"unknown_field",
     "switch { bufer_bytes: 100 }\n",
     {},
     "F:3:10: unknown field 'bufer_bytes' in Switch (known: buffer_bytes, buffer_packets, "
     "classes, count_frame_in_service, ecn_threshold_bytes, flow_control, mark_at, mark_reading, "
     "pfc, red, "
     "same_instant, scheduler, shared_buffer)"},
    {"wrong_type", "links { mtu_bytes: \"big\" }\n", {}, "F:3:20: Expected integer, got: \"big\""},
    {"unknown_enum",
     "transport { kind: UDP }\n",
     {},
     "F:3:19: Unknown enumeration value of \"UDP\" for field \"kind\"."},
    {"field_twice",
     "seed: 1\nseed: 2\n",
     {},
     "F:4:5: Non-repeated field \"seed\" is specified multiple times."},
    {"negative_bandwidth",
     "links { rate_bps: -5 }\n",
     {},
     "F:3:9: links.rate_bps: must be > 0, got -5"},
    {"zero_level_bandwidth",
     "links {\n  levels { level: 1 rate_bps: 0 }\n}\n",
     {},
     "F:4:21: links.levels[0].rate_bps: must be > 0, got 0"},
    {"zero_mtu", "links { mtu_bytes: 0 }\n", {}, "F:3:9: links.mtu_bytes: must be > 0, got 0"},
    {"header_fills_mtu",
     "links { mtu_bytes: 576 header_bytes: 576 }\n",
     {},
     "F:3:24: links.header_bytes: must be < links.mtu_bytes (576), got 576"},
    {"buffer_below_one_packet",
     "switch {\n  buffer_bytes: 100\n  flow_control: CREDIT\n}\n",
     {},
     "F:4:3: switch.buffer_bytes: must hold at least one packet (1538 B), got 100"},
    {"credit_without_buffer",
     "switch { flow_control: CREDIT }\n",
     {},
     "F:3:10: switch.flow_control: CREDIT needs switch.buffer_bytes (the credit of each port), "
     "got unlimited (0)"},
    {"lossless_finite_buffers_no_credit",
     "switch { buffer_bytes: 65536 }\n",
     {},
     "F: transport.kind: LOSSLESS with finite switch buffers needs switch.flow_control: CREDIT "
     "(packets would be dropped and never retransmitted)"},
    {"ecn_above_buffer",
     "switch { buffer_bytes: 65536 ecn_threshold_bytes: 65536 flow_control: CREDIT }\n",
     {},
     "F:3:30: switch.ecn_threshold_bytes: must be < switch.buffer_bytes (65536), got 65536"},
    {"fat_tree_p_and_k",
     "!topology {\n  fat_tree { p: 2 k: 4 }\n}\nworkload { permutation { bytes: 1 } }\n",
     {},
     "F:2:3: topology.fat_tree: set exactly one of p and k, got both (p: 2, k: 4)"},
    {"fat_tree_odd_k",
     "!topology { fat_tree { k: 5 } }\nworkload { permutation { bytes: 1 } }\n",
     {},
     "F:1:23: topology.fat_tree.k: must be even, got 5"},
    {"dragonfly_ugal_two_groups",
     "!topology { dragonfly { routers_per_group: 2 hosts_per_router: 1 global_per_router: 1 "
     "groups: 2 routing: UGAL } }\nworkload { permutation { bytes: 1 } }\n",
     {},
     "F:1:96: topology.dragonfly.routing: UGAL needs groups >= 3 (an intermediate group "
     "besides the source's and the destination's), got 2"},
    {"torus_one_dimension",
     "!topology { torus { dims: 8 } }\nworkload { permutation { bytes: 1 } }\n",
     {},
     "F:1:20: topology.torus.dims: needs 2 or 3 dimensions, got 1"},
    {"topology_not_set",
     "!workload { permutation { bytes: 1 } }\n",
     {},
     "F: topology: not set (set one of dragonfly, fat_tree, graph, leaf_spine, star, torus, tree)"},
    {"mpi_ranks_exceed_hosts",
     "!topology { star { hosts: 4 } }\nmpi { ranks: 8 pingpong { sizes: 1 } }\n",
     {},
     "F:2:7: mpi.ranks: 8 ranks do not fit on 4 hosts (1 rank(s) per host, "
     "mpi.ranks_per_host)"},
    {"mpi_ranks_exceed_hosts_times_ranks_per_host",
     "!topology { star { hosts: 4 } }\nmpi { ranks: 9 ranks_per_host: 2 pingpong { sizes: 1 } }\n",
     {},
     "F:2:7: mpi.ranks: 9 ranks do not fit on 4 hosts (2 rank(s) per host, "
     "mpi.ranks_per_host)"},
    {"mpi_too_many_ranks_per_host",
     "!topology { star { hosts: 4 } }\nmpi { ranks_per_host: 257 pingpong { sizes: 1 } }\n",
     {},
     "F:2:7: mpi.ranks_per_host: must be <= 256, got 257"},
    {"mpi_explicit_host_beyond_ranks_per_host",
     "!topology { star { hosts: 4 } }\nplacement { explicit { hosts: [0, 0, 0] } }\n"
     "mpi { ranks_per_host: 2 pingpong { sizes: 1 } }\n",
     {},
     "F: placement.explicit.hosts[2]: host 0 is listed more than mpi.ranks_per_host (2) "
     "times"},
    {"mpi_shm_bandwidth_zero",
     "!topology { star { hosts: 2 } }\nmpi { host { shm_gbytes_per_s: 0 } ring { bytes: 1 } }\n",
     {},
     "F:2:14: mpi.host.shm_gbytes_per_s: must be in [0.001, 1000000], got 0"},
    {"mpi_fragment_too_small",
     "!topology { star { hosts: 2 } }\nmpi { protocol { fragment_bytes: 100 } ring { bytes: 1 } "
     "}\n",
     {},
     "F:2:18: mpi.protocol.fragment_bytes: must be >= 1024, got 100"},
    {"mpi_beside_workload_placed_explicitly",
     "placement { explicit { hosts: [0, 1] } }\nmpi { ring { bytes: 1 } }\n",
     {},
     "F: workload.hosts: required beside an MPI job placed by placement.explicit (it lists "
     "the job's ranks)"},
    {"mpi_hosts_too_few_for_ranks",
     "mpi { ranks: 4 hosts { list { hosts: [1] } } ring { bytes: 1 } }\n",
     {},
     "F:3:7: mpi.ranks: 4 ranks do not fit on 1 hosts (1 rank(s) per host, mpi.ranks_per_host, "
     "mpi.hosts)"},
    {"mpi_named_as_a_workload",
     "!topology { star { hosts: 4 } }\nworkloads { name: \"job\" incast { bytes: 1 } }\n"
     "mpi { name: \"job\" ring { bytes: 1 } }\n",
     {},
     "F:2:13: workloads[0].name: 'job' names another workload (or the MPI job) too"},
    {"mpi_unknown_algorithm",
     "!topology { star { hosts: 4 } }\nmpi { alltoall { algorithm: \"algorithm_c\" bytes: 1 } }\n",
     {},
     "F:2:18: mpi.alltoall.algorithm: unknown alltoall algorithm 'algorithm_c' (known: "
     "algorithm_a, algorithm_b, pairwise, simple_spread, spread_2d, bruck)"},
    {"mpi_pairwise_on_three_ranks",
     "!topology { star { hosts: 3 } }\nmpi { alltoall { algorithm: \"pairwise\" bytes: 1 } }\n",
     {},
     "F:2:18: mpi.alltoall.algorithm: alltoall algorithm pairwise needs a power-of-two "
     "number of ranks, got 3"},
    {"validation_sweep_without_values",
     "!topology { star { hosts: 2 } }\nmpi { ring { bytes: 1 } }\n"
     "validation { sweep { field: \"mpi.ring.bytes\" } }\n",
     {},
     "F: validation.sweep.values: at least one value is required"},
    {"validation_sweep_empty_value",
     "!topology { star { hosts: 2 } }\nmpi { ring { bytes: 1 } }\n"
     "validation { sweep { field: \"mpi.ring.bytes\" values: [\"1\", \"\"] } }\n",
     {},
     "F: validation.sweep.values[1]: must not be empty"},
    {"mpi_short_above_eager",
     "!topology { star { hosts: 2 } }\nmpi {\n  protocol { short_bytes: 512 eager_bytes: 100 }\n  "
     "ring { bytes: 1 }\n}\n",
     {},
     "F:3:31: mpi.protocol.eager_bytes: must be >= short_bytes (512), got 100"},
    {"mpi_short_does_not_fit_a_packet",
     "!topology { star { hosts: 2 } }\nmpi {\n  protocol { short_bytes: 1500 eager_bytes: 4000 }\n "
     " ring { bytes: 1 }\n}\n",
     {},
     "F:3:14: mpi.protocol.short_bytes: a short message must fit one packet with its "
     "envelope: 1500 + 64 B is more than the 1460 B a packet carries (links.mtu_bytes - "
     "links.header_bytes)"},
    {"workload_not_set",
     "!topology { star { hosts: 4 } }\n",
     {},
     "F: workload: not set (set one of all_to_all, datacenter, flows, incast, permutation, "
     "uniform_random; or workloads, or an mpi section instead)"},
    {"more_ranks_than_hosts",
     "placement { explicit { hosts: [0, 1, 2, 3, 3] } }\n",
     {},
     "F:3:24: placement.explicit.hosts: places 5 ranks, more than the 4 hosts"},
    {"all_to_all_ranks_over_hosts",
     "!topology { star { hosts: 4 } }\nworkload { all_to_all { bytes: 10 ranks: 8 } }\n",
     {},
     "F:2:35: workload.all_to_all.ranks: 8 ranks do not fit on 4 hosts"},
    {"incast_too_many_senders",
     "",
     {"workload.incast.senders=4"},
     "F: workload.incast.senders: must be <= 3, got 4"},
    {"flow_to_itself",
     "!topology { star { hosts: 4 } }\nworkload { flows { flow { src: 1 dst: 1 bytes: 5 } } }\n",
     {},
     "F:2:34: workload.flows.flow[0].dst: must differ from src (1)"},
    {"tcp_mss_over_mtu",
     "transport { kind: TCP tcp { mss_bytes: 1500 } }\n",
     {},
     "F:3:29: transport.tcp.mss_bytes: must be <= links.mtu_bytes - links.header_bytes (1460), "
     "got 1500"},
    {"tcp_min_rto_over_max",
     "transport { kind: TCP tcp { min_rto_us: 5000 max_rto_us: 1000 } }\n",
     {},
     "F:3:29: transport.tcp.min_rto_us: must be <= transport.tcp.max_rto_us (1000), got 5000"},
    {"dctcp_without_marking",
     "transport { kind: TCP tcp { congestion_control: DCTCP } }\n",
     {},
     "F:3:29: transport.tcp.congestion_control: DCTCP needs ports that mark congestion: set "
     "switch.ecn_threshold_bytes > 0 or switch.red"},
    {"cubic_beta_out_of_range",
     "transport { kind: TCP tcp { congestion_control: CUBIC cubic_beta: 1.5 } }\n",
     {},
     "F:3:55: transport.tcp.cubic_beta: must be in (0, 1), got 1.5"},
    {"cubic_c_without_cubic",
     "transport { kind: TCP tcp { cubic_c: 0.5 } }\n",
     {},
     "F:3:29: transport.tcp.cubic_c: only used with transport.tcp.congestion_control: CUBIC"},
    {"dctcp_g_zero",
     "transport { kind: TCP tcp { congestion_control: DCTCP dctcp_g: 0 } }\n"
     "switch { ecn_threshold_bytes: 20000 }\n",
     {},
     "F:3:55: transport.tcp.dctcp_g: must be in (0, 1], got 0"},
    {"tcp_syn_timeout_rto_zero",
     "transport { kind: TCP tcp { syn_timeout_rto_us: 0 } }\n",
     {},
     "F:3:29: transport.tcp.syn_timeout_rto_us: must be >= 1, got 0"},
    {"tcp_ns3_classic_with_sack",
     "transport { kind: TCP tcp { sack: true recovery: NS3_CLASSIC } }\n",
     {},
     "F:3:40: transport.tcp.recovery: NS3_CLASSIC is ns-3's recovery without SACK; it needs "
     "transport.tcp.sack: false"},
    {"tcp_ns3_classic_with_rfc_cubic",
     "transport { kind: TCP tcp { recovery: NS3_CLASSIC congestion_control: CUBIC } }\n",
     {},
     "F:3:29: transport.tcp.recovery: NS3_CLASSIC needs transport.tcp.congestion_control: "
     "NEW_RENO, CUBIC with cubic_reading: CUBIC_NS3 or DCTCP with dctcp_reading: DCTCP_NS3"},
    {"tcp_ns3_dctcp_without_ns3_classic",
     "transport { kind: TCP tcp { congestion_control: DCTCP dctcp_reading: DCTCP_NS3 } }\n"
     "switch { ecn_threshold_bytes: 20000 }\n",
     {},
     "F:3:55: transport.tcp.dctcp_reading: DCTCP_NS3 is ns-3's TcpDctcp inside ns-3's sender; it "
     "needs recovery: NS3_CLASSIC (sack off)"},
    {"tcp_dctcp_initial_alpha_above_one",
     "transport { kind: TCP tcp { congestion_control: DCTCP dctcp_initial_alpha: 1.5 } }\n"
     "switch { ecn_threshold_bytes: 20000 }\n",
     {},
     "F:3:55: transport.tcp.dctcp_initial_alpha: must be in [0, 1], got 1.5"},
    {"tcp_dctcp_reading_without_dctcp",
     "transport { kind: TCP tcp { dctcp_reading: DCTCP_RFC8257 } }\n",
     {},
     "F:3:29: transport.tcp.dctcp_reading: only used with transport.tcp.congestion_control: "
     "DCTCP"},
    {"switch_mark_ns3_red_without_threshold",
     "switch { mark_reading: MARK_NS3_RED }\n",
     {},
     "F:3:10: switch.mark_reading: MARK_NS3_RED reads the step threshold: set "
     "ecn_threshold_bytes"},
    {"switch_mark_ns3_red_in_packets",
     "switch { ecn_threshold_bytes: 2000 buffer_packets: 40 mark_reading: MARK_NS3_RED }\n",
     {},
     "F:3:55: switch.mark_reading: MARK_NS3_RED counts bytes: needs switch.buffer_packets 0"},
    {"tcp_ns3_cubic_without_ns3_classic",
     "transport { kind: TCP tcp { congestion_control: CUBIC cubic_reading: CUBIC_NS3 } }\n",
     {},
     "F:3:55: transport.tcp.cubic_reading: CUBIC_NS3 is ns-3's TcpCubic inside ns-3's sender; it "
     "needs recovery: NS3_CLASSIC (sack and ecn off)"},
    {"tcp_cubic_reading_without_cubic",
     "transport { kind: TCP tcp { cubic_reading: CUBIC_RFC9438 } }\n",
     {},
     "F:3:29: transport.tcp.cubic_reading: only used with transport.tcp.congestion_control: "
     "CUBIC"},
    {"tcp_sack_recovery_without_sack",
     "transport { kind: TCP tcp { recovery: PRR } }\n",
     {},
     "F:3:29: transport.tcp.recovery: PRR needs transport.tcp.sack: true (RFC 6675 recovery "
     "works on SACK blocks)"},
    {"tcp_prr_bound_without_prr",
     "transport { kind: TCP tcp { sack: true recovery: SACK_6675 prr_conservative_bound: true } "
     "}\n",
     {},
     "F:3:60: transport.tcp.prr_conservative_bound: only applies with recovery: PRR"},
    {"tcp_prr_whole_segments_without_prr",
     "transport { kind: TCP tcp { sack: true recovery: SACK_6675 prr_whole_segments: true } }\n",
     {},
     "F:3:60: transport.tcp.prr_whole_segments: only applies with recovery: PRR"},
    {"tcp_message_past_two_to_63",
     "transport { kind: TCP }\n",
     {"workload.incast.bytes=9223372036854775808"},
     "F: workload.incast.bytes: must be at most 9223372036854775807 (2^63 - 1), got "
     "9223372036854775808"},
    {"set_unknown_path",
     "",
     {"switch.bufer_bytes=5"},
     "F: --set switch.bufer_bytes=5: unknown field 'bufer_bytes' (known: buffer_bytes, "
     "buffer_packets, classes, count_frame_in_service, ecn_threshold_bytes, flow_control, "
     "mark_at, mark_reading, pfc, red, same_instant, scheduler, shared_buffer)"},
    {"set_unknown_top_level",
     "",
     {"swich.buffer_bytes=5"},
     "F: --set swich.buffer_bytes=5: unknown field 'swich' (known: description, emulate, "
     "end_time_ns, engine, links, mpi, name, nic, outputs, placement, seed, switch, topology, "
     "transport, "
     "validation, workload, ... (1 more))"},
    // Schema settings not modelled yet are refused by name (validate_unbuilt.cpp).
    {"scheduler_without_classes",
     "switch { scheduler: DRR }\n",
     {},
     "F:3:10: switch.scheduler: a scheduler needs switch.classes (without them a port is one "
     "FIFO)"},
    {"class_priority_out_of_range",
     "switch { classes { priority: 8 } }\n",
     {},
     "F:3:20: switch.classes[0].priority: must be 0 .. 7, got 8"},
    {"class_priority_twice",
     "switch { classes { priority: 1 } classes { priority: 1 } }\n",
     {},
     "F:3:44: switch.classes[1].priority: priority 1 has two classes"},
    {"class_buffer_above_port",
     "transport { kind: TCP }\n"
     "switch { buffer_bytes: 65536 classes { priority: 1 buffer_bytes: 70000 } }\n",
     {},
     "F:4:52: switch.classes[0].buffer_bytes: must be <= switch.buffer_bytes (65536), got 70000"},
    {"class_ecn_above_class_buffer",
     "transport { kind: TCP }\n"
     "switch { classes { priority: 1 buffer_bytes: 9000 ecn_threshold_bytes: 9000 } }\n",
     {},
     "F:4:51: switch.classes[0].ecn_threshold_bytes: must be < the class's buffer (9000), got "
     "9000"},
    {"classes_with_credit",
     "switch { buffer_bytes: 65536 flow_control: CREDIT classes { priority: 1 } }\n",
     {},
     "F:3:51: switch.classes: traffic classes are not modelled with CREDIT flow control"},
    {"red_min_not_below_max",
     "transport { kind: TCP }\n"
     "switch { red { min_bytes: 9000 max_bytes: 9000 max_probability: 0.1 } }\n",
     {},
     "F:4:16: switch.red.min_bytes: must be < switch.red.max_bytes (9000), got 9000"},
    {"red_probability_above_one",
     "transport { kind: TCP }\n"
     "switch { red { min_bytes: 10 max_bytes: 9000 max_probability: 1.5 } }\n",
     {},
     "F:4:46: switch.red.max_probability: must be in (0, 1], got 1.5"},
    {"red_beside_step_threshold",
     "transport { kind: TCP }\n"
     "switch { ecn_threshold_bytes: 5000 red { min_bytes: 10 max_bytes: 9000 "
     "max_probability: 1 } }\n",
     {},
     "F:4:36: switch.red: replaces switch.ecn_threshold_bytes: set only one of them"},
    {"class_red_weight_one",
     "transport { kind: TCP }\n"
     "switch { classes { priority: 1 red { min_bytes: 1 max_bytes: 9 max_probability: 1 "
     "queue_weight: 1 } } }\n",
     {},
     "F:4:83: switch.classes[0].red.queue_weight: must be in [0, 1) (0: the instantaneous queue), "
     "got 1"},
    {"shared_buffer_beside_private_buffer",
     "transport { kind: TCP }\n"
     "switch { buffer_bytes: 65536 shared_buffer { bytes: 1000000 } }\n",
     {},
     "F:4:10: switch.buffer_bytes: must be 0 with switch.shared_buffer (the pool's dynamic "
     "thresholds limit every queue), got 65536"},
    {"shared_buffer_reserves_it_all",
     "transport { kind: TCP }\n"
     "switch { shared_buffer { bytes: 100000 reserved_bytes: 100000 } }\n",
     {},
     "F:4:40: switch.shared_buffer.reserved_bytes: must be < switch.shared_buffer.bytes "
     "(100000), got 100000"},
    {"class_lossless_without_pfc",
     "switch { classes { priority: 3 lossless: true } }\n",
     {},
     "F:3:32: switch.classes[0].lossless: needs switch.pfc"},
    {"pfc_without_lossless_class",
     "end_time_ns: 1000000\n"
     "switch { classes { priority: 3 } pfc { xoff_bytes: 20000 } }\n",
     {},
     "F:4:34: switch.pfc: no class is lossless: set switch.classes[].lossless on the classes to "
     "pause"},
    {"pfc_xon_not_below_xoff",
     "end_time_ns: 1000000\n"
     "switch { classes { priority: 3 lossless: true } pfc { xoff_bytes: 20000 xon_bytes: 20000 } "
     "}\n",
     {},
     "F:4:73: switch.pfc.xon_bytes: must be < switch.pfc.xoff_bytes (20000), got 20000"},
    {"pfc_dynamic_without_pool",
     "end_time_ns: 1000000\n"
     "switch { classes { priority: 3 lossless: true } pfc { headroom_bytes: 20000 } }\n",
     {},
     "F: switch.pfc.xoff_bytes: 0 (dynamic, from the shared pool) needs "
     "switch.shared_buffer; set a threshold"},
    {"pfc_without_end_time",
     "switch { classes { priority: 3 lossless: true } pfc { xoff_bytes: 20000 } }\n",
     {},
     "F:3:49: switch.pfc: needs end_time_ns: a PFC deadlock would hold its pauses forever"},
    {"unbuilt_roce_selective_repeat",
     "transport { kind: ROCE roce { retransmission: SELECTIVE_REPEAT } }\n",
     {},
     "F:3:31: transport.roce.retransmission: selective repeat is not modelled yet: remove it "
     "from the scenario"},
    {"roce_settings_without_roce",
     "transport { kind: TCP roce { timeout_us: 5 } }\n",
     {},
     "F:3:23: transport.roce: is used with transport.kind: ROCE only"},
    {"roce_dcqcn_gain_out_of_range",
     "transport { kind: ROCE roce { dcqcn { g: 2 } } }\n",
     {},
     "F:3:39: transport.roce.dcqcn.g: must be in (0, 1], got 2"},
    {"roce_min_rate_above_the_link",
     "links { rate_bps: 1000000000 }\n"
     "transport { kind: ROCE roce { dcqcn { min_rate_mbps: 2000 } } }\n",
     {},
     "F:4:39: transport.roce.dcqcn.min_rate_mbps: must be at most the hosts' link rate (1000 "
     "Mbit/s), got 2000"},
    {"roce_mpi_beside_a_workload",
     "transport { kind: ROCE }\n"
     "mpi { pingpong { sizes: 1 } }\n",
     {},
     "F:3:13: transport.kind: ROCE carries packet workloads or an MPI job; both at once (one NIC "
     "shared by RoCE messages and MPI's RoCE streams) is not modelled"},
    {"roce_over_credit",
     "transport { kind: ROCE }\n"
     "switch { buffer_bytes: 65536 flow_control: CREDIT }\n",
     {},
     "F:4:30: switch.flow_control: CREDIT is InfiniBand's link-level flow control; ROCE runs on "
     "Ethernet (lossless with switch.pfc)"},
    {"leaf_spine_one_leaf",
     "!topology { leaf_spine { leaves: 1 spines: 2 hosts_per_leaf: 2 } }\n"
     "workload { incast { bytes: 1000 } }\n",
     {},
     "F:1:25: topology.leaf_spine.leaves: must be >= 2, got 1"},
    {"multipath_on_a_star",
     "!topology { star { hosts: 4 } multipath { mode: ECMP } }\n"
     "workload { incast { bytes: 1000 } }\n",
     {},
     "F:1:42: topology.multipath.mode: ECMP needs equal-cost paths: a star has one route per "
     "destination (multipath: tree, leaf_spine, fat_tree, graph)"},
    {"multipath_gap_without_flowlets",
     "!topology { tree { leaves: 2 hosts_per_leaf: 2 uplinks: 2 }\n"
     "  multipath { mode: SPRAY_RANDOM flowlet_gap_ns: 5 } }\n"
     "workload { incast { bytes: 1000 } }\n",
     {},
     "F:2:34: topology.multipath.flowlet_gap_ns: is for mode FLOWLET only, not SPRAY_RANDOM"},
    {"multipath_against_fat_tree_ecmp",
     "!topology { fat_tree { k: 4 routing: ECMP } multipath { mode: FLOWLET } }\n"
     "workload { incast { bytes: 1000 } }\n",
     {},
     "F:1:56: topology.multipath.mode: FLOWLET conflicts with topology.fat_tree.routing ECMP "
     "(set one of them)"},
    {"set_bad_value",
     "",
     {"switch.buffer_bytes=lots"},
     "F: --set switch.buffer_bytes=lots: expected an integer, got 'lots'"},
    {"set_negative_unsigned",
     "",
     {"links.mtu_bytes=-1"},
     "F: --set links.mtu_bytes=-1: expected a non-negative integer, got '-1'"},
    {"set_bad_enum",
     "",
     {"transport.kind=udp"},
     "F: --set transport.kind=udp: expected one of LOSSLESS, ROCE, TCP, got 'udp'"},
    {"set_without_value", "", {"seed"}, "F: --set seed: expected path.to.field=value"},
    {"unknown_pcap_node",
     "outputs { pcap_nodes: \"host9\" }\n",
     {},
     "F:3:11: outputs.pcap_nodes[0]: unknown node 'host9' (known: all_hosts; switches: sw0; "
     "hosts: host0, host1, host2, host3)",
     true},
    // Switch names come first: a tree's 'leaf0' and 'root' are not hidden behind its hosts.
    {"unknown_queue_node_in_a_tree_lists_switches_first",
     "!topology { tree { leaves: 3 hosts_per_leaf: 16 } }\n"
     "workload { incast { bytes: 1000 } }\n"
     "outputs {\n  queue_ports { node: \"sw0\" port: 1 }\n}\n",
     {},
     "F:4:17: outputs.queue_ports[0].node: unknown node 'sw0' (known: switches: leaf0, leaf1, "
     "leaf2, root; hosts: host0, host1, host2, host3, ... (44 more))",
     true},
    {"link_level_the_star_lacks",
     "links {\n  levels { level: 1 rate_bps: 1000 }\n}\n",
     {},
     "F:4:12: links.levels[0].level: a star has no link level 1 (its levels: 0 host-switch)"},
    {"link_level_the_tree_lacks",
     "!topology { tree { leaves: 2 hosts_per_leaf: 2 } }\n"
     "workload { incast { bytes: 1000 } }\n"
     "links {\n  levels { level: 1 rate_bps: 1000 }\n  levels { level: 2 rate_bps: 250 }\n}\n",
     {},
     "F:5:12: links.levels[1].level: a tree has no link level 2 (its levels: 0 host-leaf, "
     "1 leaf-root)"},
    {"link_level_set_by_override",
     "links { levels { level: 0 } }\n",
     {"links.levels[0].level=3"},
     "F: links.levels[0].level: a star has no link level 3 (its levels: 0 host-switch)"},
    {"unit_suffix_in_the_file_says_the_plain_number",
     "switch {\n  buffer_bytes: 128KiB\n}\n",
     {},
     "F:4:17: '128KiB': write 131072: a scenario file takes plain numbers (protobuf text format "
     "has no unit suffixes; --set accepts them)"},
    {"unknown_unit_suffix_in_the_file",
     "switch {\n  buffer_bytes: 128kb\n}\n",
     {},
     "F:4:17: '128kb': a scenario file takes plain numbers (protobuf text format has no unit "
     "suffixes; --set accepts them)"},
    {"queue_port_out_of_range",
     "outputs {\n  queue_ports { node: \"sw0\" port: 4 }\n}\n",
     {},
     "F:4:29: outputs.queue_ports[0].port: sw0 has 4 ports (0..3), got 4",
     true},
};

class BadScenario : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadScenario, GivesItsOneLineError) {
  const BadCase& c = GetParam();
  const std::string path = testing::write_scenario(c.name, scenario_text(c));
  std::string expected = c.expected;
  expected.replace(0, 1, path);
  try {
    const LoadedScenario loaded = load_scenario(path, c.overrides);
    if (c.needs_build) build_network_spec(loaded);
    FAIL() << "no error; expected: " << expected;
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()), expected);
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(Table, BadScenario, ::testing::ValuesIn(kBadCases),
                         [](const auto& param_info) { return param_info.param.name; });

TEST(Validate, MissingFileIsReportedWithItsName) {
  try {
    load_scenario("/nonexistent/x.pbtxt", {});
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/x.pbtxt: cannot open the scenario file");
  }
}

TEST(Validate, ErrorIsAnInputErrorWithFieldAndMessage) {
  const std::string path =
      testing::write_scenario("input_error", std::string(kBase) + "links { mtu_bytes: 0 }\n");
  try {
    load_scenario(path, {});
    FAIL();
  } catch (const netmodels::InputError& e) {
    EXPECT_EQ(e.field(), "links.mtu_bytes");
    EXPECT_EQ(e.message(), "must be > 0, got 0");
  }
}

TEST(Validate, FieldSetByOverrideIsNotLocatedInTheFile) {
  const std::string path = testing::write_scenario(
      "set_located",
      std::string(kBase) + "switch {\n  buffer_bytes: 65536\n  flow_control: CREDIT\n}\n");
  try {
    load_scenario(path, {"switch.buffer_bytes=100"});
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": switch.buffer_bytes: must hold at least one packet (1538 B), got 100");
  }
}

}  // namespace
}  // namespace netwarp::scenarios
