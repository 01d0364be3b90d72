// PcapWriter: the libpcap file format (global header, then a record header and captured bytes
// per packet; little-endian, nanosecond variant) and the synthetic Ethernet/IPv4/TCP frame of
// each Packet. Addresses, ports and flag mapping are documented in pcap_writer.hpp.
#include "netwarp/netmodels/pcap_writer.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace netwarp::netmodels {
namespace {

constexpr std::uint32_t kMagicNanoseconds = 0xa1b23c4d;
constexpr std::uint32_t kSnapLength = 65535;
constexpr std::uint32_t kLinkTypeEthernet = 1;
constexpr std::size_t kEthernetBytes = 14;
constexpr std::size_t kIpv4Bytes = 20;
constexpr std::size_t kTcpBytes = 20;
constexpr std::size_t kHeaderBytes = kEthernetBytes + kIpv4Bytes + kTcpBytes;
constexpr std::uint32_t kMaxPayload = 65535 - kIpv4Bytes - kTcpBytes;

// TCP flag bits.
constexpr std::uint8_t kSyn = 0x02;
constexpr std::uint8_t kPsh = 0x08;
constexpr std::uint8_t kAck = 0x10;
constexpr std::uint8_t kEce = 0x40;

using Bytes = std::vector<std::uint8_t>;

void put_le(Bytes& b, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) b.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}
void put_be(Bytes& b, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) b.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

std::uint32_t ipv4_of(NodeId host) {
  return (std::uint32_t{10} << 24) | (host & 0xffffffu);
}

void put_mac(Bytes& b, NodeId host) {
  put_be(b, 0x020000, 3);
  put_be(b, host & 0xffffffu, 3);
}

// One's-complement sum of big-endian 16-bit words (RFC 1071), not yet folded.
std::uint32_t ones_sum(const std::uint8_t* data, std::size_t size, std::uint32_t sum = 0) {
  for (std::size_t i = 0; i + 1 < size; i += 2) sum += (std::uint32_t{data[i]} << 8) | data[i + 1];
  if (size % 2 != 0) sum += std::uint32_t{data[size - 1]} << 8;
  return sum;
}
std::uint16_t fold(std::uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum & 0xffff);
}
void store_be16(Bytes& b, std::size_t at, std::uint16_t value) {
  b[at] = static_cast<std::uint8_t>(value >> 8);
  b[at + 1] = static_cast<std::uint8_t>(value);
}

std::uint8_t ecn_bits(std::uint8_t flags) {
  if (flags & packet_flags::ce) return 3;   // CE
  if (flags & packet_flags::ect) return 2;  // ECT(0)
  return 0;                                 // not ECN-capable
}

void put_ipv4(Bytes& b, const Packet& p) {
  const std::size_t start = b.size();
  put_be(b, 0x45, 1);  // version 4, 5 words
  put_be(b, ecn_bits(p.flags), 1);
  put_be(b, kIpv4Bytes + kTcpBytes + p.payload_bytes, 2);
  put_be(b, 0, 2);       // identification
  put_be(b, 0x4000, 2);  // don't fragment
  put_be(b, 64, 1);      // TTL
  put_be(b, 6, 1);       // TCP
  put_be(b, 0, 2);       // checksum, filled in below
  put_be(b, ipv4_of(p.src), 4);
  put_be(b, ipv4_of(p.dst), 4);
  store_be16(b, start + 10, fold(ones_sum(b.data() + start, kIpv4Bytes)));
}

std::uint8_t tcp_flags(const Packet& p) {
  const auto ece = (p.flags & packet_flags::ece) ? kEce : std::uint8_t{0};
  switch (p.kind) {
    case PacketKind::ack:
    case PacketKind::handshake_ack:
      return kAck | ece;
    case PacketKind::syn:
      return kSyn;
    case PacketKind::syn_ack:
      return kSyn | kAck;
    default:
      return kPsh | ece;
  }
}

// The TCP header; its checksum covers the pseudo-header, the header and an all-zero payload
// (which adds nothing to the sum).
void put_tcp(Bytes& b, const Packet& p) {
  const std::size_t start = b.size();
  const auto flow_port = static_cast<std::uint16_t>(10000 + p.flow % 50000);
  // From the receiver's port: ACKs and SYN-ACKs.
  const bool is_ack = p.kind == PacketKind::ack || p.kind == PacketKind::syn_ack;
  put_be(b, is_ack ? PcapWriter::kReceiverPort : flow_port, 2);
  put_be(b, is_ack ? flow_port : PcapWriter::kReceiverPort, 2);
  put_be(b, is_ack ? 0 : p.seq, 4);  // an ACK's seq field carries SACK edges (packet.hpp)
  put_be(b, is_ack ? p.ack : 0, 4);
  put_be(b, 5 << 4, 1);  // data offset: 5 words
  put_be(b, tcp_flags(p), 1);
  put_be(b, 65535, 2);  // window
  put_be(b, 0, 2);      // checksum, filled in below
  put_be(b, 0, 2);      // urgent pointer
  const std::size_t tcp_length = kTcpBytes + p.payload_bytes;
  std::uint32_t sum = ones_sum(b.data() + start - 8, 8);  // source and destination addresses
  sum += 6 + static_cast<std::uint32_t>(tcp_length);      // protocol, TCP length
  store_be16(b, start + 16, fold(ones_sum(b.data() + start, kTcpBytes, sum)));
}

Bytes frame_of(const Packet& p) {
  Bytes b;
  b.reserve(PcapWriter::kCapturedBytes);
  put_mac(b, p.dst);
  put_mac(b, p.src);
  put_be(b, 0x0800, 2);  // IPv4
  put_ipv4(b, p);
  put_tcp(b, p);
  const std::size_t frame_bytes = kHeaderBytes + p.payload_bytes;
  b.resize(std::min<std::size_t>(frame_bytes, PcapWriter::kCapturedBytes), 0);
  return b;
}

}  // namespace

PcapWriter::PcapWriter(const std::string& path)
    : path_(path), out_(path, std::ios::binary | std::ios::trunc) {
  if (!out_) throw std::runtime_error("cannot open pcap file " + path_ + " for writing");
  Bytes header;
  put_le(header, kMagicNanoseconds, 4);
  put_le(header, 2, 2);  // version 2.4
  put_le(header, 4, 2);
  put_le(header, 0, 4);  // thiszone: UTC
  put_le(header, 0, 4);  // sigfigs
  put_le(header, kSnapLength, 4);
  put_le(header, kLinkTypeEthernet, 4);
  out_.write(reinterpret_cast<const char*>(header.data()),
             static_cast<std::streamsize>(header.size()));
  check_stream("writing the header of");
}

void PcapWriter::write(const PacketTrace& trace) {
  const Packet& p = trace.packet;
  if (p.payload_bytes > kMaxPayload) {
    throw std::runtime_error("pcap file " + path_ + ": a payload of " +
                             std::to_string(p.payload_bytes) + " bytes does not fit in IPv4");
  }
  const Bytes frame = frame_of(p);
  const auto ns = static_cast<std::uint64_t>(std::max<std::int64_t>(trace.time_ps, 0) / 1000);
  Bytes record;
  put_le(record, ns / 1000'000'000, 4);
  put_le(record, ns % 1000'000'000, 4);
  put_le(record, frame.size(), 4);
  put_le(record, kHeaderBytes + p.payload_bytes, 4);
  record.insert(record.end(), frame.begin(), frame.end());
  out_.write(reinterpret_cast<const char*>(record.data()),
             static_cast<std::streamsize>(record.size()));
  check_stream("writing to");
  ++packets_;
}

void PcapWriter::flush() {
  out_.flush();
  check_stream("flushing");
}

void PcapWriter::check_stream(const char* doing) {
  if (!out_) throw std::runtime_error(std::string("error ") + doing + " pcap file " + path_);
}

}  // namespace netwarp::netmodels
