// PcapWriter: writes committed PacketTrace records as a classic libpcap file (nanosecond
// timestamps, magic 0xa1b23c4d, version 2.4, snaplen 65535, Ethernet) that Wireshark and
// tshark read. The simulator has no real headers, so each packet becomes a synthetic
// Ethernet II + IPv4 + TCP frame:
//   - host h has MAC 02:00:00:hh:hh:hh and IPv4 10.a.b.c, where a.b.c are the low 24 bits of h
//     (host 3 is 10.0.0.3 and 02:00:00:00:00:03; host 0 is 10.0.0.0);
//   - a flow's data sender uses TCP port 10000 + flow % 50000, its receiver port 5001; ACKs
//     travel the other way with the ports swapped, so tshark pairs them into one conversation;
//   - data (and control) packets carry seq = packet.seq with PSH; ACK packets carry
//     ack = packet.ack with the ACK flag (seq = packet.seq, which is 0); the ISN is 0;
//   - ECN: ect -> ECT(0), ce -> CE in the IPv4 header; ece sets the TCP ECE flag;
//   - IPv4 total length = 40 + payload_bytes, DF set, TTL 64, header checksum correct; the TCP
//     checksum is correct for an all-zero payload; window 65535;
//   - only the first kCapturedBytes of the frame are stored (headers, then zero payload);
//     orig_len is the full 54 + payload_bytes.
// Timestamps are time_ps truncated to whole nanoseconds. Every field is written byte by byte,
// so the file is the same on every machine.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

#include "netwarp/netmodels/records.hpp"

namespace netwarp::netmodels {

class PcapWriter {
 public:
  static constexpr std::uint32_t kCapturedBytes = 128;  // per packet, at most
  static constexpr std::uint16_t kReceiverPort = 5001;

  // Creates (truncates) `path` and writes the global header; std::runtime_error naming the
  // file if it cannot be opened or written.
  explicit PcapWriter(const std::string& path);

  // Appends one packet. The payload may be at most 65495 bytes (the IPv4 length limit);
  // std::runtime_error naming the file on a write error.
  void write(const PacketTrace& trace);
  void flush();

  std::uint64_t packets_written() const { return packets_; }
  const std::string& path() const { return path_; }

 private:
  void check_stream(const char* doing);

  std::string path_;
  std::ofstream out_;
  std::uint64_t packets_ = 0;
};

}  // namespace netwarp::netmodels
