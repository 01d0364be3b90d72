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
#pragma once

#include <cstdint>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/rev_fifo.hpp"
#include "netwarp/engine/rev_vector.hpp"
#include "netwarp/netmodels/dcqcn.hpp"
#include "netwarp/netmodels/network_context.hpp"
#include "netwarp/netmodels/output_port.hpp"
#include "netwarp/netmodels/records.hpp"

namespace netwarp::netmodels {

// What RoceTransport asks of its host.
class RoceHost {
 public:
  virtual void send_roce(const Packet& p, engine::EventCtx& ctx) = 0;
  virtual const OutputPort& roce_nic() const = 0;
  // The receiver has every packet of `flow` in order.
  virtual void roce_delivered(MessageId flow, engine::EventCtx& ctx) = 0;
  // The sender has every packet of `flow` acknowledged.
  virtual void roce_completed(MessageId flow, engine::EventCtx& ctx) = 0;

 protected:
  ~RoceHost() = default;
};

// TimerFired::is_receiver codes of RoCE's timers (0 and 1 are TCP's).
namespace roce_timer {
inline constexpr std::uint32_t pacing = 2;
inline constexpr std::uint32_t retransmission = 3;
inline constexpr std::uint32_t rate = 5;  // 4 was alpha's timer, now applied at the next CNP
}  // namespace roce_timer

class RoceTransport {
 public:
  // Sized for the host's messages when `active`, empty otherwise; `line_rate_bps` is the NIC's.
  RoceTransport(NodeId self, const NetworkContext& net, std::uint64_t line_rate_bps, bool active);
  void start(const Message& m, engine::EventCtx& ctx, RoceHost& host);
  void on_packet(const Packet& p, engine::EventCtx& ctx, RoceHost& host);
  void on_timer(const TimerFired& ev, engine::EventCtx& ctx, RoceHost& host);
  // The NIC's line took its next frame or a pause ended (PortReady): senders waiting for it go.
  void on_nic_ready(engine::EventCtx& ctx, RoceHost& host);
  // The sender's counters: packets sent, sent again, NACKs acted on (as fast retransmits),
  // timeouts.
  void add_counters(MessageId flow, FlowRecord& r) const;
  // Out-of-order packets the receiver of `flow` dropped (go-back-N).
  std::uint64_t discarded_packets(MessageId flow) const;
  void visit_state(engine::StateVisitor& v) const;

 private:
  enum Pacing : std::uint32_t { kIdle = 0, kPaced = 1, kWaitingForNic = 2 };
  struct Sender {
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
  static_assert(sizeof(DcqcnRate) == 40 && sizeof(Sender) == 10 * 8 + 6 * 4 + 40);
  struct Receiver {
    std::uint64_t expected_psn;
    std::int64_t last_cnp_ps;  // -1: none yet
    std::uint64_t discarded;   // out-of-order packets dropped
    std::uint32_t unacked;     // packets accepted since the last ACK
    std::uint32_t nack_sent;   // 1: a NACK for expected_psn went out
  };

  std::uint64_t packets_of(const Message& m) const;
  bool is_done(MessageId flow, const Sender& s) const;
  void send_next(MessageId flow, engine::EventCtx& ctx, RoceHost& host);
  bool wait_for_nic(MessageId flow, Sender& s, std::uint32_t wire_bytes, engine::EventCtx& ctx,
                    RoceHost& host);
  void pace(MessageId flow, Sender& s, SimTime gap, engine::EventCtx& ctx);
  // The DCQCN rate changed from `old_rate_bps`: a pending pacing gap is re-timed to the new rate.
  void retime(MessageId flow, Sender& s, double old_rate_bps, engine::EventCtx& ctx);
  SimTime pacing_gap(const Sender& s) const;
  void resume(MessageId flow, Sender& s, engine::EventCtx& ctx);
  void arm_retransmission(MessageId flow, Sender& s, engine::EventCtx& ctx);
  void go_back(MessageId flow, Sender& s, engine::EventCtx& ctx);
  void on_ack(const Packet& p, engine::EventCtx& ctx, RoceHost& host);
  void on_retransmission_timer(MessageId flow, engine::EventCtx& ctx);
  void on_cnp(const Packet& p, engine::EventCtx& ctx);
  void on_rate_timer(const TimerFired& ev, engine::EventCtx& ctx);
  void on_data(const Packet& p, engine::EventCtx& ctx, RoceHost& host);
  void send_control(const Message& m, PacketKind kind, std::uint64_t psn, engine::EventCtx& ctx,
                    RoceHost& host) const;

  const NodeId self_;
  const NetworkContext& net_;
  const RoceConfig& config_;
  const std::uint64_t line_rate_bps_;
  const std::uint32_t payload_;                 // bytes per full packet
  engine::RevVector<Sender> senders_;           // by send slot
  engine::RevVector<Receiver> receivers_;       // by receive slot
  engine::RevFifo<MessageId> waiting_for_nic_;  // senders stopped by a full NIC, in order
};

}  // namespace netwarp::netmodels
