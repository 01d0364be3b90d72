// NetworkContext: indexes over the spec, and how device configs become port settings.
#include "netwarp/netmodels/network_context.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "netwarp/netmodels/multipath.hpp"
#include "netwarp/netmodels/stream_transport.hpp"

namespace netwarp::netmodels {

bool has_class_queues(const SwitchConfig& config) {
  return !config.classes.empty() || config.red.enabled() || config.mark_at == MarkAt::dequeue ||
         config.shared_buffer.bytes != 0 || config.pfc.enabled;
}

namespace {

// The class queues of every switch port: the configured classes, or one class when RED, dequeue
// marking or a shared buffer needs class queues (null: the plain FIFO).
const std::vector<PortClassConfig>* port_classes(const SwitchConfig& config) {
  static const std::vector<PortClassConfig> one_class{PortClassConfig{}};
  if (!config.classes.empty()) return &config.classes;
  return has_class_queues(config) ? &one_class : nullptr;
}

bool port_before(const PortRef& a, const PortRef& b) {
  return std::tie(a.node, a.port) < std::tie(b.node, b.port);
}
}  // namespace

NetworkContext::NetworkContext(const NetworkSpec& spec)
    : spec_(spec),
      send_slot_(spec.workload.messages.size()),
      receive_slot_(spec.workload.messages.size()),
      connection_of_(spec.workload.messages.size()),
      next_on_connection_(spec.workload.messages.size(), kNoMessage),
      previous_on_connection_(spec.workload.messages.size(), kNoMessage),
      stream_end_(spec.workload.messages.size()),
      pcap_traced_(spec.topology.nodes.size(), 0),
      queue_traced_(spec.outputs.queue_ports) {
  messages_of_ = group_messages(
      spec, [](const Message& m) { return m.src; }, send_slot_);
  messages_to_ = group_messages(
      spec, [](const Message& m) { return m.dst; }, receive_slot_);
  index_connections();
  for (NodeId n : spec.outputs.pcap_nodes) pcap_traced_[n] = 1;
  std::sort(queue_traced_.begin(), queue_traced_.end(), port_before);
}

template <class HostOf>
NetworkContext::MessagesByHost NetworkContext::group_messages(const NetworkSpec& spec,
                                                              HostOf&& host_of,
                                                              std::vector<std::uint32_t>& slot) {
  MessagesByHost by_host;
  by_host.start.assign(spec.topology.host_count + std::size_t{1}, 0);
  for (const Message& m : spec.workload.messages) ++by_host.start[host_of(m) + 1];
  for (std::size_t h = 1; h < by_host.start.size(); ++h) by_host.start[h] += by_host.start[h - 1];
  by_host.ids.resize(spec.workload.messages.size());
  std::vector<std::uint32_t> filled(spec.topology.host_count, 0);
  for (const Message& m : spec.workload.messages) {
    const NodeId h = host_of(m);
    slot[m.id] = filled[h]++;
    by_host.ids[by_host.start[h] + slot[m.id]] = m.id;
  }
  return by_host;
}

// Messages in list order; with persistent connections the last message seen of each pair links
// to the next.
void NetworkContext::index_connections() {
  const Workload& w = spec_.workload;
  auto shared = [&](const Message& m) {
    return w.persistent_connections ||
           (m.class_id < w.classes.size() && w.classes[m.class_id].persistent_connections);
  };
  std::map<std::tuple<NodeId, NodeId, std::uint16_t>, MessageId> last_of_pair;
  for (const Message& m : w.messages) {
    connection_of_[m.id] = m.id;
    stream_end_[m.id] = m.bytes;
    if (!shared(m)) continue;
    const auto [it, is_first] = last_of_pair.try_emplace({m.src, m.dst, m.class_id}, m.id);
    if (is_first) continue;
    const MessageId previous = it->second;
    it->second = m.id;
    connection_of_[m.id] = connection_of_[previous];
    stream_end_[m.id] = stream_end_[previous] + m.bytes;
    next_on_connection_[previous] = m.id;
    previous_on_connection_[m.id] = previous;
  }
}

std::uint64_t NetworkContext::connection_bytes(MessageId connection) const {
  MessageId last = connection;
  while (next_on_connection_[last] != kNoMessage) last = next_on_connection_[last];
  return stream_end_[last];
}

PortSettings NetworkContext::port_settings(NodeId node, PortIndex port) const {
  const Topology& t = topology();
  PortSettings s;
  s.node = node;
  s.index = port;
  s.link = t.nodes[node].ports[port];
  s.count_frame_in_service = spec_.switches.count_frame_in_service;
  s.arrival_first = spec_.switches.arrival_first;
  s.record_drops = spec_.outputs.drops_by_class;
  const bool credit = spec_.switches.flow_control == FlowControl::credit;
  // Hosts drain at line rate: no credit toward them. Toward a switch: its input buffer.
  if (credit && !t.is_host(s.link.peer)) s.credit_bytes = spec_.switches.buffer_bytes;
  if (t.is_host(node)) {
    if (spec_.nic.rate_bps != 0) s.link.rate_bps = spec_.nic.rate_bps;
    s.buffer_bytes = spec_.nic.buffer_bytes;
    s.jitter = spec_.nic.jitter;
    if (spec_.switches.pfc.enabled) {  // the switch pauses the NIC's lossless classes
      s.classes = port_classes(spec_.switches);
      s.scheduler = spec_.switches.scheduler;
      s.quantum_bytes = spec_.format.mtu_bytes + spec_.format.frame_overhead_bytes;
    }
  } else if (!credit) {
    s.buffer_bytes = spec_.switches.buffer_bytes;
    s.buffer_packets = spec_.switches.buffer_packets;
    s.ecn_threshold_bytes = spec_.switches.ecn_threshold_bytes;
    s.mark_ns3_red = spec_.switches.mark_ns3_red;
    s.frame_overhead_bytes = spec_.format.frame_overhead_bytes;
    s.classes = port_classes(spec_.switches);
    if (s.classes != nullptr) {
      s.scheduler = spec_.switches.scheduler;
      s.quantum_bytes = spec_.format.mtu_bytes + spec_.format.frame_overhead_bytes;
      s.red = &spec_.switches.red;
      s.mark_at = spec_.switches.mark_at;
      s.pfc = &spec_.switches.pfc;
    }
  } else {
    s.ecn_threshold_bytes = spec_.switches.ecn_threshold_bytes;
  }
  s.sample_interval_ps = spec_.outputs.sample_interval_ps;
  s.traced = std::binary_search(queue_traced_.begin(), queue_traced_.end(), PortRef{node, port},
                                port_before);
  for (const PortRef& p : spec_.outputs.pcap_ports)
    if (p.node == node && p.port == port) s.mirrored = true;
  return s;
}

bool NetworkContext::is_injected_drop_slow(NodeId at, const Packet& p) const {
  if (p.retransmission != 0) return false;
  if (!topology().is_host(topology().nodes[at].ports[p.in_port].peer)) return false;
  return std::any_of(spec_.drops.begin(), spec_.drops.end(), [&](const PacketDrop& d) {
    return d.flow == p.flow && d.kind == p.kind && (p.kind != PacketKind::data || d.seq == p.seq);
  });
}

std::uint64_t NetworkContext::flow_route_key(const Packet& p) const {
  // A stream packet (is_stream_packet) beside a workload carries an MPI op index, not a message.
  const bool stream = spec_.workload.messages.empty() || is_stream_packet(p);
  const std::uint64_t connection = stream ? 0 : std::uint64_t{connection_of_[p.flow]} + 1;
  return connection_route_key(p.src, p.dst, connection);
}

}  // namespace netwarp::netmodels
