// NetworkContext: what every LP of a network run reads and never changes: the spec (topology,
// devices, transport, workload, outputs) and indexes derived from it once.
#pragma once

#include <span>
#include <vector>

#include "netwarp/netmodels/network_spec.hpp"
#include "netwarp/netmodels/output_port.hpp"

namespace netwarp::netmodels {

// Whether ports keep their packets in class queues: SwitchConfig::classes, or the one class that
// RED, dequeue marking, a shared buffer or PFC needs. Their per-class outputs exist then.
bool has_class_queues(const SwitchConfig& config);

class NetworkContext {
 public:
  explicit NetworkContext(const NetworkSpec& spec);

  const NetworkSpec& spec() const { return spec_; }
  const Topology& topology() const { return spec_.topology; }
  const Message& message(MessageId id) const { return spec_.workload.messages[id]; }
  // The messages a host sends, in its send order, and the ones it receives.
  std::span<const MessageId> messages_of(NodeId host) const { return messages_of_.of(host); }
  std::span<const MessageId> messages_to(NodeId host) const { return messages_to_.of(host); }
  // A message's index in its sender's messages_of and in its receiver's messages_to: hosts keep
  // per-flow state in arrays indexed by these.
  std::uint32_t send_slot(MessageId id) const { return send_slot_[id]; }
  std::uint32_t receive_slot(MessageId id) const { return receive_slot_[id]; }
  // TCP connections: a message travels on the connection named by the first message of its
  // (src, dst) pair with Workload::persistent_connections, else on its own. Its bytes end at
  // stream_end in that connection's stream; the next message of the pair follows it.
  MessageId connection_of(MessageId id) const { return connection_of_[id]; }
  MessageId next_on_connection(MessageId id) const { return next_on_connection_[id]; }
  MessageId previous_on_connection(MessageId id) const { return previous_on_connection_[id]; }
  std::uint64_t stream_end(MessageId id) const { return stream_end_[id]; }
  // All bytes the connection named `connection` carries in the run.
  std::uint64_t connection_bytes(MessageId connection) const;
  // TCP payload per segment: transport.tcp.mss_bytes, or all a packet carries when 0.
  std::uint32_t tcp_mss() const { return tcp_mss(spec_.transport.tcp); }
  std::uint32_t tcp_mss(const TcpConfig& tcp) const {
    return tcp.mss_bytes != 0 ? tcp.mss_bytes : spec_.format.max_payload();
  }
  // The TCP settings message `id` is sent with: its workload's own, or the scenario's.
  const TcpConfig& tcp_config_of(MessageId id) const {
    const std::uint16_t k = spec_.workload.messages[id].tcp_config;
    return k == 0 ? spec_.transport.tcp : spec_.workload_tcp[k - 1];
  }
  bool is_pcap_traced(NodeId node) const { return pcap_traced_[node] != 0; }
  // Fault injection (NetworkSpec::drops): is this arrival at a switch to be dropped?
  bool is_injected_drop(NodeId at, const Packet& p) const {
    return !spec_.drops.empty() && is_injected_drop_slow(at, p);
  }
  // Identity of the transport connection and direction a packet belongs to, for per-flow
  // multipath routing: every packet of one connection one way gets the same key. Workload
  // runs: (src, dst, connection_of); MPI's stream transport: one connection per host pair.
  std::uint64_t flow_route_key(const Packet& p) const;
  // Settings of a node's output port, from the device configs.
  PortSettings port_settings(NodeId node, PortIndex port) const;

 private:
  // Message ids grouped by host, each group in list order: one flat array and offsets (4 bytes
  // per host and per message; a vector per host costs 24 bytes and an allocation each, on every
  // rank, for a million hosts).
  struct MessagesByHost {
    std::vector<std::uint32_t> start;  // host h's ids are ids[start[h], start[h + 1])
    std::vector<MessageId> ids;
    std::span<const MessageId> of(NodeId host) const {
      return std::span<const MessageId>(ids).subspan(start[host], start[host + 1] - start[host]);
    }
  };
  // Groups the messages by `host_of` (a message's src or dst); returns each one's slot.
  template <class HostOf>
  static MessagesByHost group_messages(const NetworkSpec& spec, HostOf&& host_of,
                                       std::vector<std::uint32_t>& slot);
  bool is_injected_drop_slow(NodeId at, const Packet& p) const;
  void index_connections();
  const NetworkSpec& spec_;
  MessagesByHost messages_of_;
  MessagesByHost messages_to_;
  std::vector<std::uint32_t> send_slot_;
  std::vector<std::uint32_t> receive_slot_;
  std::vector<MessageId> connection_of_;
  std::vector<MessageId> next_on_connection_;
  std::vector<MessageId> previous_on_connection_;
  std::vector<std::uint64_t> stream_end_;
  std::vector<char> pcap_traced_;
  std::vector<PortRef> queue_traced_;  // sorted by (node, port)
};

}  // namespace netwarp::netmodels
