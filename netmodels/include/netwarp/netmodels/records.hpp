// Committed records of a network run: what reaches results.json, the CSV tables, pcap files
// and queue traces. Emitted by the LPs, written only when their events commit.
#pragma once

#include <cstdint>
#include <type_traits>

#include "netwarp/netmodels/packet.hpp"

namespace netwarp::netmodels {

// A message finished: the receiver has every byte (delivered_ps) and, with after_previous
// ordering, the sender learned of it at acked_ps.
struct MessageRecord {
  MessageId message = 0;
  NodeId src = 0;
  NodeId dst = 0;
  std::uint32_t reserved = 0;
  std::uint64_t bytes = 0;
  std::int64_t start_ps = 0;      // when the sender began
  std::int64_t delivered_ps = 0;  // last byte at the receiver
};

// A sender's transport counters for one flow, at completion (or at the end of the run).
struct FlowRecord {
  MessageId flow = 0;
  std::uint32_t completed = 0;
  std::int64_t completed_ps = -1;  // all acknowledged; -1: not by the end
  std::uint64_t segments_sent = 0;
  std::uint64_t retransmitted_segments = 0;
  std::uint64_t duplicate_acks = 0;
  std::uint64_t fast_retransmits = 0;
  std::uint64_t timeouts = 0;
};

// One output port's totals at the end of the run.
struct PortRecord {
  NodeId node = 0;
  PortIndex port = 0;
  std::uint16_t reserved = 0;
  NodeId peer = 0;
  std::uint64_t packets_sent = 0;
  std::uint64_t bytes_sent = 0;  // wire bytes: utilisation = bytes_sent * 8 / (rate * time)
  std::uint64_t packets_dropped = 0;
  std::uint64_t bytes_dropped = 0;
  std::uint64_t ecn_marked = 0;
  std::uint64_t max_queue_bytes = 0;
  std::uint64_t max_queue_packets = 0;
  std::int64_t busy_until_ps = 0;  // last bit of the last packet sent
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

// A packet seen on a traced node: sent (direction 0) or received (1) at time_ps, for pcap.
struct PacketTrace {
  std::int64_t time_ps = 0;
  NodeId node = 0;
  std::uint32_t direction = 0;
  Packet packet;
};

// A sender's congestion window after a change (TcpConfig::cwnd_trace).
struct CwndSample {
  std::int64_t time_ps = 0;
  MessageId flow = 0;
  std::uint32_t reserved = 0;
  std::uint64_t cwnd = 0;
  std::uint64_t ssthresh = 0;
};

}  // namespace netwarp::netmodels
