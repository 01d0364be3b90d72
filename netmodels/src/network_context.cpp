// NetworkContext: indexes over the spec, and how device configs become port settings.
#include "netwarp/netmodels/network_context.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace netwarp::netmodels {

NetworkContext::NetworkContext(const NetworkSpec& spec)
    : spec_(spec),
      messages_of_(spec.topology.host_count),
      messages_to_(spec.topology.host_count),
      send_slot_(spec.workload.messages.size()),
      receive_slot_(spec.workload.messages.size()),
      connection_of_(spec.workload.messages.size()),
      next_on_connection_(spec.workload.messages.size(), kNoMessage),
      previous_on_connection_(spec.workload.messages.size(), kNoMessage),
      stream_end_(spec.workload.messages.size()),
      pcap_traced_(spec.topology.nodes.size(), 0),
      queue_traced_(spec.topology.nodes.size()) {
  for (const Message& m : spec.workload.messages) {
    send_slot_[m.id] = static_cast<std::uint32_t>(messages_of_[m.src].size());
    messages_of_[m.src].push_back(m.id);
    receive_slot_[m.id] = static_cast<std::uint32_t>(messages_to_[m.dst].size());
    messages_to_[m.dst].push_back(m.id);
  }
  index_connections();
  for (NodeId n : spec.outputs.pcap_nodes) pcap_traced_[n] = 1;
  for (const PortRef& p : spec.outputs.queue_ports) queue_traced_[p.node].push_back(p.port);
  for (auto& ports : queue_traced_) std::sort(ports.begin(), ports.end());
}

// Messages in list order; with persistent connections the last message seen of each pair links
// to the next.
void NetworkContext::index_connections() {
  const bool shared = spec_.workload.persistent_connections;
  std::map<std::pair<NodeId, NodeId>, MessageId> last_of_pair;
  for (const Message& m : spec_.workload.messages) {
    connection_of_[m.id] = m.id;
    stream_end_[m.id] = m.bytes;
    if (!shared) continue;
    const auto [it, is_first] = last_of_pair.try_emplace({m.src, m.dst}, m.id);
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
  const bool credit = spec_.switches.flow_control == FlowControl::credit;
  // Hosts drain at line rate: no credit toward them. Toward a switch: its input buffer.
  if (credit && !t.is_host(s.link.peer)) s.credit_bytes = spec_.switches.buffer_bytes;
  if (t.is_host(node)) {
    if (spec_.nic.rate_bps != 0) s.link.rate_bps = spec_.nic.rate_bps;
    s.buffer_bytes = spec_.nic.buffer_bytes;
    s.jitter = spec_.nic.jitter;
  } else if (!credit) {
    s.buffer_bytes = spec_.switches.buffer_bytes;
    s.buffer_packets = spec_.switches.buffer_packets;
    s.ecn_threshold_bytes = spec_.switches.ecn_threshold_bytes;
  } else {
    s.ecn_threshold_bytes = spec_.switches.ecn_threshold_bytes;
  }
  s.sample_interval_ps = spec_.outputs.sample_interval_ps;
  s.traced = std::binary_search(queue_traced_[node].begin(), queue_traced_[node].end(), port);
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

}  // namespace netwarp::netmodels
