// RoceTransport: a host's RoCEv2 reliable connections, sender and receiver sides, as an RDMA
// NIC runs them. The sender cuts a message into MTU packets numbered by PSN and paces them at
// its DCQCN rate (one pacing event per packet; a rate change re-times the pending one, as the
// NIC's rate limiter does); the receiver accepts packets in PSN order,
// acknowledges every ack_interval_packets and the last one, answers a gap with one NACK (and
// drops out-of-order packets: go-back-N), and as DCQCN's notification point returns at most
// one CNP per cnp_interval per flow for ECN-marked packets. A NACK or the retransmission timeout
// sends the sender back to the first unacknowledged PSN.
//
// The NIC is never overfilled: a packet goes to it only while less than one frame waits there,
// so flows of one host share the line, and a class paused by PFC stops its senders (they wait
// for the NIC's PortReady, which comes when the pause ends) instead of filling or dropping in
// the NIC. HostLp calls it for RoCE runs only; it reaches the wire and the results through
// RoceHost.
//
// Two modes. Messages (HostLp's workloads): one connection per message, its packets known from
// the start, keyed by message id. Streams (StreamTransport, MPI over RoCE): one connection (a
// reliable-connection QP) per peer host, keyed by the peer's node id, whose packets grow as
// the application appends transfers; the host says what each PSN carries and is handed every
// in-order packet. A stream's DCQCN rate lives on while it is idle, as a QP's does.
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/rev_fifo.hpp"
#include "netwarp/engine/rev_map.hpp"
#include "netwarp/engine/rev_vector.hpp"
#include "netwarp/netmodels/dcqcn.hpp"
#include "netwarp/netmodels/network_context.hpp"
#include "netwarp/netmodels/output_port.hpp"
#include "netwarp/netmodels/records.hpp"

namespace netwarp::netmodels {

// What RoceTransport asks of its host. The messages mode calls roce_delivered and
// roce_completed, the streams mode the roce_stream_* ones; the others fail a check.
class RoceHost {
 public:
  virtual void send_roce(const Packet& p, engine::EventCtx& ctx) = 0;
  virtual const OutputPort& roce_nic() const = 0;
  // The receiver has every packet of `flow` in order.
  virtual void roce_delivered(MessageId flow, engine::EventCtx& ctx);
  // The sender has every packet of `flow` acknowledged.
  virtual void roce_completed(MessageId flow, engine::EventCtx& ctx);
  // The data packet `psn` of the stream to `peer`: payload_bytes, flags (packet_flags::last at
  // a transfer's end) and the application's fields; RoceTransport sets the rest.
  virtual void roce_stream_packet(NodeId peer, std::uint64_t psn, Packet& p) const;
  // A data packet of the stream from p.src, in PSN order (each one once).
  virtual void roce_stream_received(const Packet& p, engine::EventCtx& ctx);
  // Every packet of the stream to `peer` before `una` is acknowledged.
  virtual void roce_stream_acknowledged(NodeId peer, std::uint64_t una, engine::EventCtx& ctx);

 protected:
  ~RoceHost() = default;
};

// TimerFired::is_receiver codes of RoCE's timers (0 and 1 are TCP's).
namespace roce_timer {
inline constexpr std::uint32_t pacing = 2;
inline constexpr std::uint32_t retransmission = 3;
inline constexpr std::uint32_t rate = 5;  // 4 was alpha's timer, now applied at the next CNP
}  // namespace roce_timer

enum class RoceMode : std::uint8_t { off, messages, streams };

class RoceTransport {
 public:
  // Sized for the host's messages in the messages mode, empty otherwise; `line_rate_bps` is
  // the NIC's.
  RoceTransport(NodeId self, const NetworkContext& net, std::uint64_t line_rate_bps, RoceMode mode);
  void start(const Message& m, engine::EventCtx& ctx, RoceHost& host);
  // Streams: `packets` more packets for the stream to `peer` (the host tells their content).
  void append(NodeId peer, std::uint64_t packets, engine::EventCtx& ctx, RoceHost& host);
  // Streams: the packets ever appended to the stream to `peer`.
  std::uint64_t appended(NodeId peer) const;
  // Streams: the peers this host has sent to, in order.
  std::vector<NodeId> stream_peers() const;
  // Streams: the peers this host has received from, in order.
  std::vector<NodeId> stream_sources() const;
  void on_packet(const Packet& p, engine::EventCtx& ctx, RoceHost& host);
  void on_timer(const TimerFired& ev, engine::EventCtx& ctx, RoceHost& host);
  // The NIC's line took its next frame or a pause ended (PortReady): senders waiting for it go.
  void on_nic_ready(engine::EventCtx& ctx, RoceHost& host);
  // The sender's counters: packets sent, sent again, NACKs acted on (as fast retransmits),
  // timeouts. `conn`: the message, or the peer of a stream.
  void add_counters(std::uint32_t conn, FlowRecord& r) const;
  // Out-of-order packets the receiver of `conn` dropped (go-back-N); 0 for a stream never
  // received from.
  std::uint64_t discarded_packets(std::uint32_t conn) const;
  void visit_state(engine::StateVisitor& v) const;

 private:
  enum Pacing : std::uint32_t { kIdle = 0, kPaced = 1, kWaitingForNic = 2 };
  struct Sender {
    std::uint64_t end_psn;   // one past the last packet to send (a stream's grows)
    std::uint64_t next_psn;  // the next packet to send
    std::uint64_t una;       // the first packet not acknowledged
    std::uint64_t high_psn;  // one past the highest packet ever sent
    std::uint64_t sent;      // packets sent, retransmissions included
    std::uint64_t retransmitted;
    std::uint64_t nacks;
    std::uint64_t timeouts;
    std::int64_t rto_at_ps;       // when the retransmission timer expires; -1: not armed
    std::int64_t paced_from_ps;   // when the packet the pending pacing gap follows was sent
    std::int64_t alpha_from_ps;   // the last CNP: alpha's decay periods count from it; -1: none
    std::uint32_t pacing;         // Pacing
    std::uint32_t rto_event_due;  // 1: a retransmission TimerFired is scheduled
    std::uint32_t rate_generation;
    std::uint32_t paced_wire_bytes;   // that packet's size
    std::uint32_t pacing_generation;  // of the one pacing TimerFired that counts
    std::uint32_t zero = 0;           // fills the struct: no padding bytes in its hash
    DcqcnRate dcqcn;
    // Hashed as its bytes: no padding (the static_assert below), doubles included.
    void visit_bytes(engine::StateVisitor& v) const { v.bytes(this, sizeof *this); }
  };
  static_assert(sizeof(DcqcnRate) == 40 && sizeof(Sender) == 11 * 8 + 6 * 4 + 40);
  struct Receiver {
    std::uint64_t expected_psn;
    std::int64_t last_cnp_ps;  // -1: none yet
    std::uint64_t discarded;   // out-of-order packets dropped
    std::uint32_t unacked;     // packets accepted since the last ACK
    std::uint32_t nack_sent;   // 1: a NACK for expected_psn went out
  };

  using ConnId = std::uint32_t;  // a message's id, or a stream's peer

  std::uint64_t packets_of(const Message& m) const;
  bool is_streams() const { return mode_ == RoceMode::streams; }
  // The connection a packet belongs to: its flow, or for a stream the peer that sent it.
  ConnId conn_of(const Packet& p) const { return is_streams() ? p.src : p.flow; }
  Sender sender(ConnId conn) const;
  void put_sender(ConnId conn, const Sender& s, engine::EventCtx& ctx);
  Receiver receiver(ConnId conn) const;
  void put_receiver(ConnId conn, const Receiver& r, engine::EventCtx& ctx);
  static Sender new_sender(std::uint64_t line_rate_bps);
  static bool is_done(const Sender& s) { return s.una >= s.end_psn; }
  // DCQCN's timers and CNPs stop with a message; a stream's rate lives on while it is idle.
  bool is_finished(const Sender& s) const { return !is_streams() && is_done(s); }
  void send_next(ConnId conn, engine::EventCtx& ctx, RoceHost& host);
  Packet data_packet(ConnId conn, std::uint64_t psn, RoceHost& host) const;
  bool wait_for_nic(ConnId conn, Sender& s, std::uint32_t wire_bytes, engine::EventCtx& ctx,
                    RoceHost& host);
  void pace(ConnId conn, Sender& s, SimTime gap, engine::EventCtx& ctx);
  // The DCQCN rate changed from `old_rate_bps`: a pending pacing gap is re-timed to the new rate.
  void retime(ConnId conn, Sender& s, double old_rate_bps, engine::EventCtx& ctx);
  SimTime pacing_gap(const Sender& s) const;
  void resume(ConnId conn, Sender& s, engine::EventCtx& ctx);
  void arm_retransmission(ConnId conn, Sender& s, engine::EventCtx& ctx);
  void go_back(ConnId conn, Sender& s, engine::EventCtx& ctx);
  void on_ack(const Packet& p, engine::EventCtx& ctx, RoceHost& host);
  void on_retransmission_timer(ConnId conn, engine::EventCtx& ctx);
  void on_cnp(const Packet& p, engine::EventCtx& ctx);
  void on_rate_timer(const TimerFired& ev, engine::EventCtx& ctx);
  void on_data(const Packet& p, engine::EventCtx& ctx, RoceHost& host);
  // ACK, NACK or CNP from this host (the receiver) back to the sender of `data`.
  void send_control(const Packet& data, PacketKind kind, std::uint64_t psn, engine::EventCtx& ctx,
                    RoceHost& host) const;

  const NodeId self_;
  const NetworkContext& net_;
  const RoceConfig& config_;
  const std::uint64_t line_rate_bps_;
  const std::uint32_t payload_;  // bytes per full packet
  const RoceMode mode_;
  engine::RevVector<Sender> senders_;                  // messages, by send slot
  engine::RevVector<Receiver> receivers_;              // messages, by receive slot
  engine::RevMap<NodeId, Sender> stream_senders_;      // streams, by peer
  engine::RevMap<NodeId, Receiver> stream_receivers_;  // streams, by peer
  engine::RevFifo<MessageId> waiting_for_nic_;         // senders stopped by a full NIC, in order
};

}  // namespace netwarp::netmodels
