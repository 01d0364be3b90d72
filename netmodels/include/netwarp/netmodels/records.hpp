// Committed records of a network run: what reaches results.json, the CSV tables, pcap files
// and queue traces. Emitted by the LPs, written only when their events commit.
#pragma once

#include <cstdint>
#include <type_traits>

#include "netwarp/netmodels/packet.hpp"

namespace netwarp::netmodels {

// A message fully arrived: the receiver has its last byte.
struct DeliveryRecord {
  MessageId message = 0;
  NodeId dst = 0;
  std::int64_t delivered_ps = 0;
};

// A sender's view of one message: when it started, when the sender learned it was delivered
// (all acknowledged; -1: not by the end of the run), and its transport counters.
struct FlowRecord {
  MessageId flow = 0;
  NodeId src = 0;
  std::int64_t start_ps = -1;  // -1: never started
  std::int64_t completed_ps = -1;
  std::uint64_t bytes = 0;
  std::uint64_t segments_sent = 0;
  std::uint64_t retransmitted_segments = 0;
  std::uint64_t duplicate_acks = 0;
  std::uint64_t fast_retransmits = 0;
  std::uint64_t timeouts = 0;
  std::uint64_t syns_sent = 0;  // the first SYN included
  std::uint64_t syn_retransmissions = 0;
  std::uint64_t limited_transmits = 0;  // segments sent by limited transmit (RFC 3042)
  // The receiver's out-of-order segments discarded by TcpConfig::max_ooo_ranges (joined in
  // from its ReceiverRecord by NetworkResults::sort).
  std::uint64_t ooo_discarded_segments = 0;
};

// A TCP receiver's counters of one connection at the end of the run, emitted only when not
// zero. `flow` and `src` name the connection as the sender's FlowRecord does.
struct ReceiverRecord {
  MessageId flow = 0;
  NodeId src = 0;
  NodeId dst = 0;
  std::uint32_t reserved = 0;
  std::uint64_t ooo_discarded_segments = 0;
};

// One output port's totals at the end of the run.
struct PortRecord {
  NodeId node = 0;
  PortIndex port = 0;
  std::uint16_t reserved = 0;
  NodeId peer = 0;
  std::uint32_t reserved2 = 0;
  std::uint64_t packets_sent = 0;
  std::uint64_t bytes_sent = 0;  // wire bytes: utilisation = bytes_sent * 8 / (rate * time)
  std::uint64_t packets_dropped = 0;
  std::uint64_t bytes_dropped = 0;
  std::uint64_t ecn_marked = 0;
  std::uint64_t max_queue_bytes = 0;
  std::uint64_t max_queue_packets = 0;
  std::int64_t busy_until_ps = 0;   // last bit of the last packet sent
  std::int64_t first_sent_ps = -1;  // first bit of the first packet sent; -1: none
};

// One traffic class of an output port with classes (SwitchConfig::classes) at the end of the
// run: emitted for classes that sent, dropped, paused or were paused.
struct PortClassRecord {
  NodeId node = 0;
  PortIndex port = 0;
  std::uint8_t priority = 0;
  std::uint8_t reserved = 0;
  std::uint64_t packets_sent = 0;
  std::uint64_t bytes_sent = 0;  // wire bytes
  std::uint64_t packets_dropped = 0;
  std::uint64_t bytes_dropped = 0;
  std::uint64_t ecn_marked = 0;
  std::uint64_t max_queue_bytes = 0;  // the class's queue (waiting, not on the wire)
  // PFC (SwitchConfig::pfc). Sending side of the port: PAUSE frames received on its link, the
  // time its class was paused, and at the end of the run whether it still is (with bytes
  // queued). Receiving side (the bytes that came in on its link): PAUSE frames sent up the
  // link (resumes included), the most bytes held, and the packets dropped beyond the headroom.
  std::uint64_t pause_frames_received = 0;
  std::int64_t paused_ps = 0;
  std::uint64_t queued_at_end_bytes = 0;  // only while paused at the end
  std::uint64_t pause_frames_sent = 0;
  std::uint64_t max_ingress_bytes = 0;
  std::uint64_t ingress_overflows = 0;   // lossless packets dropped: the headroom was full
  std::uint64_t max_headroom_bytes = 0;  // the most held beyond XOFF, or wanted by an overflow
  std::uint64_t headroom_bytes = 0;      // the headroom's size
};

// A packet an output port dropped (only with OutputSpec::drops_by_class): the message it
// belongs to (data or acknowledgement), or with `stream` 1 an MPI job's packet (its flow holds
// the job's word, not a message).
struct DropRecord {
  std::int64_t time_ps = 0;
  MessageId flow = 0;
  NodeId node = 0;
  std::uint16_t port = 0;
  std::uint8_t stream = 0;
  std::uint8_t reserved = 0;
  std::uint32_t wire_bytes = 0;
};

// A switch's shared buffer (SwitchConfig::shared_buffer) at the end of the run: its size, the
// part not reserved, and the most bytes its queues held at once.
struct SwitchBufferRecord {
  NodeId node = 0;
  std::uint32_t reserved = 0;
  std::uint64_t pool_bytes = 0;
  std::uint64_t shared_bytes = 0;
  std::uint64_t max_used_bytes = 0;
};

// A switch's shared buffer (SwitchConfig::shared_buffer) after a change of its occupancy: the
// bytes all its queues hold. Emitted only for switches with a port in OutputSpec::queue_ports
// (queues.csv's pool_bytes).
struct PoolSample {
  std::int64_t time_ps = 0;
  NodeId node = 0;
  std::uint32_t reserved = 0;
  std::uint64_t used_bytes = 0;
};

// A switch's shared buffer over a sampling interval (OutputSpec::sample_interval) in which it
// held bytes; `intervals` > 1 when it stands for that many consecutive intervals alike.
struct PoolIntervalSample {
  std::int64_t interval_start_ps = 0;
  NodeId node = 0;
  std::uint32_t reserved = 0;
  std::uint64_t max_used_bytes = 0;
  std::uint64_t mean_used_bytes = 0;  // time-weighted, rounded down
  std::uint64_t intervals = 1;
};

// One traffic class of an output port (SwitchConfig::classes) over a sampling interval in which
// it changed: its queue (waiting, not on the wire), what it sent, dropped and marked, and the
// PFC frames of its priority. Between two samples nothing changed: the queue held what the
// earlier one ended with.
struct ClassSample {
  std::int64_t interval_start_ps = 0;
  NodeId node = 0;
  PortIndex port = 0;
  std::uint8_t priority = 0;
  std::uint8_t reserved = 0;
  std::uint64_t max_queue_bytes = 0;
  std::uint64_t end_queue_bytes = 0;  // at the interval's end (its last change)
  std::uint64_t packets_sent = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t packets_dropped = 0;
  std::uint64_t bytes_dropped = 0;
  std::uint64_t ecn_marked = 0;
  std::uint64_t pause_frames_received = 0;  // PAUSE and resume frames that came in on the link
  std::uint64_t pause_frames_sent = 0;      // sent up the link for the bytes it brought in
};

// Queue occupancy after a change (admission, departure, drop) of a traced port.
struct QueueSample {
  std::int64_t time_ps = 0;
  NodeId node = 0;
  PortIndex port = 0;
  std::uint8_t event = 0;  // 0 admitted, 1 departed, 2 dropped
  std::uint8_t reserved = 0;
  std::uint64_t bytes = 0;
  std::uint64_t packets = 0;
};

// A packet for pcap: sent by a traced host (direction 0), received by a traced node (1), or
// put on the wire by a traced output port (2, port mirror), at time_ps.
struct PacketTrace {
  std::int64_t time_ps = 0;
  NodeId node = 0;
  std::uint32_t direction = 0;
  Packet packet;
  std::uint32_t port = 0;  // direction 2: the output port
  std::uint32_t reserved = 0;
};
namespace trace_direction {
inline constexpr std::uint32_t sent = 0;
inline constexpr std::uint32_t received = 1;
inline constexpr std::uint32_t port_departure = 2;
}  // namespace trace_direction

// A sender's congestion window after a change (OutputSpec::cwnd_trace).
struct CwndSample {
  std::int64_t time_ps = 0;
  MessageId flow = 0;
  std::uint32_t reserved = 0;
  std::uint64_t cwnd = 0;
  std::uint64_t ssthresh = 0;
};

// One sampling interval of an output port (OutputSpec::sample_interval): emitted for every
// interval in which the port held data, was busy or dropped; `intervals` > 1 when it stands for
// that many consecutive intervals alike (no change of the port in any of them).
struct PortSample {
  std::int64_t interval_start_ps = 0;
  NodeId node = 0;
  PortIndex port = 0;
  std::uint16_t reserved = 0;
  std::uint64_t max_queue_bytes = 0;   // highest occupancy in the interval
  std::uint64_t mean_queue_bytes = 0;  // time-weighted mean occupancy, rounded down
  std::int64_t busy_ps = 0;            // time the line was serialising in the interval
  std::uint64_t packets_dropped = 0;   // drop-tail drops in the interval
  std::uint64_t bytes_dropped = 0;
  std::uint64_t intervals = 1;  // consecutive intervals with these values, from interval_start_ps
};

// A TCP connection's sender at the end of a sampling interval in which it changed; `flow`
// names the connection (its first message).
struct FlowSample {
  std::int64_t interval_start_ps = 0;
  MessageId flow = 0;
  std::uint32_t reserved = 0;
  std::uint64_t cwnd = 0;         // bytes
  std::uint64_t ssthresh = 0;     // bytes
  std::uint64_t acked_bytes = 0;  // stream bytes cumulatively acknowledged (snd_una)
  std::uint64_t timeouts = 0;     // retransmission timeouts so far
};

template <class R>
inline constexpr bool kIsRecord =
    std::is_trivially_copyable_v<R>&& std::has_unique_object_representations_v<R>;
static_assert(kIsRecord<DeliveryRecord> && kIsRecord<FlowRecord> && kIsRecord<PortRecord> &&
              kIsRecord<QueueSample> && kIsRecord<PacketTrace> && kIsRecord<CwndSample> &&
              kIsRecord<PortSample> && kIsRecord<FlowSample> && kIsRecord<PortClassRecord> &&
              kIsRecord<DropRecord> && kIsRecord<PoolSample> && kIsRecord<PoolIntervalSample> &&
              kIsRecord<ClassSample>);

}  // namespace netwarp::netmodels
