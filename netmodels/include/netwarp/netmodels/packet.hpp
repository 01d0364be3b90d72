// Packets as they travel between LPs, and the events that carry them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "netwarp/netmodels/network_config.hpp"
#include "netwarp/netmodels/tcp_sack.hpp"
#include "netwarp/netmodels/topology.hpp"
#include "netwarp/netmodels/workload.hpp"

namespace netwarp::netmodels {

// syn, syn_ack and handshake_ack (the third segment, no data) set up a TCP connection. RoCE
// (transport.kind ROCE): data carries its PSN in `seq`; ack and nack (a NAK: go back to PSN `ack`)
// carry the PSN expected next in `ack`; cnp is DCQCN's congestion notification packet.
enum class PacketKind : std::uint8_t { data, ack, control, syn, syn_ack, handshake_ack, nack, cnp };

namespace packet_flags {
inline constexpr std::uint8_t ect = 1;          // ECN-capable transport
inline constexpr std::uint8_t ce = 2;           // congestion experienced (set by a switch)
inline constexpr std::uint8_t ece = 4;          // ECN echo (on ACKs)
inline constexpr std::uint8_t last = 8;         // lossless: last packet of its message
inline constexpr std::uint8_t nonminimal = 16;  // adaptive routing sent it via an intermediate
// Bits 5-7: the packet's traffic class (priority 0 .. 7, Message::priority), which selects its
// class queue on switch ports. Kept in `flags` because the packet has no spare byte (64 bytes);
// priority 0 leaves the bits clear, so packets without classes are the bytes they always were.
inline constexpr int priority_shift = 5;
inline constexpr std::uint8_t priority_mask = 0xe0;
}  // namespace packet_flags

// One packet. `flow` is the message it belongs to; data packets go src -> dst, ACKs back.
struct Packet {
  MessageId flow = 0;
  std::uint32_t seq = 0;  // data: first payload byte; ack: unused
  std::uint32_t ack = 0;  // ack: cumulative acknowledgement
  std::uint32_t payload_bytes = 0;
  std::uint32_t wire_bytes = 0;  // on the wire: payload + headers + frame overhead
  NodeId src = 0;                // sending host of this packet
  NodeId dst = 0;                // receiving host of this packet
  PortIndex in_port = 0;         // the receiving node's port it arrives on
  PacketKind kind = PacketKind::data;
  std::uint8_t flags = 0;
  std::uint8_t retransmission = 0;  // 1: a retransmitted segment
  std::uint8_t vc = 0;              // virtual channel it occupies at the receiving node
  // Stream transport (MPI): what the application sent, carried in every packet of a transfer
  // (flow holds the application's word); the network never reads them.
  std::uint8_t app_kind = 0;
  std::uint8_t sack_count = 0;  // ack: SACK blocks carried (RFC 2018), <= kMaxSackBlocks
  // ack: the SACK blocks' edges. Block 0 is [seq, sack_edges[0]), blocks 1 and 2 are
  // [sack_edges[2i - 1], sack_edges[2i]): an ACK carries no data, so seq is free for it. A
  // fourth block travels in app_aux, which no ACK uses (set_sack_blocks).
  std::uint32_t sack_edges[5] = {};
  std::int64_t app_aux = 0;
};
static_assert(std::is_trivially_copyable_v<Packet> &&
              std::has_unique_object_representations_v<Packet> && sizeof(Packet) == 64);

inline constexpr std::uint8_t kMaxPriority = 7;
inline std::uint8_t priority_of(const Packet& p) {
  return static_cast<std::uint8_t>((p.flags & packet_flags::priority_mask) >>
                                   packet_flags::priority_shift);
}
inline void set_priority(Packet& p, std::uint8_t priority) {
  p.flags = static_cast<std::uint8_t>(
      (p.flags & ~packet_flags::priority_mask) |
      ((priority << packet_flags::priority_shift) & packet_flags::priority_mask));
}

// A key that differs between the packets of one flow (from fields no switch changes), for
// routers that spread packets, such as Valiant's choice of an intermediate group.
inline std::uint64_t packet_route_key(const Packet& p, std::uint64_t flow_key) {
  return route_key_mix(flow_key ^ route_key_mix(std::uint64_t{p.seq} << 32 | p.ack) ^
                       (std::uint64_t{static_cast<std::uint8_t>(p.kind)} << 56 | p.payload_bytes));
}

// A packet that carries no application data (ACK, delivery notice, handshake segment): its
// payload is the format's control bytes.
inline Packet control_packet(const PacketFormat& f, NodeId src, NodeId dst, PacketKind kind) {
  Packet p;
  p.payload_bytes = f.control_bytes;
  p.wire_bytes = f.wire_bytes(f.control_bytes);
  if (kind == PacketKind::syn || kind == PacketKind::syn_ack) p.wire_bytes += f.syn_option_bytes;
  p.src = src;
  p.dst = dst;
  p.kind = kind;
  return p;
}

// The SACK blocks of an ACK, in and out of the packet's fields. The edges travel as 32-bit
// sequence numbers that wrap; sack_blocks_of gives them back as such (tcp_unwrap in tcp.hpp
// turns them into stream offsets).
inline constexpr std::uint32_t kSackBlocksInEdges = 3;
inline void set_sack_blocks(Packet& p, const TcpSackBlocks& blocks) {
  p.sack_count = static_cast<std::uint8_t>(blocks.count);
  for (std::uint32_t i = 0; i < std::min(blocks.count, kSackBlocksInEdges); ++i) {
    const TcpRange b = blocks.block[i];
    if (i == 0) {
      p.seq = static_cast<std::uint32_t>(b.begin);
    } else {
      p.sack_edges[2 * i - 1] = static_cast<std::uint32_t>(b.begin);
    }
    p.sack_edges[2 * i] = static_cast<std::uint32_t>(b.end);
  }
  if (blocks.count > kSackBlocksInEdges) {
    const TcpRange b = blocks.block[kSackBlocksInEdges];
    p.app_aux = static_cast<std::int64_t>(std::uint64_t{static_cast<std::uint32_t>(b.end)} << 32 |
                                          static_cast<std::uint32_t>(b.begin));
  }
}
// An ACK's SACK option on the wire (RFC 2018 section 3): kind and length, 8 bytes per block,
// padded to 4-byte words (12, 20, 28, 36 bytes); 0 without blocks.
inline std::uint32_t sack_option_wire_bytes(std::uint32_t blocks) {
  return blocks == 0 ? 0 : (2 + 8 * blocks + 3) / 4 * 4;
}
inline TcpSackBlocks sack_blocks_of(const Packet& p) {
  TcpSackBlocks blocks;
  blocks.count = std::min<std::uint32_t>(p.sack_count, kMaxSackBlocks);
  for (std::uint32_t i = 0; i < std::min(blocks.count, kSackBlocksInEdges); ++i)
    blocks.block[i] = TcpRange{i == 0 ? p.seq : p.sack_edges[2 * i - 1], p.sack_edges[2 * i]};
  if (blocks.count > kSackBlocksInEdges) {
    const auto aux = static_cast<std::uint64_t>(p.app_aux);
    blocks.block[kSackBlocksInEdges] = TcpRange{aux & 0xffffffffU, aux >> 32};
  }
  return blocks;
}

// A stream transport's data packet carries its transfer's size (64 bits): the low half in `ack`,
// the high half in sack_edges[0], which a data packet does not use (only ACKs carry SACK
// blocks). Transfers under 4 GiB leave sack_edges[0] zero, as before it carried anything.
inline void set_transfer_bytes(Packet& p, std::uint64_t bytes) {
  p.ack = static_cast<std::uint32_t>(bytes);
  p.sack_edges[0] = static_cast<std::uint32_t>(bytes >> 32);
}
inline std::uint64_t transfer_bytes_of(const Packet& p) {
  return std::uint64_t{p.sack_edges[0]} << 32 | p.ack;
}

// Event payloads.
struct PacketArrived {  // the last bit of `packet` reached the node (store and forward)
  Packet packet;
};
// Virtual channels per link (Port::vc_step); a 3D torus needs 4, a dragonfly 2.
inline constexpr int kVirtualChannels = 4;

struct CreditReturned {  // the next hop freed `bytes` of virtual channel `vc` for `port`
  std::uint64_t bytes = 0;
  PortIndex port = 0;
  std::uint8_t vc = 0;
  std::uint8_t reserved[5] = {};
};
struct MessageDue {  // a host's message may start (or, opens_connection: its TCP handshake)
  // opens_connection: a message it waits for was delivered (Message::waits).
  static constexpr std::uint32_t kPrerequisiteDone = 2;
  MessageId message = 0;
  std::uint32_t opens_connection = 0;
};
struct TimerFired {  // a transport timer (RTO or delayed ACK) of `flow`
  MessageId flow = 0;
  std::uint32_t generation = 0;
  std::uint32_t is_receiver = 0;  // 0: sender's RTO, 1: receiver's delayed ACK
};

}  // namespace netwarp::netmodels
