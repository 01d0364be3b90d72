// netwarp-ns3's field table: what ns-3.37, as validation/ns3 configures it, does with every
// field of scenario.proto (validation/ns3/README.md and SEMANTICS.md say how). A new field of
// scenario.proto gets a line here: refused, unless ns-3 really runs the same setting.
#include "common_rules.hpp"
#include "netwarp/validation/field_coverage.hpp"

namespace netwarp::validation {
namespace {

using C = Coverage;
using scenarios::proto::Scenario;

std::vector<FieldRule> engine_and_links() {
  return {
      {"seed", C::mirrored, {}, "netwarp builds the workload and placement ns-3 runs", {}},
      {"end_time_ns", C::mirrored, {}, "ns-3 stops at the same time", {}},
      {"engine.tie_order",
       C::noted,
       {"FIFO_CREATOR"},
       "ns-3 runs simultaneous events in scheduling order, ties by node (emulate: NS3 selects it)",
       {}},
      {"links.rate_bps", C::mirrored, {}, "", {}},
      {"links.latency_ns", C::mirrored, {}, "", {}},
      {"links.mtu_bytes", C::mirrored, {}, "", {}},
      {"links.header_bytes",
       C::refused,
       {"40"},
       "ns-3's segments carry 20 B IPv4 + 20 B TCP headers (timestamps off)",
       {}},
      {"links.frame_overhead_bytes",
       C::noted,
       {"2"},
       "ns-3's point-to-point frame is the IP packet + a 2 B PPP header (emulate: NS3 selects it)",
       {}},
      {"links.control_bytes", C::refused, {}, "ns-3's ACKs carry no payload", {}},
      {"links.levels.level", C::mirrored, {}, "", {}},
      {"links.levels.rate_bps", C::mirrored, {}, "", {}},
      {"links.levels.latency_ns", C::mirrored, {}, "", {}},
  };
}

// ns-3's RedQueueDisc counts its thresholds in the unit of its limit: bytes here.
bool marks_in_bytes(const Scenario& s) {
  return s.switch_().ecn_threshold_bytes() == 0 || s.switch_().buffer_packets() == 0;
}

// Where switches mark, ns-3's RedQueueDisc measures the queue (MARK_NS3_RED).
bool marks_as_ns3_red(const Scenario& s) {
  return s.switch_().ecn_threshold_bytes() == 0 ||
         s.switch_().mark_reading() == scenarios::proto::Switch::MARK_NS3_RED;
}

std::vector<FieldRule> switch_and_nic() {
  return {
      {"switch.buffer_bytes", C::mirrored, {}, "the device queue's byte limit", {}},
      {"switch.buffer_packets", C::mirrored, {}, "the device queue's packet limit", {}},
      {"switch.ecn_threshold_bytes",
       C::mirrored,
       {},
       "a RedQueueDisc step marker (MinTh = MaxTh) on every switch port; with buffer_packets "
       "its thresholds would count packets",
       marks_in_bytes},
      {"switch.mark_reading",
       C::noted,
       {},
       "ns-3's RedQueueDisc counts the IP bytes queued behind the frame on the wire and the one "
       "in the device queue, and marks before its limit drops (emulate: NS3 selects "
       "MARK_NS3_RED)",
       marks_as_ns3_red},
      {"switch.flow_control",
       C::refused,
       {"NONE"},
       "point-to-point links drop; CREDIT has no ns-3 counterpart",
       {}},
      {"switch.count_frame_in_service",
       C::noted,
       {"false"},
       "the frame on the wire has left ns-3's device queue (emulate: NS3 selects it)",
       {}},
      {"switch.same_instant",
       C::noted,
       {"ARRIVAL_FIRST"},
       "ns-3 admits an arrival before a departure at the same instant (emulate: NS3 selects it)",
       {}},
      {"nic.rate_bps", C::mirrored, {}, "", {}},
      {"nic.buffer_bytes", C::mirrored, {}, "", {}},
      {"nic.jitter_ns", C::refused, {}, "ns-3's devices send without a random gap", {}},
  };
}

bool syn_timeout_is_min_rto(const Scenario& s) {
  return s.transport().tcp().syn_timeout_rto_us() <= s.transport().tcp().min_rto_us();
}

// Window scale (3 B), with SACK SACK permitted (2 B), padded to 4-byte words.
bool syn_options_are_ns3s(const Scenario& s) {
  const auto& tcp = s.transport().tcp();
  return tcp.syn_option_bytes() == (tcp.sack() ? 8U : 4U);
}

// ns-3.37 reads LimitedTransmit only without SACK (TcpSocketBase::DupAck).
bool limited_transmit_runs(const Scenario& s) {
  const auto& tcp = s.transport().tcp();
  return !tcp.sack() || !tcp.has_limited_transmit() || tcp.limited_transmit();
}

std::vector<FieldRule> tcp_timers_and_windows() {
  return {
      {"transport.kind",
       C::refused,
       {"TCP"},
       "netwarp-ns3 cross-checks the TCP transport only",
       {}},
      {"transport.tcp.mss_bytes", C::mirrored, {}, "", {}},
      {"transport.tcp.initial_window_segments", C::mirrored, {}, "", {}},
      {"transport.tcp.receive_window_bytes", C::mirrored, {}, "", {}},
      {"transport.tcp.min_rto_us", C::mirrored, {}, "", {}},
      {"transport.tcp.initial_rto_us", C::mirrored, {}, "", {}},
      {"transport.tcp.max_rto_us",
       C::noted,
       {"60000000"},
       "ns-3 caps only the backed-off RTO, at 60 s",
       {}},
      {"transport.tcp.dupack_threshold", C::mirrored, {}, "", {}},
      {"transport.tcp.delayed_ack", C::mirrored, {}, "", {}},
      {"transport.tcp.delayed_ack_timeout_us", C::mirrored, {}, "", {}},
      {"transport.tcp.ecn", C::mirrored, {}, "", {}},
      {"transport.tcp.handshake",
       C::refused,
       {"true"},
       "ns-3's sockets always open with a three-way handshake",
       {}},
      {"transport.tcp.limited_transmit",
       C::refused,
       {},
       "with SACK ns-3 sends whenever cwnd exceeds BytesInFlight, so it always transmits on the "
       "first duplicate ACKs",
       limited_transmit_runs},
      {"transport.tcp.syn_timeout_rto_us",
       C::noted,
       {},
       "after a SYN timeout ns-3's data RTO has no 3 s floor (emulate: NS3 sets it to min_rto_us)",
       syn_timeout_is_min_rto},
      {"transport.tcp.syn_option_bytes",
       C::noted,
       {},
       "ns-3's SYN carries the window-scale option, with SACK also SACK permitted, padded to "
       "4 B or 8 B (emulate: NS3 selects it)",
       syn_options_are_ns3s},
  };
}

// ns-3 with Sack on always recovers by its SACK scoreboard: NEWRENO recovery that ignores the
// blocks has no counterpart.
bool sack_recovers_with_sack(const Scenario& s) {
  const auto& tcp = s.transport().tcp();
  return !tcp.sack() || tcp.recovery() == scenarios::proto::Tcp::SACK_6675 ||
         tcp.recovery() == scenarios::proto::Tcp::PRR;
}

// The recovery ns-3.37 runs: TcpClassicRecovery over its Reno scoreboard without SACK
// (NS3_CLASSIC); with SACK TcpClassicRecovery (SACK_6675) or TcpPrrRecovery (PRR) over its
// SACK scoreboard, read as sack_reading says.
bool recovery_is_ns3s(const Scenario& s) {
  const auto& tcp = s.transport().tcp();
  if (!tcp.sack()) return tcp.recovery() == scenarios::proto::Tcp::NS3_CLASSIC;
  return tcp.recovery() == scenarios::proto::Tcp::SACK_6675 ||
         tcp.recovery() == scenarios::proto::Tcp::PRR;
}

bool sack_read_as_ns3(const Scenario& s) {
  const auto& tcp = s.transport().tcp();
  return !tcp.sack() || tcp.sack_reading() == scenarios::proto::Tcp::SACK_NS3;
}

bool cubic_read_as_ns3(const Scenario& s) {
  const auto& tcp = s.transport().tcp();
  return tcp.congestion_control() != scenarios::proto::Tcp::CUBIC ||
         tcp.cubic_reading() == scenarios::proto::Tcp::CUBIC_NS3;
}

bool dctcp_read_as_ns3(const Scenario& s) {
  const auto& tcp = s.transport().tcp();
  return tcp.congestion_control() != scenarios::proto::Tcp::DCTCP ||
         tcp.dctcp_reading() == scenarios::proto::Tcp::DCTCP_NS3;
}

bool delayed_ack_read_as_ns3(const Scenario& s) {
  const auto& tcp = s.transport().tcp();
  return !tcp.delayed_ack() || tcp.delayed_ack_reading() == scenarios::proto::Tcp::DELAYED_ACK_NS3;
}

bool sack_option_on_wire(const Scenario& s) {
  const auto& tcp = s.transport().tcp();
  return !tcp.sack() || tcp.sack_option_bytes();
}

std::vector<FieldRule> tcp_recovery_and_control() {
  return {
      {"transport.tcp.ssthresh_on_loss",
       C::noted,
       {"BYTES_IN_FLIGHT"},
       "ns-3.37 halves the bytes in flight (emulate: NS3 selects it)",
       {}},
      {"transport.tcp.recovery_exit_cwnd",
       C::noted,
       {"SSTHRESH"},
       "ns-3.37 leaves recovery with cwnd = ssthresh (emulate: NS3 selects it)",
       {}},
      {"transport.tcp.rto_backoff_reset",
       C::noted,
       {"ON_NEW_ACK"},
       "ns-3.37 recomputes the RTO at every new ACK (emulate: NS3 selects it)",
       {}},
      {"transport.tcp.sack",
       C::mirrored,
       {},
       "ns-3 with SACK recovers on its SACK scoreboard (recovery SACK_6675 or PRR)",
       sack_recovers_with_sack},
      {"transport.tcp.recovery",
       C::noted,
       {},
       "ns-3.37 runs TcpClassicRecovery without SACK (emulate: NS3 selects NS3_CLASSIC)",
       recovery_is_ns3s},
      {"transport.tcp.sack_reading",
       C::noted,
       {},
       "ns-3.37 reads RFC 6675 and RFC 6937 its own way (emulate: NS3 selects SACK_NS3)",
       sack_read_as_ns3},
      {"transport.tcp.sack_option_bytes",
       C::noted,
       {},
       "ns-3's ACKs carry their SACK option on the wire (emulate: NS3 selects it)",
       sack_option_on_wire},
      {"transport.tcp.delayed_ack_reading",
       C::noted,
       {},
       "ns-3.37 ACKs a connection's first data segment at once and TcpDctcp sends the ACK of "
       "the previous CE state by its own flag (emulate: NS3 selects DELAYED_ACK_NS3)",
       delayed_ack_read_as_ns3},
      {"transport.tcp.prr_conservative_bound", C::mirrored, {}, "", {}},
      {"transport.tcp.prr_whole_segments",
       C::refused,
       {"false"},
       "ns-3's TcpPrrRecovery counts its proportional share in bytes",
       {}},
      {"transport.tcp.max_ooo_ranges",
       C::refused,
       {"0"},
       "ns-3's receive buffer keeps every out-of-order range",
       {}},
      {"transport.tcp.congestion_control",
       C::refused,
       {"NEW_RENO", "CUBIC", "DCTCP"},
       "netwarp-ns3 runs TcpNewReno, TcpCubic or TcpDctcp",
       {}},
      {"transport.tcp.cubic_c", C::mirrored, {}, "TcpCubic's C", {}},
      {"transport.tcp.cubic_beta", C::mirrored, {}, "TcpCubic's Beta", {}},
      {"transport.tcp.cubic_reading",
       C::noted,
       {},
       "ns-3.37's TcpCubic is Linux's cubic in whole segments, not RFC 9438 (emulate: NS3 "
       "selects CUBIC_NS3)",
       cubic_read_as_ns3},
      {"transport.tcp.dctcp_g", C::mirrored, {}, "TcpDctcp's DctcpShiftG", {}},
      {"transport.tcp.dctcp_initial_alpha", C::mirrored, {}, "TcpDctcp's DctcpAlphaOnInit", {}},
      {"transport.tcp.dctcp_reading",
       C::noted,
       {},
       "ns-3.37's TcpDctcp is a TcpLinuxReno whose ECN echoes enter TcpSocketBase's CA_CWR "
       "(emulate: NS3 selects DCTCP_NS3)",
       dctcp_read_as_ns3},
  };
}

std::vector<FieldRule> workload_and_rest() {
  return {
      {"workload.flows.flow.src", C::mirrored, {}, "", {}},
      {"workload.flows.flow.dst", C::mirrored, {}, "", {}},
      {"workload.flows.flow.bytes", C::mirrored, {}, "", {}},
      {"workload.flows.flow.start_ns", C::mirrored, {}, "", {}},
      {"workload.flows.csv_file", C::mirrored, {}, "", {}},
      {"workload.incast.senders", C::mirrored, {}, "", {}},
      {"workload.incast.receiver", C::mirrored, {}, "", {}},
      {"workload.incast.bytes", C::mirrored, {}, "", {}},
      {"workload.incast.start_ns", C::mirrored, {}, "", {}},
      {"workload.all_to_all.order", C::mirrored, {}, "", {}},
      {"workload.all_to_all.bytes", C::mirrored, {}, "", {}},
      {"workload.all_to_all.ranks", C::mirrored, {}, "", {}},
      {"workload.all_to_all.seed", C::mirrored, {}, "", {}},
      {"workload.permutation.bytes", C::mirrored, {}, "", {}},
      {"workload.permutation.seed", C::mirrored, {}, "", {}},
      {"workload.uniform_random.messages_per_host", C::mirrored, {}, "", {}},
      {"workload.uniform_random.bytes", C::mirrored, {}, "", {}},
      {"workload.uniform_random.seed", C::mirrored, {}, "", {}},
      {"workload.persistent_connections",
       C::refused,
       {"false"},
       "netwarp-ns3 opens one connection per message",
       {}},
      {"mpi", C::refused, {}, "netwarp-ns3 runs network workloads (workload { ... }) only", {}},
      {"outputs", C::no_effect, {}, "netwarp-ns3 writes its own pcap with --pcap", {}},
      {"validation", C::no_effect, {}, "what `netwarp validate` compares", {}},
  };
}

// Traffic classes, datacenter workloads and fabrics (d35cc46): refused until mirrored.
std::vector<FieldRule> classes_and_fabrics() {
  constexpr const char* kOneClass = "netwarp-ns3 runs one traffic class over one FIFO per port";
  return {
      {"topology.leaf_spine", C::refused, {}, "leaf-spine fabrics are not mirrored yet", {}},
      {"topology.multipath.mode",
       C::refused,
       {"DEFAULT"},
       "ns-3 gets static routes, one port per destination",
       {}},
      {"topology.multipath.seed", C::no_effect, {}, "only with a refused multipath mode", {}},
      {"topology.multipath.flowlet_gap_ns", C::no_effect, {}, "only with FLOWLET, refused", {}},
      {"switch.scheduler", C::refused, {"STRICT_PRIORITY"}, kOneClass, {}},
      {"switch.classes", C::refused, {}, kOneClass, {}},
      {"switch.shared_buffer",
       C::refused,
       {},
       "netwarp-ns3 gives every device queue its own limit",
       {}},
      {"switch.red",
       C::refused,
       {},
       "netwarp-ns3 installs RED only as the step marker of switch.ecn_threshold_bytes",
       {}},
      {"switch.mark_at", C::refused, {"ENQUEUE"}, "ns-3's RedQueueDisc marks on arrival", {}},
      {"switch.pfc", C::refused, {}, "point-to-point links drop; PFC is not mirrored", {}},
      {"transport.roce", C::refused, {}, "netwarp-ns3 cross-checks TCP only", {}},
      {"workload.name", C::no_effect, {}, "a label", {}},
      {"workload.flows.flow.name", C::no_effect, {}, "a label", {}},
      {"workload.flows.flow.group", C::refused, {}, "flow groups are not mirrored yet", {}},
      {"workload.flows.flow.after", C::refused, {}, "flow dependencies are not mirrored yet", {}},
      {"workload.flows.flow.gap_ns", C::refused, {}, "flow dependencies are not mirrored yet", {}},
      {"workload.flows.flow.class", C::refused, {}, kOneClass, {}},
      {"workload.datacenter", C::refused, {}, "datacenter workloads are not mirrored yet", {}},
      {"workload.hosts", C::refused, {}, "host selections are not mirrored yet", {}},
      {"workload.start_ns", C::refused, {}, "workload start offsets are not mirrored yet", {}},
      {"workload.priority", C::refused, {}, kOneClass, {}},
      {"workload.transport", C::refused, {}, "per-workload transports are not mirrored yet", {}},
      {"workloads", C::refused, {}, "netwarp-ns3 runs the one `workload`", {}},
  };
}

CrossCheckFields make_table() {
  CrossCheckFields table{"netwarp-ns3", "validation/src/coverage/ns3_fields.cpp", {}};
  for (auto part : {engine_and_links, switch_and_nic, tcp_timers_and_windows,
                    tcp_recovery_and_control, workload_and_rest, classes_and_fabrics})
    for (FieldRule& rule : part()) table.rules.push_back(std::move(rule));
  for (auto part :
       {label_and_kernel_rules(),
        fixed_route_topology_rules("ns-3 gets static routes, one port per destination")})
    for (const FieldRule& rule : part) table.rules.push_back(rule);
  return table;
}

}  // namespace

const CrossCheckFields& ns3_fields() {
  static const CrossCheckFields table = make_table();
  return table;
}

}  // namespace netwarp::validation
