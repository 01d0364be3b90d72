// Device and transport settings of a network run: plain values, filled from a scenario (or by
// tests) and fixed for the run. Sizes in bytes, rates in bits per second, times in SimTime.
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/netmodels/roce.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {

// Packet format. A packet carries at most mtu_bytes of IP packet, of which header_bytes are
// IP + transport headers; frame_overhead_bytes more go on the wire outside the MTU (Ethernet
// header and FCS 18, plus preamble and inter-frame gap 20). Payload per packet:
// mtu_bytes - header_bytes (the TCP MSS).
struct PacketFormat {
  std::uint32_t mtu_bytes = 1500;
  std::uint32_t header_bytes = 40;
  std::uint32_t frame_overhead_bytes = 38;
  std::uint32_t control_bytes = 0;     // payload of a pure ACK / control packet
  std::uint32_t syn_option_bytes = 0;  // TCP options on SYN and SYN-ACK, beyond header_bytes

  std::uint32_t max_payload() const { return mtu_bytes - header_bytes; }
  std::uint32_t wire_bytes(std::uint32_t payload) const {
    return payload + header_bytes + frame_overhead_bytes;
  }
};

enum class FlowControl : std::uint8_t { none, credit };

// How an output port with traffic classes picks the next packet: the highest non-empty
// priority first, or deficit round robin (Shreedhar and Varghese 1995) with a quantum of
// weight x one maximum frame per class and round.
enum class PortScheduler : std::uint8_t { strict_priority, drr };

// One traffic class of every switch output port (SwitchConfig::classes).
// RED used as an ECN marker (scenario.proto, Red): an ECN-capable packet is marked with
// probability max_probability x (q - min) / (max - min) for q in [min, max), always at or above
// max; q is the class's queue, instantaneous (queue_weight 0) or its EWMA average. Off while
// max_bytes is 0.
struct RedConfig {
  std::uint64_t min_bytes = 0;
  std::uint64_t max_bytes = 0;
  double max_probability = 0;
  double queue_weight = 0;
  bool enabled() const { return max_bytes != 0; }
  bool operator==(const RedConfig&) const = default;
};

// When a port decides a packet's ECN mark: on admission or when it leaves its class queue.
enum class MarkAt : std::uint8_t { enqueue, dequeue };

// A switch-wide buffer pool with dynamic thresholds (Choudhury and Hahne 1998). Each queue
// (port and class) has reserved_bytes of its own; beyond that it may hold up to alpha x the
// pool's free shared bytes. Off while bytes is 0 (private per-port buffers).
struct SharedBufferConfig {
  std::uint64_t bytes = 0;
  double alpha = 1;
  std::uint64_t reserved_bytes = 0;
  bool operator==(const SharedBufferConfig&) const = default;
};

// Priority flow control (IEEE 802.1Qbb) on the lossless classes: a switch counts the bytes it
// holds per ingress port and class; above xoff_bytes (0: alpha x the shared pool's free bytes)
// it sends a PAUSE of pause_quanta (512 bit times each) up that link, refreshed at half its
// time while above xon_bytes, and a resume (quanta 0) once at or below xon_bytes. The bytes that
// come in beyond XOFF must fit in headroom_bytes (0: what can still arrive once a packet crosses
// XOFF, 2 x latency x rate plus three max frames and the PAUSE frame): more is an error of the
// configuration.
struct PfcConfig {
  bool enabled = false;
  std::uint64_t xoff_bytes = 0;
  std::uint64_t xon_bytes = 0;
  std::uint64_t headroom_bytes = 0;
  std::uint32_t pause_quanta = 65535;
  bool operator==(const PfcConfig&) const = default;
};

struct PortClassConfig {
  std::uint8_t priority = 0;              // 0 .. 7 (7 highest under strict priority)
  std::uint32_t weight = 1;               // DRR weight, >= 1
  std::uint64_t buffer_bytes = 0;         // this class's limit per port; 0: the port's
  std::uint64_t ecn_threshold_bytes = 0;  // step mark on the class's queue; 0: the switch's
  RedConfig red;                          // off: the switch's RED (if any), else step marking
  bool lossless = false;                  // paused by PFC (SwitchConfig::pfc), never dropped
  bool operator==(const PortClassConfig&) const = default;
};

// Output-queued switch ports. A port's buffer holds the packets admitted and not yet fully
// serialised (the one on the wire included). 0 means unlimited.
struct SwitchConfig {
  std::uint64_t buffer_bytes = 0;
  std::uint32_t buffer_packets = 0;
  std::uint64_t ecn_threshold_bytes = 0;  // mark CE when the queue holds more; 0: off
  // credit: each port has buffer_bytes of credit toward the next hop, returned when the
  // packet leaves that hop; nothing is dropped, senders wait (back-pressure).
  FlowControl flow_control = FlowControl::none;
  // Queue semantics of every output port, switch and NIC alike (scenario.proto, Switch): does
  // the frame on the wire count against the buffer, and is an arrival admitted before a
  // departure of the same picosecond frees its space.
  bool count_frame_in_service = true;
  bool arrival_first = false;
  // Traffic classes on every switch output port (host NICs keep one FIFO): a packet goes to
  // the class of its priority (a priority no class names: the lowest class), the port's
  // scheduler picks what goes on the wire each time the line frees. Empty: one FIFO per port
  // whose departures are fixed on admission (one event per hop). Not with credit flow control.
  std::vector<PortClassConfig> classes;  // at most 8, distinct priorities
  PortScheduler scheduler = PortScheduler::strict_priority;
  // RED marking, dequeue marking and the shared buffer need class queues: a switch with any of
  // them and no classes gives each port one class (every packet in it).
  RedConfig red;  // for classes without their own; off: step marking
  MarkAt mark_at = MarkAt::enqueue;
  // Step marking and buffer_bytes read as ns-3.37's RedQueueDisc in front of a one-packet
  // device queue (scenario.proto Switch.mark_reading MARK_NS3_RED; output_port.cpp). Only
  // without classes (so without red, dequeue marking, shared buffer) and credit.
  bool mark_ns3_red = false;
  SharedBufferConfig shared_buffer;
  PfcConfig pfc;  // on: host NICs get the classes too, to be paused
};

// Host NIC: injection at rate_bps (0: its link's rate) from a send queue of buffer_bytes
// (0: unlimited). A limited queue drops what does not fit, counted as the NIC port's drops:
// TCP recovers them; scenarios reject a limited NIC with the lossless transport.
// jitter: a uniform random gap in [0, jitter] before each packet goes on the wire, drawn from
// the event's counter-based generator (identical in every kernel): breaks the phase lock of
// identical back-to-back senders (drop-tail phase effects).
struct NicConfig {
  std::uint64_t rate_bps = 0;
  std::uint64_t buffer_bytes = 0;
  SimTime jitter;
};

enum class TransportKind : std::uint8_t { lossless, tcp, roce };

// The sender's window rules: NewReno (RFC 5681, 6582), CUBIC (RFC 9438), DCTCP (RFC 8257).
enum class CongestionControl : std::uint8_t { new_reno, cubic, dctcp };

// Choices the RFCs leave open, each with the RFC reading first (the default) and the reading
// of ns-3.37 (src/internet/model/tcp-socket-base.cc), so `emulate: NS3` can select it.
// ssthresh on loss (RFC 5681 eq. 4; recovery, timeouts and ECN): FlightSize, less the data
// sent by limited transmit at the third duplicate ACK in NewReno recovery (RFC 5681 3.2 step
// 2); or bytes in flight: sent, not acknowledged, less one SMSS per duplicate ACK (ns-3.37
// with limited transmit: BytesInFlight() + SMSS at NewReno recovery entry), in RFC 6675 and
// PRR recovery the pipe before the fast retransmit (ns-3.37's BytesInFlight() with SACK).
enum class SsthreshBase : std::uint8_t { flight_size, bytes_in_flight };
// cwnd when fast recovery ends with a full ACK (RFC 6582 3.2 step 6): option 1,
// min(ssthresh, max(FlightSize, SMSS) + SMSS); or option 2, ssthresh (ns-3.37).
enum class RecoveryExitCwnd : std::uint8_t { bounded_by_flight, ssthresh };
// When the backed-off RTO ends: at the next valid RTT sample (RFC 6298 5.7 with Karn's rule,
// section 3); or at every ACK of new data, recomputed from SRTT and RTTVAR (ns-3.37's NewAck,
// as Linux does).
enum class RtoBackoffReset : std::uint8_t { on_rtt_sample, on_new_ack };

// TCP (RFC 5681), loss recovery and congestion control as chosen, RTO per RFC 6298.
// Loss recovery of the TCP sender (tcp_sack_recovery.cpp). The SACK-based ones need sack.
enum class TcpRecovery : std::uint8_t {
  newreno,    // RFC 6582 fast recovery, SACK blocks ignored
  sack_6675,  // RFC 6675: scoreboard, pipe and NextSeg()
  prr,        // RFC 6937 proportional rate reduction on the RFC 6675 scoreboard
  // ns-3.37 without SACK: TcpClassicRecovery over TcpTxBuffer's emulated-SACK scoreboard
  // (tcp_ns3_recovery.cpp; validation/ns3/SEMANTICS.md sections 5 to 8). NewReno only.
  ns3_classic,
};

// How SACK_6675 and PRR recovery read RFC 6675 and RFC 6937: as written, or as ns-3.37's
// TcpSocketBase, TcpTxBuffer and TcpPrrRecovery do with SACK (validation/ns3/SEMANTICS.md
// section 11), so that `emulate: NS3` can select it.
enum class SackReading : std::uint8_t { rfc, ns3 };

// How CUBIC reads its window rules: RFC 9438 as written (cubic.cpp), or as ns-3.37's TcpCubic
// (cubic_ns3.cpp; with TcpRecovery::ns3_classic only), so that `emulate: NS3` can select it.
enum class CubicReading : std::uint8_t { rfc9438, ns3 };

// How DCTCP reads RFC 8257: as written (dctcp.cpp), or as ns-3.37's TcpDctcp inside ns-3's
// sender (dctcp_ns3.cpp; with TcpRecovery::ns3_classic only), so that `emulate: NS3` can
// select it.
enum class DctcpReading : std::uint8_t { rfc8257, ns3 };

// How the receiver delays ACKs: RFC 5681 4.2 (tcp_receiver.cpp), or as ns-3.37's
// TcpSocketBase::ReceivedData and TcpDctcp (the first data segment ACKed at once; DCTCP's ACK
// of the previous CE state by m_delayedAckReserved), so that `emulate: NS3` can select it.
enum class DelayedAckReading : std::uint8_t { rfc, ns3 };

// TCP (RFC 5681), loss recovery and congestion control as chosen, RTO per RFC 6298.
struct TcpConfig {
  std::uint32_t mss_bytes = 0;  // 0: PacketFormat::max_payload()
  std::uint32_t initial_window_segments = 10;
  std::uint64_t receive_window_bytes = 0;  // 0: unlimited
  SimTime min_rto = engine::ms(200);
  SimTime initial_rto = engine::seconds(1);
  SimTime max_rto = engine::seconds(60);
  std::uint32_t dupack_threshold = 3;
  bool delayed_ack = false;
  SimTime delayed_ack_timeout = engine::ms(40);
  bool ecn = false;   // react to ECN echoes (halve cwnd once per window)
  bool sack = false;  // RFC 2018: the receiver sends SACK blocks
  TcpRecovery recovery = TcpRecovery::newreno;
  bool prr_conservative = false;  // RFC 6937 PRR-CRB instead of PRR-SSRB
  // RFC 6937's proportional share rounded up to whole segments, as its section 6 example counts
  // (a segment on ACKs 5, 7, .., 15); false: in bytes, as ns-3's TcpPrrRecovery (6, 8, .., 14).
  // The scenario's transport.tcp.prr_whole_segments.
  bool prr_whole_segments = false;
  SackReading sack_reading = SackReading::rfc;
  // ACKs carry their SACK option on the wire (sack_option_wire_bytes in packet.hpp); false: an
  // ACK's size ignores it.
  bool sack_option_bytes = false;
  std::uint32_t max_ooo_ranges = 0;  // receiver's out-of-order ranges; 0: unlimited
  // Connection set-up, limited transmit and the policy choices above.
  bool handshake = true;  // three-way handshake before data (RFC 793 3.4)
  // RFC 6298 5.7: after a SYN timed out, data starts with an RTO of at least this (3 s).
  SimTime rto_after_syn_timeout = engine::seconds(3);
  bool limited_transmit = true;  // RFC 3042, RFC 5681 3.2 step 1
  SsthreshBase ssthresh_base = SsthreshBase::flight_size;
  RecoveryExitCwnd recovery_exit_cwnd = RecoveryExitCwnd::bounded_by_flight;
  RtoBackoffReset rto_backoff_reset = RtoBackoffReset::on_rtt_sample;
  CongestionControl congestion_control = CongestionControl::new_reno;
  double cubic_c = 0.4;     // RFC 9438 4.2: segments / s^3
  double cubic_beta = 0.7;  // RFC 9438 4.6: multiplicative decrease factor
  CubicReading cubic_reading = CubicReading::rfc9438;
  double dctcp_g = 1.0 / 16;       // RFC 8257 3.3: gain of the alpha estimator
  double dctcp_initial_alpha = 1;  // alpha before the first estimate
  DctcpReading dctcp_reading = DctcpReading::rfc8257;
  DelayedAckReading delayed_ack_reading = DelayedAckReading::rfc;
  // DCTCP needs marked packets, so it sends ECT even without `ecn` (RFC 8257 section 3).
  bool sends_ect() const { return ecn || congestion_control == CongestionControl::dctcp; }
};

struct TransportConfig {
  TransportKind kind = TransportKind::lossless;
  TcpConfig tcp;
  RoceConfig roce;  // kind roce
};

}  // namespace netwarp::netmodels
