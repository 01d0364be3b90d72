// StreamTransport: a host's NIC and persistent connections, one per peer, that carry
// application transfers (MPI envelopes, data, control) in order. Lossless transport cuts a
// transfer into packets as the NIC has room (LosslessSender); TCP appends it to the peer's NewReno
// connection (opened by a handshake at the first transfer to that peer, data waiting for it), and
// never puts bytes of two transfers in one packet. Every packet of a transfer carries the
// application's tag; the receiver hands a transfer up once all of its bytes and all earlier
// bytes of the connection are in, so transfers from one peer arrive in send order even after
// loss and retransmission (MPI's non-overtaking rule needs nothing more). RoCE (transport.kind
// ROCE) runs one reliable connection per peer host (RoceTransport's streams: PSNs, ACK/NACK,
// go-back-N, DCQCN), a transfer cut into its own MTU packets.
//
// Part of an LP (like OutputPort): its state is reversible and visited by the owner.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <vector>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/lp.hpp"
#include "netwarp/engine/rev_map.hpp"
#include "netwarp/netmodels/lossless_sender.hpp"
#include "netwarp/netmodels/network_context.hpp"
#include "netwarp/netmodels/output_port.hpp"
#include "netwarp/netmodels/roce_transport.hpp"
#include "netwarp/netmodels/tcp.hpp"
#include "netwarp/netmodels/tcp_rev_ranges.hpp"

namespace netwarp::netmodels {

// What the application attaches to a transfer; the transport never interprets it.
struct TransferTag {
  std::uint64_t bytes = 0;  // payload bytes on the wire, 1 .. kMaxMessageBytes (packets carry it)
  std::int64_t aux = 0;
  std::uint32_t word = 0;
  std::uint8_t kind = 0;
  std::uint8_t reserved[3] = {};
};
static_assert(std::has_unique_object_representations_v<TransferTag>);

struct ReceivedTransfer {
  NodeId from = 0;
  TransferTag tag;
};

// A host that runs MPI ranks and packet workloads at once (mpiemul::SharedHostLp) has one NIC:
// the workload's HostLp owns it and the transport sends through it (`shared_nic`). In a run with
// a workload beside the job (the spec's workload has messages), every transport marks its
// packets, timers and connection records so that hosts, routers and the results can tell them
// from the workload's: control packets carry kStreamControlKind in app_kind (data packets carry
// the application's kind, never 0; the workload's packets carry 0), timers kStreamTimerBit in
// is_receiver, connection records kConnectionFlowBit in `flow` (message ids stay below it).
inline constexpr std::uint8_t kStreamControlKind = 0xff;
inline constexpr std::uint32_t kStreamTimerBit = 2;
inline constexpr MessageId kConnectionFlowBit = MessageId{1} << 31;
inline bool is_stream_packet(const Packet& p) {
  return p.app_kind != 0;
}
inline bool is_stream_timer(const TimerFired& ev) {
  return (ev.is_receiver & kStreamTimerBit) != 0;
}

class StreamTransport final : private RoceHost {
 public:
  StreamTransport(NodeId self, const NetworkContext& net, OutputPort* shared_nic = nullptr);
  StreamTransport(const StreamTransport&) = delete;
  StreamTransport& operator=(const StreamTransport&) = delete;

  void send(NodeId to, const TransferTag& tag, engine::EventCtx& ctx);
  // A packet addressed to this host: data (complete transfers are appended to `out`, in
  // order) or a TCP acknowledgement.
  void on_packet(const Packet& p, engine::EventCtx& ctx, std::vector<ReceivedTransfer>& out);
  void on_credit(const CreditReturned& ev, engine::EventCtx& ctx);
  // A shared NIC got credit back (its owner counted it): lossless transfers may go on.
  void on_shared_nic_credit(engine::EventCtx& ctx);
  void on_timer(const TimerFired& ev, engine::EventCtx& ctx);
  void on_lossless_refill(const LosslessRefillDue& ev, engine::EventCtx& ctx);
  // Port totals (of its own NIC) and, for TCP, one FlowRecord per connection (flow = the peer's
  // node id, with kConnectionFlowBit on a shared NIC).
  void finish(engine::FinishCtx& ctx) const;
  void visit_state(engine::StateVisitor& v) const;

 private:
  struct EndKey {  // a transfer by its connection and the stream offset just past its end
    NodeId peer;
    std::uint32_t reserved;
    TcpSeq end;
    auto operator<=>(const EndKey&) const = default;
    void visit_bytes(engine::StateVisitor& v) const {  // as {peer, 32-bit end} was
      TcpLegacyBytes b;
      b.put(peer);
      b.put_seq(end);
      b.finish(v);
    }
  };

  void send_lossless(NodeId to, const TransferTag& tag, engine::EventCtx& ctx);
  void send_roce(NodeId to, const TransferTag& tag, engine::EventCtx& ctx);
  // RoceTransport (streams) reaches the NIC and the transfers through these.
  void send_roce(const Packet& p, engine::EventCtx& ctx) override { send_packet(p, ctx); }
  const OutputPort& roce_nic() const override { return nic_; }
  void roce_stream_packet(NodeId peer, std::uint64_t psn, Packet& p) const override;
  void roce_stream_received(const Packet& p, engine::EventCtx& ctx) override;
  void roce_stream_acknowledged(NodeId peer, std::uint64_t una, engine::EventCtx& ctx) override;
  void fill_lossless(engine::EventCtx& ctx);
  void on_lossless_data(const Packet& p, engine::EventCtx& ctx, std::vector<ReceivedTransfer>& out);
  static TransferTag tag_of_packet(const Packet& p);
  void on_tcp_data(const Packet& p, engine::EventCtx& ctx, std::vector<ReceivedTransfer>& out);
  void on_tcp_ack(const Packet& p, engine::EventCtx& ctx);
  void open_connection(NodeId to, engine::EventCtx& ctx);
  void on_tcp_syn_ack(const Packet& p, engine::EventCtx& ctx);
  void send_handshake(NodeId peer, PacketKind kind, bool retransmission, engine::EventCtx& ctx);
  void apply_sender_actions(NodeId peer, const TcpSenderState& s, engine::EventCtx& ctx);
  void apply_receiver_actions(NodeId peer, const TcpReceiverState& r, engine::EventCtx& ctx);
  void send_receiver_ack(NodeId peer, TcpSeq ack, bool ece, const TcpSackBlocks& sack,
                         engine::EventCtx& ctx);
  void send_segment(NodeId peer, const TcpSegment& seg, engine::EventCtx& ctx);
  void forget_acknowledged(NodeId peer, TcpSeq snd_una, engine::EventCtx& ctx);

  void send_data(NodeId to, const TransferTag& tag, std::uint32_t seq, std::uint32_t length,
                 bool last, bool retransmission, engine::EventCtx& ctx);
  Packet data_packet(NodeId to, const TransferTag& tag, std::uint32_t seq, std::uint32_t length,
                     bool last, bool retransmission) const;
  void send_packet(Packet p, engine::EventCtx& ctx);

  const NodeId self_;
  const NetworkContext& net_;
  const TcpConfig& tcp_config_;  // the spec's: a copy per host cost 112 bytes
  const std::uint32_t mss_;
  const bool is_tcp_;
  const bool is_roce_;
  const bool traced_;
  const bool shared_;  // sends through another part's NIC (see kStreamControlKind)
  const bool marked_;  // a workload runs beside: marks as kStreamControlKind says
  std::optional<OutputPort> own_nic_;
  OutputPort& nic_;
  LosslessSender lossless_;                                     // transfers not yet all in the NIC
  engine::RevHashMap<NodeId, std::uint64_t> next_send_offset_;  // lossless and RoCE, by peer
  engine::RevHashMap<NodeId, std::uint64_t> next_receive_offset_;  // lossless, by peer
  engine::RevMap<NodeId, TcpSenderState> tcp_senders_;
  engine::RevMap<NodeId, TcpReceiverState> tcp_receivers_;
  engine::RevMap<EndKey, TransferTag> unacknowledged_;  // sent, not all acknowledged
  engine::RevMap<EndKey, TransferTag> arrived_ends_;    // last bytes in, earlier bytes missing
  TcpRangeTable tcp_ooo_ranges_;   // receivers' out-of-order data, by (peer, begin)
  TcpRangeTable tcp_scoreboards_;  // senders' SACKed ranges, by (peer, begin)
  // RoCE: one stream per peer; unacknowledged_ keys its transfers by the PSN past their end.
  RoceTransport roce_;
  // Scratch for one handler call; never state.
  TcpSenderActions sender_actions_;
  TcpReceiverActions receiver_actions_;
  std::vector<ReceivedTransfer>* arrivals_ = nullptr;  // on_packet's `out`, during the call
};

}  // namespace netwarp::netmodels
