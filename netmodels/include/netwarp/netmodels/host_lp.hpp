// HostLp: a host's NIC, its transport (lossless, TCP, or RoCE through RoceTransport) and its share
// of the workload. It starts its messages (each at its start time, or once the previous one is
// delivered), segments them into packets, and on the receiving side reassembles, acknowledges and
// records deliveries. One flow per message; flow ids are message ids. With the TCP handshake each
// connection opens at time 0 and a message's data joins it at the message's start. With
// persistent connections the messages of one (src, dst) pair share the connection named by
// the first of them (NetworkContext::connection_of): per-flow TCP state lives at its slot. Per-flow
// state lives in arrays sized at construction, indexed by the message's send or receive slot
// (NetworkContext).
#pragma once

#include <vector>

#include "netwarp/engine/lp.hpp"
#include "netwarp/netmodels/lossless_sender.hpp"
#include "netwarp/netmodels/network_context.hpp"
#include "netwarp/netmodels/output_port.hpp"
#include "netwarp/netmodels/roce_transport.hpp"
#include "netwarp/netmodels/tcp.hpp"
#include "netwarp/netmodels/tcp_rev_ranges.hpp"

namespace netwarp::netmodels {

class HostLp final : private RoceHost {
 public:
  using Handles = engine::EventSet<PacketArrived, CreditReturned, MessageDue, TimerFired,
                                   LosslessRefillDue, PortReady, PauseFrame>;
  HostLp(NodeId self, const NetworkContext& net);

  void init(engine::InitCtx& ctx);
  void on(const PacketArrived& ev, engine::EventCtx& ctx);
  void on(const CreditReturned& ev, engine::EventCtx& ctx);
  void on(const MessageDue& ev, engine::EventCtx& ctx);
  void on(const TimerFired& ev, engine::EventCtx& ctx);
  void on(const LosslessRefillDue& ev, engine::EventCtx& ctx);
  // PFC (SwitchConfig::pfc): the NIC's classes are paused by the switch and resume.
  void on(const PortReady& ev, engine::EventCtx& ctx);
  void on(const PauseFrame& ev, engine::EventCtx& ctx);
  void finish(engine::FinishCtx& ctx);
  void visit_state(engine::StateVisitor& v) const;
  // The host's NIC, which an MPI job's transport on the same host shares (mpiemul::SharedHostLp).
  OutputPort& nic() { return nic_; }

 private:
  struct SenderFlow {
    std::int64_t start_ps;      // -1: not started
    std::int64_t completed_ps;  // -1: not completed
    std::uint32_t handed_over;  // TCP: its bytes joined the connection
    std::uint32_t reserved;
  };

  // Sending side.
  void start_message(MessageId id, engine::EventCtx& ctx);
  // Flows that wait for flows: a prerequisite of `id` was delivered (it starts after the last).
  void prerequisite_done(MessageId id, engine::EventCtx& ctx);
  // This host (the receiver) has every byte of `id`: tell the messages waiting for it.
  void notify_dependents(MessageId id, engine::EventCtx& ctx);
  void hand_over(MessageId id, engine::EventCtx& ctx);
  void open_connection(MessageId id, engine::EventCtx& ctx);
  void complete_acknowledged(MessageId connection, std::uint64_t snd_una, engine::EventCtx& ctx);
  void on_tcp_syn_ack(const Packet& p, engine::EventCtx& ctx);
  void send_handshake(const Message& m, PacketKind kind, bool retransmission,
                      engine::EventCtx& ctx);
  void start_lossless(const Message& m, engine::EventCtx& ctx);
  void fill_lossless(engine::EventCtx& ctx);
  void on_tcp_ack(const Packet& p, engine::EventCtx& ctx);
  void apply_sender_actions(MessageId flow, const TcpSenderState& s, engine::EventCtx& ctx);
  void complete_flow(MessageId flow, engine::EventCtx& ctx);
  void send_data(const Message& m, std::uint32_t seq, std::uint32_t length, bool retransmission,
                 std::uint8_t flags, engine::EventCtx& ctx);
  // Receiving side.
  void on_lossless_data(const Packet& p, engine::EventCtx& ctx);
  void on_tcp_handshake_ack(const Packet& p, engine::EventCtx& ctx);
  void on_tcp_data(const Packet& p, engine::EventCtx& ctx);
  void apply_receiver_actions(MessageId flow, const TcpReceiverState& r, engine::EventCtx& ctx);
  void send_control(const Message& m, PacketKind kind, std::uint32_t ack, std::uint8_t flags,
                    engine::EventCtx& ctx, const TcpSackBlocks& sack = {});
  void send_packet(const Packet& p, engine::EventCtx& ctx);
  // RoCE (RoceTransport) reaches the NIC and the results through these.
  void send_roce(const Packet& p, engine::EventCtx& ctx) override { send_packet(p, ctx); }
  const OutputPort& roce_nic() const override { return nic_; }
  void roce_delivered(MessageId flow, engine::EventCtx& ctx) override;
  void roce_completed(MessageId flow, engine::EventCtx& ctx) override { complete_flow(flow, ctx); }
  FlowRecord flow_record(MessageId flow) const;
  // Time series: the sender's state at the end of each sampling interval it changed in.
  void sample_flow(MessageId flow, engine::EventCtx& ctx);
  FlowSample flow_sample(MessageId flow, std::int64_t interval) const;
  void finish_flow_samples(engine::FinishCtx& ctx) const;
  // TCP settings of a message (its workload's own, or the scenario's; NetworkContext).
  const TcpConfig& tcp_of(MessageId flow) const { return net_.tcp_config_of(flow); }
  bool uses_handshake(MessageId flow) const { return is_tcp_ && tcp_of(flow).handshake; }

  const NodeId self_;
  const NetworkContext& net_;
  const bool is_tcp_;
  const bool is_roce_;
  const bool traced_;
  OutputPort nic_;
  LosslessSender lossless_;                // lossless only: messages not yet all in the NIC
  RoceTransport roce_;                     // RoCE only
  engine::RevVector<SenderFlow> senders_;  // by send slot
  engine::RevVector<std::uint32_t> prerequisites_done_;  // by send slot, when flows wait
  engine::RevVector<TcpSenderState> tcp_senders_;        // by send slot (TCP only)
  engine::RevVector<TcpReceiverState> tcp_receivers_;    // by receive slot (TCP only)
  engine::RevVector<std::uint64_t> received_bytes_;      // by receive slot (lossless only)
  // By send slot (TCP, sampled runs): the sampling interval of the sender's last change; -1: none.
  engine::RevVector<std::int64_t> flow_intervals_;
  TcpRangeTable tcp_ooo_ranges_;   // receivers' out-of-order data, by (receive slot, begin)
  TcpRangeTable tcp_scoreboards_;  // senders' SACKed ranges, by (send slot, begin)
  // Scratch for one handler call; cleared before each use, never state.
  TcpSenderActions sender_actions_;
  TcpReceiverActions receiver_actions_;
};

}  // namespace netwarp::netmodels
