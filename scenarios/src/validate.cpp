// Validators of the device and run settings: engine, links, switch, NIC, transport, outputs,
// and the cross-field rules between them (buffers hold a packet; a lossless transport needs
// unlimited buffers or credit flow control; MSS fits the MTU; RTO bounds in order). Each field
// is checked in exactly one place; the order of the calls in validate_scenario is the order in
// which a person would fix things.
#include "validate.hpp"

#include "validate_time.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

namespace netwarp::scenarios {

namespace {

void validate_engine(const proto::Scenario& scenario) {
  const proto::Engine& engine = scenario.engine();
  if (!(engine.window_us() >= 0) || !(engine.window_us() <= kMaxTimeNs / 1000.0))
    fail("engine.window_us",
         "must be in [0, 1e12] us (0: unbounded), got " + std::to_string(engine.window_us()));
  require_at_most("end_time_ns", scenario.end_time_ns(), kMaxTimeNs);
  // The same ranges as the command-line flags (apps/src/kernel_options.cpp).
  require_at_most("engine.gvt_interval", engine.gvt_interval(), 1u << 20);
  require_at_most("engine.batch", engine.batch(), 1u << 20);
  require_at_most("engine.max_uncommitted", engine.max_uncommitted(), std::uint64_t{1} << 40);
  require_at_most("engine.max_uncommitted_bytes", engine.max_uncommitted_bytes(),
                  std::uint64_t{1} << 50);
  require_at_most("engine.record_buffer_bytes", engine.record_buffer_bytes(),
                  std::uint64_t{1} << 40);
  if (!proto::Engine::Sync::Mode_IsValid(engine.sync()))
    fail("engine.sync",
         "must be OPTIMISTIC, CONSERVATIVE or HYBRID, got " + std::to_string(engine.sync()));
  if (!proto::Engine::FewGroups_IsValid(engine.few_groups()))
    fail("engine.few_groups",
         "must be TOGETHER or SPREAD, got " + std::to_string(engine.few_groups()));
}

void validate_link_level(const proto::LinkLevel& level, const std::string& at) {
  require_at_most(at + ".level", level.level(), 255);
  require_positive(at + ".rate_bps", level.rate_bps());
  if (level.latency_ns() < 0)
    fail(at + ".latency_ns", "must be >= 0, got " + std::to_string(level.latency_ns()));
  require_at_most(at + ".latency_ns", static_cast<std::uint64_t>(level.latency_ns()), kMaxTimeNs);
}

void validate_links(const proto::Links& links) {
  require_positive("links.rate_bps", links.rate_bps());
  if (links.latency_ns() < 0)
    fail("links.latency_ns", "must be >= 0, got " + std::to_string(links.latency_ns()));
  require_at_most("links.latency_ns", static_cast<std::uint64_t>(links.latency_ns()), kMaxTimeNs);
  require_positive("links.mtu_bytes", links.mtu_bytes());
  require_at_most("links.mtu_bytes", links.mtu_bytes(), 65535);  // the IPv4 total length
  if (links.header_bytes() >= links.mtu_bytes())
    fail("links.header_bytes", "must be < links.mtu_bytes (" + std::to_string(links.mtu_bytes()) +
                                   "), got " + std::to_string(links.header_bytes()));
  require_at_most("links.frame_overhead_bytes", links.frame_overhead_bytes(), 65535);
  require_at_most("links.control_bytes", links.control_bytes(),
                  links.mtu_bytes() - links.header_bytes());
  std::set<std::uint32_t> seen;
  for (int i = 0; i < links.levels_size(); ++i) {
    const std::string at = "links.levels[" + std::to_string(i) + "]";
    validate_link_level(links.levels(i), at);
    if (!seen.insert(links.levels(i).level()).second)
      fail(at + ".level", "level " + std::to_string(links.levels(i).level()) + " is given twice");
  }
}

// A limited buffer must take at least one max-size packet, or nothing could ever pass.
void require_packet_fits(const std::string& field, std::uint64_t buffer_bytes,
                         const proto::Links& links) {
  const std::uint64_t packet = max_wire_packet_bytes(links);
  if (buffer_bytes != 0 && buffer_bytes < packet)
    fail(field, "must hold at least one packet (" + std::to_string(packet) + " B), got " +
                    std::to_string(buffer_bytes));
}

// RED (Red): min < max within the queue's limit (0: none), a probability in (0, 1], an EWMA
// weight in [0, 1).
void validate_red(const proto::Red& red, const std::string& at, std::uint64_t limit) {
  if (red.max_bytes() == 0) fail(at + ".max_bytes", "must be > 0 (required), got 0");
  require_at_most(at + ".max_bytes", red.max_bytes(), kMaxBufferBytes);
  if (red.min_bytes() >= red.max_bytes())
    fail(at + ".min_bytes",
         fmt::format("must be < {}.max_bytes ({}), got {}", at, red.max_bytes(), red.min_bytes()));
  if (limit != 0 && red.min_bytes() >= limit)
    fail(at + ".min_bytes",
         fmt::format("must be < the queue's buffer ({}), got {}", limit, red.min_bytes()));
  if (!(red.max_probability() > 0 && red.max_probability() <= 1))
    fail(at + ".max_probability", fmt::format("must be in (0, 1], got {}", red.max_probability()));
  if (!(red.queue_weight() >= 0 && red.queue_weight() < 1))
    fail(at + ".queue_weight",
         fmt::format("must be in [0, 1) (0: the instantaneous queue), got {}", red.queue_weight()));
}

// MARK_NS3_RED reads the one-FIFO port's step threshold and byte limit as ns-3's RedQueueDisc.
void validate_ns3_red_marking(const proto::Switch& sw) {
  const auto refuse = [](const std::string& why) {
    fail("switch.mark_reading", "MARK_NS3_RED " + why);
  };
  if (sw.ecn_threshold_bytes() == 0) refuse("reads the step threshold: set ecn_threshold_bytes");
  if (sw.has_red()) refuse("is the step threshold read as ns-3's; it does not take switch.red");
  if (sw.classes_size() != 0) refuse("applies to ports of one FIFO, not to switch.classes");
  if (sw.has_shared_buffer()) refuse("applies to private buffers, not to switch.shared_buffer");
  if (sw.mark_at() != proto::Switch::ENQUEUE) refuse("marks on arrival: needs mark_at ENQUEUE");
  if (sw.buffer_packets() != 0) refuse("counts bytes: needs switch.buffer_packets 0");
  if (sw.flow_control() != proto::Switch::NONE) refuse("needs switch.flow_control NONE");
}

// RED replaces the step threshold: both on one queue would leave one unused.
void validate_marking(const proto::Switch& sw) {
  if (sw.has_red()) {
    if (sw.ecn_threshold_bytes() != 0)
      fail("switch.red", "replaces switch.ecn_threshold_bytes: set only one of them");
    validate_red(sw.red(), "switch.red", sw.buffer_bytes());
  }
  if (!proto::Switch::MarkAt_IsValid(sw.mark_at()))
    fail("switch.mark_at", "must be ENQUEUE or DEQUEUE, got " + std::to_string(sw.mark_at()));
  if (sw.mark_reading() == proto::Switch::MARK_NS3_RED) validate_ns3_red_marking(sw);
}

// The pool (SharedBuffer) replaces the private per-port limit; reservations leave a shared part.
void validate_shared_buffer(const proto::Scenario& scenario) {
  const proto::Switch& sw = scenario.switch_();
  if (!sw.has_shared_buffer()) return;
  const proto::SharedBuffer& pool = sw.shared_buffer();
  require_at_most("switch.shared_buffer.bytes", pool.bytes(), kMaxBufferBytes);
  if (pool.bytes() == 0) fail("switch.shared_buffer.bytes", "must be > 0 (the pool per switch)");
  require_packet_fits("switch.shared_buffer.bytes", pool.bytes(), scenario.links());
  if (!(pool.alpha() > 0 && std::isfinite(pool.alpha())))
    fail("switch.shared_buffer.alpha", fmt::format("must be > 0, got {}", pool.alpha()));
  if (pool.reserved_bytes() >= pool.bytes())
    fail("switch.shared_buffer.reserved_bytes",
         fmt::format("must be < switch.shared_buffer.bytes ({}), got {}", pool.bytes(),
                     pool.reserved_bytes()));
  if (sw.buffer_bytes() != 0)
    fail("switch.buffer_bytes",
         "must be 0 with switch.shared_buffer (the pool's dynamic "
         "thresholds limit every queue), got " +
             std::to_string(sw.buffer_bytes()));
}

// PFC (Pfc) pauses the lossless classes: thresholds in order (static) or from the pool (XOFF 0),
// quanta in 1 .. 65535. Host NICs must obey PAUSE frames, which the MPI job's do not; a
// deadlock holds its pauses (and their refreshes) forever, so the run needs an end.
void validate_pfc(const proto::Scenario& scenario) {
  const proto::Switch& sw = scenario.switch_();
  bool has_lossless = false;
  for (int i = 0; i < sw.classes_size(); ++i) has_lossless |= sw.classes(i).lossless();
  if (!sw.has_pfc()) {
    for (int i = 0; i < sw.classes_size(); ++i)
      if (sw.classes(i).lossless())
        fail("switch.classes[" + std::to_string(i) + "].lossless", "needs switch.pfc");
    return;
  }
  const proto::Pfc& pfc = sw.pfc();
  if (!has_lossless)
    fail("switch.pfc",
         "no class is lossless: set switch.classes[].lossless on the classes to pause");
  require_at_most("switch.pfc.xoff_bytes", pfc.xoff_bytes(), kMaxBufferBytes);
  require_at_most("switch.pfc.headroom_bytes", pfc.headroom_bytes(), kMaxBufferBytes);
  if (pfc.xoff_bytes() == 0 && !sw.has_shared_buffer())
    fail("switch.pfc.xoff_bytes",
         "0 (dynamic, from the shared pool) needs switch.shared_buffer; set a threshold");
  if (pfc.xoff_bytes() != 0 && pfc.xon_bytes() >= pfc.xoff_bytes())
    fail("switch.pfc.xon_bytes", fmt::format("must be < switch.pfc.xoff_bytes ({}), got {}",
                                             pfc.xoff_bytes(), pfc.xon_bytes()));
  if (pfc.xoff_bytes() == 0 && pfc.xon_bytes() != 0)
    fail("switch.pfc.xon_bytes",
         "only with a static switch.pfc.xoff_bytes (dynamic XON is two "
         "max frames below the dynamic XOFF)");
  if (pfc.pause_quanta() == 0 || pfc.pause_quanta() > 65535)
    fail("switch.pfc.pause_quanta",
         "must be 1 .. 65535 (512-bit times), got " + std::to_string(pfc.pause_quanta()));
  if (scenario.has_mpi()) fail("switch.pfc", "PFC with an MPI job is not modelled");
  if (scenario.end_time_ns() == 0)
    fail("switch.pfc", "needs end_time_ns: a PFC deadlock would hold its pauses forever");
}

// RED, dequeue marking and the shared buffer use class queues, which credit ports do not have.
void refuse_with_credit(const proto::Switch& sw) {
  if (sw.flow_control() != proto::Switch::CREDIT) return;
  if (sw.has_red()) fail("switch.red", "RED is not modelled with CREDIT flow control");
  if (sw.mark_at() == proto::Switch::DEQUEUE)
    fail("switch.mark_at", "DEQUEUE is not modelled with CREDIT flow control");
  if (sw.has_shared_buffer())
    fail("switch.shared_buffer", "a shared buffer is not modelled with CREDIT flow control");
  if (sw.has_pfc()) fail("switch.pfc", "PFC is not modelled with CREDIT flow control");
}

// One traffic class: its limit holds a packet and fits the port's, its threshold is below it.
void validate_port_class(const proto::PortClass& c, const std::string& at,
                         const proto::Scenario& scenario) {
  const proto::Switch& sw = scenario.switch_();
  if (c.priority() > 7)
    fail(at + ".priority", "must be 0 .. 7, got " + std::to_string(c.priority()));
  require_at_most(at + ".weight", c.weight(), 1'000'000);
  require_at_most(at + ".buffer_bytes", c.buffer_bytes(), kMaxBufferBytes);
  require_at_most(at + ".ecn_threshold_bytes", c.ecn_threshold_bytes(), kMaxBufferBytes);
  require_packet_fits(at + ".buffer_bytes", c.buffer_bytes(), scenario.links());
  if (sw.buffer_bytes() != 0 && c.buffer_bytes() > sw.buffer_bytes())
    fail(at + ".buffer_bytes", "must be <= switch.buffer_bytes (" +
                                   std::to_string(sw.buffer_bytes()) + "), got " +
                                   std::to_string(c.buffer_bytes()));
  const std::uint64_t limit = c.buffer_bytes() != 0 ? c.buffer_bytes() : sw.buffer_bytes();
  if (limit != 0 && c.ecn_threshold_bytes() >= limit)
    fail(at + ".ecn_threshold_bytes", "must be < the class's buffer (" + std::to_string(limit) +
                                          "), got " + std::to_string(c.ecn_threshold_bytes()));
  if (!c.has_red()) return;
  if (c.ecn_threshold_bytes() != 0)
    fail(at + ".red", "replaces " + at + ".ecn_threshold_bytes: set only one of them");
  validate_red(c.red(), at + ".red", limit);
}

void validate_port_classes(const proto::Scenario& scenario) {
  const proto::Switch& sw = scenario.switch_();
  if (sw.classes_size() == 0) {
    if (sw.scheduler() != proto::Switch::STRICT_PRIORITY)
      fail("switch.scheduler",
           "a scheduler needs switch.classes (without them a port is one FIFO)");
    return;
  }
  if (sw.classes_size() > 8)
    fail("switch.classes",
         "at most 8 (priorities 0 .. 7), got " + std::to_string(sw.classes_size()));
  if (sw.flow_control() == proto::Switch::CREDIT)
    fail("switch.classes", "traffic classes are not modelled with CREDIT flow control");
  std::uint32_t seen = 0;
  for (int i = 0; i < sw.classes_size(); ++i) {
    const std::string at = "switch.classes[" + std::to_string(i) + "]";
    const proto::PortClass& c = sw.classes(i);
    validate_port_class(c, at, scenario);
    if ((seen >> c.priority() & 1) != 0)
      fail(at + ".priority", "priority " + std::to_string(c.priority()) + " has two classes");
    seen |= 1u << c.priority();
  }
}

void validate_switch(const proto::Scenario& scenario) {
  const proto::Switch& sw = scenario.switch_();
  require_at_most("switch.buffer_bytes", sw.buffer_bytes(), kMaxBufferBytes);
  require_at_most("switch.ecn_threshold_bytes", sw.ecn_threshold_bytes(), kMaxBufferBytes);
  require_packet_fits("switch.buffer_bytes", sw.buffer_bytes(), scenario.links());
  if (sw.buffer_bytes() != 0 && sw.ecn_threshold_bytes() >= sw.buffer_bytes())
    fail("switch.ecn_threshold_bytes", "must be < switch.buffer_bytes (" +
                                           std::to_string(sw.buffer_bytes()) + "), got " +
                                           std::to_string(sw.ecn_threshold_bytes()));
  if (sw.flow_control() == proto::Switch::CREDIT && sw.buffer_bytes() == 0)
    fail("switch.flow_control",
         "CREDIT needs switch.buffer_bytes (the credit of each port), got unlimited (0)");
  validate_port_classes(scenario);
  refuse_with_credit(sw);
  validate_marking(sw);
  validate_shared_buffer(scenario);
  validate_pfc(scenario);
}

void validate_nic(const proto::Scenario& scenario) {
  if (scenario.nic().rate_bps() < 0)
    fail("nic.rate_bps",
         "must be >= 0 (0: the link's rate), got " + std::to_string(scenario.nic().rate_bps()));
  require_at_most("nic.buffer_bytes", scenario.nic().buffer_bytes(), kMaxBufferBytes);
  require_packet_fits("nic.buffer_bytes", scenario.nic().buffer_bytes(), scenario.links());
  const auto& out = scenario.outputs();
  const std::int64_t payload =
      std::int64_t{scenario.links().mtu_bytes()} - std::int64_t{scenario.links().header_bytes()};
  if ((out.pcap_nodes_size() > 0 || out.pcap_ports_size() > 0) && payload > 65495)
    fail("links.mtu_bytes",
         "pcap output holds IPv4 packets: mtu_bytes - header_bytes must be "
         "<= 65495, got " +
             std::to_string(payload));
  if (scenario.nic().jitter_ns() > 1'000'000'000'000)
    fail("nic.jitter_ns",
         "must be at most 1e12 ns, got " + std::to_string(scenario.nic().jitter_ns()));
}

void validate_rto(const proto::Tcp& tcp, const std::string& at) {
  const std::uint64_t max_us = kMaxTimeNs / 1000;
  require_at_most(at + ".tcp.max_rto_us", tcp.max_rto_us(), max_us);
  require_at_least(at + ".tcp.min_rto_us", tcp.min_rto_us(), 1);
  if (tcp.min_rto_us() > tcp.max_rto_us())
    fail(at + ".tcp.min_rto_us", "must be <= transport.tcp.max_rto_us (" +
                                     std::to_string(tcp.max_rto_us()) + "), got " +
                                     std::to_string(tcp.min_rto_us()));
  if (tcp.initial_rto_us() < tcp.min_rto_us() || tcp.initial_rto_us() > tcp.max_rto_us())
    fail(at + ".tcp.initial_rto_us",
         "must be in [min_rto_us, max_rto_us] = [" + std::to_string(tcp.min_rto_us()) + ", " +
             std::to_string(tcp.max_rto_us()) + "], got " + std::to_string(tcp.initial_rto_us()));
  require_at_least(at + ".tcp.delayed_ack_timeout_us", tcp.delayed_ack_timeout_us(), 1);
  require_at_most(at + ".tcp.delayed_ack_timeout_us", tcp.delayed_ack_timeout_us(), max_us);
  require_at_least(at + ".tcp.syn_timeout_rto_us", tcp.syn_timeout_rto_us(), 1);
  require_at_most(at + ".tcp.syn_timeout_rto_us", tcp.syn_timeout_rto_us(), max_us);
}

// ns-3.37's recovery without SACK, with NewReno's or ns-3's CUBIC window rules and no ECN
// reaction (tcp_ns3_recovery.cpp emulates exactly those configurations).
void validate_ns3_classic(const proto::Tcp& tcp, const std::string& at) {
  if (tcp.sack())
    fail(at + ".tcp.recovery",
         "NS3_CLASSIC is ns-3's recovery without SACK; it needs "
         "transport.tcp.sack: false");
  const bool ns3_cubic =
      tcp.congestion_control() == proto::Tcp::CUBIC && tcp.cubic_reading() == proto::Tcp::CUBIC_NS3;
  const bool ns3_dctcp =
      tcp.congestion_control() == proto::Tcp::DCTCP && tcp.dctcp_reading() == proto::Tcp::DCTCP_NS3;
  if (tcp.congestion_control() != proto::Tcp::NEW_RENO && !ns3_cubic && !ns3_dctcp)
    fail(at + ".tcp.recovery",
         "NS3_CLASSIC needs transport.tcp.congestion_control: NEW_RENO, CUBIC with "
         "cubic_reading: CUBIC_NS3 or DCTCP with dctcp_reading: DCTCP_NS3");
  if (tcp.ecn() && !ns3_dctcp)
    fail(at + ".tcp.recovery", "NS3_CLASSIC needs transport.tcp.ecn: false (but for DCTCP)");
  if (tcp.prr_conservative_bound())
    fail(at + ".tcp.prr_conservative_bound", "only applies with recovery: PRR");
  if (tcp.prr_whole_segments())
    fail(at + ".tcp.prr_whole_segments", "only applies with recovery: PRR");
}

// SACK-based recovery needs SACK blocks (RFC 6675 section 1, RFC 6937 section 3).
void validate_tcp_recovery(const proto::Tcp& tcp, const std::string& at) {
  if (tcp.recovery() == proto::Tcp::NS3_CLASSIC) return validate_ns3_classic(tcp, at);
  if (tcp.recovery() != proto::Tcp::NEWRENO && !tcp.sack())
    fail(at + ".tcp.recovery", proto::Tcp::Recovery_Name(tcp.recovery()) +
                                   " needs transport.tcp.sack: true (RFC 6675 recovery "
                                   "works on SACK blocks)");
  if (tcp.prr_conservative_bound() && tcp.recovery() != proto::Tcp::PRR)
    fail(at + ".tcp.prr_conservative_bound", "only applies with recovery: PRR");
  if (tcp.prr_whole_segments() && tcp.recovery() != proto::Tcp::PRR)
    fail(at + ".tcp.prr_whole_segments", "only applies with recovery: PRR");
}

void validate_tcp(const proto::Tcp& tcp, const proto::Links& links, const std::string& at) {
  const std::uint32_t max_mss = links.mtu_bytes() - links.header_bytes();
  if (tcp.mss_bytes() > max_mss)
    fail(at + ".tcp.mss_bytes", "must be <= links.mtu_bytes - links.header_bytes (" +
                                    std::to_string(max_mss) + "), got " +
                                    std::to_string(tcp.mss_bytes()));
  require_at_least(at + ".tcp.initial_window_segments", tcp.initial_window_segments(), 1);
  require_at_most(at + ".tcp.receive_window_bytes", tcp.receive_window_bytes(), kMaxBufferBytes);
  if (tcp.receive_window_bytes() != 0)
    require_at_least(at + ".tcp.receive_window_bytes", tcp.receive_window_bytes(), tcp.mss_bytes());
  require_at_least(at + ".tcp.dupack_threshold", tcp.dupack_threshold(), 1);
  require_at_most(at + ".tcp.syn_option_bytes", tcp.syn_option_bytes(), 40);
  validate_rto(tcp, at);
  validate_tcp_recovery(tcp, at);
}

// A parameter of another algorithm than the chosen one would be silently ignored.
void require_only_with(const std::string& field, bool is_set, bool is_chosen,
                       const std::string& algorithm) {
  if (is_set && !is_chosen)
    fail(field, "only used with transport.tcp.congestion_control: " + algorithm);
}

void require_open_unit_interval(const std::string& field, double value, bool may_be_one) {
  const bool is_in_range = value > 0 && (may_be_one ? value <= 1 : value < 1);
  if (!is_in_range)
    fail(field, fmt::format("must be in (0, 1{}, got {}", may_be_one ? "]" : ")", value));
}

// Whether switch ports mark CE: a step threshold or RED, on the switch or on a class.
bool marks_congestion(const proto::Switch& sw) {
  if (sw.ecn_threshold_bytes() != 0 || sw.has_red()) return true;
  for (const proto::PortClass& c : sw.classes())
    if (c.ecn_threshold_bytes() != 0 || c.has_red()) return true;
  return false;
}

// RFC 9438's C and beta_cubic (4.2, 4.6), RFC 8257's g (3.3); DCTCP needs ports that mark CE.
void validate_congestion_control(const proto::Tcp& tcp, const proto::Switch& sw,
                                 const std::string& at) {
  const bool is_cubic = tcp.congestion_control() == proto::Tcp::CUBIC;
  const bool is_dctcp = tcp.congestion_control() == proto::Tcp::DCTCP;
  require_only_with(at + ".tcp.cubic_c", tcp.has_cubic_c(), is_cubic, "CUBIC");
  require_only_with(at + ".tcp.cubic_beta", tcp.has_cubic_beta(), is_cubic, "CUBIC");
  require_only_with(at + ".tcp.dctcp_g", tcp.has_dctcp_g(), is_dctcp, "DCTCP");
  if (is_cubic && !(tcp.cubic_c() > 0 && std::isfinite(tcp.cubic_c())))
    fail(at + ".tcp.cubic_c", fmt::format("must be > 0, got {}", tcp.cubic_c()));
  if (is_cubic) require_open_unit_interval(at + ".tcp.cubic_beta", tcp.cubic_beta(), false);
  require_only_with(at + ".tcp.cubic_reading", tcp.has_cubic_reading(), is_cubic, "CUBIC");
  if (tcp.cubic_reading() == proto::Tcp::CUBIC_NS3 && tcp.recovery() != proto::Tcp::NS3_CLASSIC)
    fail(at + ".tcp.cubic_reading",
         "CUBIC_NS3 is ns-3's TcpCubic inside ns-3's sender; it needs recovery: NS3_CLASSIC "
         "(sack and ecn off)");
  if (is_dctcp) require_open_unit_interval(at + ".tcp.dctcp_g", tcp.dctcp_g(), true);
  require_only_with(at + ".tcp.dctcp_initial_alpha", tcp.has_dctcp_initial_alpha(), is_dctcp,
                    "DCTCP");
  if (is_dctcp && !(tcp.dctcp_initial_alpha() >= 0 && tcp.dctcp_initial_alpha() <= 1))
    fail(at + ".tcp.dctcp_initial_alpha",
         fmt::format("must be in [0, 1], got {}", tcp.dctcp_initial_alpha()));
  require_only_with(at + ".tcp.dctcp_reading", tcp.has_dctcp_reading(), is_dctcp, "DCTCP");
  if (tcp.dctcp_reading() == proto::Tcp::DCTCP_NS3 && tcp.recovery() != proto::Tcp::NS3_CLASSIC)
    fail(at + ".tcp.dctcp_reading",
         "DCTCP_NS3 is ns-3's TcpDctcp inside ns-3's sender; it needs recovery: NS3_CLASSIC "
         "(sack off)");
  if (is_dctcp && !marks_congestion(sw))
    fail(at + ".tcp.congestion_control",
         "DCTCP needs ports that mark congestion: set switch.ecn_threshold_bytes > 0 or "
         "switch.red");
}

// Lossless delivery has no retransmission: a drop would lose data for good.
void validate_transport(const proto::Scenario& scenario) {
  if (scenario.transport().has_roce() && scenario.transport().kind() != proto::Transport::ROCE)
    fail("transport.roce", "is used with transport.kind: ROCE only");
  if (scenario.transport().kind() == proto::Transport::LOSSLESS &&
      scenario.nic().buffer_bytes() != 0)
    fail("nic.buffer_bytes",
         "LOSSLESS sends a whole message at once: a limited NIC buffer would drop it for good "
         "(use 0, unlimited)");
  if (scenario.transport().kind() == proto::Transport::TCP) {
    validate_tcp(scenario.transport().tcp(), scenario.links(), "transport");
    return validate_congestion_control(scenario.transport().tcp(), scenario.switch_(), "transport");
  }
  if (scenario.transport().kind() == proto::Transport::ROCE) return validate_roce(scenario);
  const proto::Switch& sw = scenario.switch_();
  const bool is_finite = sw.buffer_bytes() != 0 || sw.buffer_packets() != 0;
  if (is_finite && sw.flow_control() != proto::Switch::CREDIT)
    fail("transport.kind",
         "LOSSLESS with finite switch buffers needs switch.flow_control: CREDIT (packets would be "
         "dropped and never retransmitted)");
}

// A workload's own transport (Workload.transport) follows the same rules at its own path; the
// kind and the packet format stay the scenario's, so only TCP's settings may differ.
void validate_workload_transport(const proto::Scenario& scenario, const ScenarioWorkload& entry) {
  const proto::Transport& t = entry.workload->transport();
  const proto::Transport::Kind kind = scenario.transport().kind();
  const std::string at = entry.at + ".transport";
  if (t.kind() != kind)
    fail(at + ".kind",
         fmt::format("{} differs from transport.kind ({}): the workloads of a run "
                     "share the scenario's transport kind; a workload's own "
                     "transport changes TCP's settings only",
                     proto::Transport::Kind_Name(t.kind()), proto::Transport::Kind_Name(kind)));
  if (t.has_roce()) fail(at + ".roce", "a workload's own RoCE settings are not modelled");
  if (kind != proto::Transport::TCP) {
    if (t.has_tcp()) fail(at + ".tcp", "only used with transport.kind: TCP");
    return;
  }
  validate_tcp(t.tcp(), scenario.links(), at);
  validate_congestion_control(t.tcp(), scenario.switch_(), at);
  const std::uint32_t syn_options = scenario.transport().tcp().syn_option_bytes();
  if (t.tcp().syn_option_bytes() != syn_options)
    fail(at + ".tcp.syn_option_bytes",
         fmt::format("must equal transport.tcp.syn_option_bytes ({}): the scenario's transport "
                     "sets every class's packet format, got {}",
                     syn_options, t.tcp().syn_option_bytes()));
}

void validate_workload_transports(const proto::Scenario& scenario) {
  for (const ScenarioWorkload& entry : scenario_workloads(scenario))
    if (entry.workload->has_transport()) validate_workload_transport(scenario, entry);
}

void validate_size_buckets(const proto::Outputs& outputs) {
  std::uint64_t previous = 0;
  for (int i = 0; i < outputs.size_buckets_bytes_size(); ++i) {
    const std::uint64_t bound = outputs.size_buckets_bytes(i);
    if (bound <= previous)
      fail(fmt::format("outputs.size_buckets_bytes[{}]", i),
           fmt::format("must be > {} (increasing bounds, > 0), got {}", previous, bound));
    previous = bound;
  }
}

void validate_outputs(const proto::Outputs& outputs) {
  validate_size_buckets(outputs);
  for (int i = 0; i < outputs.queue_ports_size(); ++i) {
    const proto::QueuePort& port = outputs.queue_ports(i);
    if (port.node().empty() == port.toward_host().empty())
      fail("outputs.queue_ports[" + std::to_string(i) + "]",
           "set either node (with port) or toward_host");
  }
  if (outputs.sample_interval_ns() > 1'000'000'000'000)
    fail("outputs.sample_interval_ns", "must be <= 1e12 (1000 s; 0: no time series), got " +
                                           std::to_string(outputs.sample_interval_ns()));
}

}  // namespace

std::uint64_t max_wire_packet_bytes(const proto::Links& links) {
  return std::uint64_t{links.mtu_bytes()} + links.frame_overhead_bytes();
}

// Model names are checked by `netwarp validate`, which knows them.
void validate_validation(const proto::Validation& v) {
  if (v.fit_w_us() < 0 || !std::isfinite(v.fit_w_us())) fail("validation.fit_w_us", "must be >= 0");
  const proto::Sweep& sweep = v.sweep();
  if (sweep.field().empty() && sweep.values_size() > 0)
    fail("validation.sweep.field", "required when values are given");
  if (!sweep.field().empty() && sweep.values_size() == 0)
    fail("validation.sweep.values", "at least one value is required");
  for (int i = 0; i < sweep.values_size(); ++i)
    if (sweep.values(i).empty())
      fail(fmt::format("validation.sweep.values[{}]", i), "must not be empty");
}

void validate_scenario(const proto::Scenario& scenario) {
  refuse_unbuilt_settings(scenario);
  validate_engine(scenario);
  validate_links(scenario.links());
  validate_topology(scenario.topology());
  validate_link_levels(scenario);
  validate_switch(scenario);
  validate_nic(scenario);
  validate_transport(scenario);
  validate_workload_transports(scenario);
  if (scenario.has_mpi()) validate_mpi(scenario);
  if (!scenario.has_mpi() || has_workloads(scenario)) validate_workload(scenario);
  validate_outputs(scenario.outputs());
  validate_validation(scenario.validation());
  validate_time_budget(scenario);
}

}  // namespace netwarp::scenarios
