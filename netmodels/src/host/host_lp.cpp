// HostLp: workload start-up, segmentation, both transports and delivery records.
#include "netwarp/netmodels/host_lp.hpp"

#include <algorithm>

#include "netwarp/netmodels/ideal_fct.hpp"

namespace netwarp::netmodels {

using engine::EventCtx;

HostLp::HostLp(NodeId self, const NetworkContext& net)
    : self_(self),
      net_(net),
      is_tcp_(net.spec().transport.kind == TransportKind::tcp),
      is_roce_(net.spec().transport.kind == TransportKind::roce),
      traced_(net.is_pcap_traced(self)),
      nic_(net.port_settings(self, 0)),
      lossless_(net.spec().format.max_payload(), net.spec().format),
      roce_(self, net, nic_.link().rate_bps, is_roce_ ? RoceMode::messages : RoceMode::off),
      senders_(net.messages_of(self).size(), SenderFlow{-1, -1, 0, 0}),
      prerequisites_done_(net.spec().workload.dependents.empty() ? 0 : net.messages_of(self).size(),
                          0),
      tcp_senders_(is_tcp_ ? net.messages_of(self).size() : 0, TcpSenderState{}),
      tcp_receivers_(is_tcp_ ? net.messages_to(self).size() : 0, TcpReceiverState{}),
      received_bytes_(is_tcp_ || is_roce_ ? 0 : net.messages_to(self).size(), 0),
      flow_intervals_(
          is_tcp_ && net.spec().outputs.sample_interval_ps > 0 ? net.messages_of(self).size() : 0,
          -1) {}

// With the handshake every message's connection opens at 0, also the after_previous ones.
void HostLp::init(engine::InitCtx& ctx) {
  for (MessageId id : net_.messages_of(self_)) {
    const Message& m = net_.message(id);
    if (uses_handshake(id) && net_.connection_of(id) == id)
      ctx.send_self(SimTime::zero(), MessageDue{id, 1});
    if (!m.after_previous && m.waits == 0) ctx.send_self(m.start, MessageDue{id});
  }
  // A chain that begins with an after_previous message has nothing to wait for.
  const auto& mine = net_.messages_of(self_);
  if (!mine.empty() && net_.message(mine.front()).after_previous)
    ctx.send_self(net_.message(mine.front()).start, MessageDue{mine.front()});
}

void HostLp::on(const MessageDue& ev, EventCtx& ctx) {
  if (ev.opens_connection == MessageDue::kPrerequisiteDone) {
    prerequisite_done(ev.message, ctx);
  } else if (ev.opens_connection != 0) {
    open_connection(ev.message, ctx);
  } else {
    start_message(ev.message, ctx);
  }
}

void HostLp::prerequisite_done(MessageId id, EventCtx& ctx) {
  const Message& m = net_.message(id);
  const std::uint32_t slot = net_.send_slot(id);
  const std::uint32_t done = prerequisites_done_[slot] + 1;
  ctx.set(prerequisites_done_, slot, done);
  if (done != m.waits) return;
  const SimTime due = std::max(m.start, ctx.now() + m.gap);
  if (due <= ctx.now()) {
    start_message(id, ctx);
  } else {
    ctx.send_self(due - ctx.now(), MessageDue{id});
  }
}

// A waiting message on this host learns at once; one on another host after the propagation
// delay between the two (as a notice on the network would, without its serialisation), which
// keeps every event between hosts at least one link latency ahead.
void HostLp::notify_dependents(MessageId id, EventCtx& ctx) {
  for (MessageId d : net_.spec().workload.dependents_of(id)) {
    const NodeId src = net_.message(d).src;
    if (src == self_) {
      prerequisite_done(d, ctx);
    } else {
      const SimTime delay = std::max(path_latency(net_.spec(), self_, src), engine::ps(1));
      ctx.send(src, delay, MessageDue{d, MessageDue::kPrerequisiteDone});
    }
  }
}

void HostLp::on(const CreditReturned& ev, EventCtx& ctx) {
  nic_.on_credit(ev.bytes, ev.vc, ctx);
  if (!is_tcp_ && !is_roce_) fill_lossless(ctx);
}

void HostLp::on(const LosslessRefillDue& ev, EventCtx& ctx) {
  if (lossless_.on_refill_due(ev, ctx)) fill_lossless(ctx);
}

void HostLp::on(const PortReady&, EventCtx& ctx) {
  nic_.on_ready(ctx);
  if (is_roce_) roce_.on_nic_ready(ctx, *this);
}

void HostLp::on(const PauseFrame& ev, EventCtx& ctx) {
  nic_.on_pause(ev.priority, pause_end(nic_.link(), ev.quanta, ctx.now()), ctx);
}

void HostLp::on(const PacketArrived& ev, EventCtx& ctx) {
  const Packet& p = ev.packet;
  if (traced_) ctx.emit(PacketTrace{ctx.now().ps(), self_, trace_direction::received, p, 0});
  if (is_roce_) return roce_.on_packet(p, ctx, *this);
  switch (p.kind) {
    case PacketKind::data:
      if (is_tcp_) {
        on_tcp_data(p, ctx);
      } else {
        on_lossless_data(p, ctx);
      }
      break;
    case PacketKind::ack:
      on_tcp_ack(p, ctx);
      break;
    case PacketKind::control:
      complete_flow(p.flow, ctx);
      break;
    case PacketKind::syn:  // the receiver keeps no state for a SYN: it answers every one
      send_handshake(net_.message(p.flow), PacketKind::syn_ack, p.retransmission != 0, ctx);
      break;
    case PacketKind::syn_ack:
      on_tcp_syn_ack(p, ctx);
      break;
    case PacketKind::handshake_ack:  // data is accepted without it; its CE mark may count
      if (is_tcp_) on_tcp_handshake_ack(p, ctx);
      break;
    case PacketKind::nack:  // RoCE's, handled above
    case PacketKind::cnp:
      break;
  }
}

void HostLp::on(const TimerFired& ev, EventCtx& ctx) {
  if (is_roce_) return roce_.on_timer(ev, ctx, *this);
  if (ev.is_receiver != 0) {
    TcpReceiverState r = tcp_receivers_[net_.receive_slot(ev.flow)];
    receiver_actions_.clear();
    tcp_on_delayed_ack_timer(r, tcp_of(ev.flow), ev.generation, ctx.now(), receiver_actions_);
    apply_receiver_actions(ev.flow, r, ctx);
    return;
  }
  TcpSenderState s = tcp_senders_[net_.send_slot(ev.flow)];
  sender_actions_.clear();
  TcpRevRanges scoreboard(tcp_scoreboards_, net_.send_slot(ev.flow), &ctx);
  tcp_on_timer(s, tcp_of(ev.flow), ev.generation, &scoreboard, ctx.now(), sender_actions_);
  apply_sender_actions(ev.flow, s, ctx);
}

// --- sending side -------------------------------------------------------------------------

// Data given to TCP before the handshake completes waits in the connection.
void HostLp::start_message(MessageId id, EventCtx& ctx) {
  const Message& m = net_.message(id);
  ctx.set(senders_, net_.send_slot(id), SenderFlow{ctx.now().ps(), -1, 0, 0});
  if (is_roce_) return roce_.start(m, ctx, *this);
  if (!is_tcp_) {
    start_lossless(m, ctx);
    return;
  }
  const MessageId previous = net_.previous_on_connection(id);
  if (previous != kNoMessage && senders_[net_.send_slot(previous)].handed_over == 0) return;
  for (MessageId next = id; next != kNoMessage; next = net_.next_on_connection(next)) {
    const SenderFlow f = senders_[net_.send_slot(next)];
    if (f.start_ps < 0) break;  // not due yet: it joins when it is
    hand_over(next, ctx);
  }
}

// The message's bytes join its connection (RFC 793: the application's SEND).
void HostLp::hand_over(MessageId id, EventCtx& ctx) {
  const std::uint32_t slot = net_.send_slot(id);
  const SenderFlow f = senders_[slot];
  ctx.set(senders_, slot, SenderFlow{f.start_ps, f.completed_ps, 1, 0});
  const MessageId connection = net_.connection_of(id);
  const std::uint64_t bytes = net_.message(id).bytes;
  sender_actions_.clear();
  const TcpConfig& tcp = tcp_of(connection);
  if (!uses_handshake(connection) && connection == id) {
    const TcpSenderState s = tcp_open(tcp, bytes, net_.tcp_mss(tcp), ctx.now(), sender_actions_);
    apply_sender_actions(connection, s, ctx);
    return;
  }
  open_connection(connection, ctx);  // data due at the instant of the opening may come first
  TcpSenderState s = tcp_senders_[net_.send_slot(connection)];
  tcp_append(s, tcp, bytes, ctx.now(), sender_actions_);
  apply_sender_actions(connection, s, ctx);
}

void HostLp::open_connection(MessageId id, EventCtx& ctx) {
  if (tcp_senders_[net_.send_slot(id)].connection != TcpConnection::closed) return;
  sender_actions_.clear();
  const TcpConfig& tcp = tcp_of(id);
  const std::uint32_t mss = net_.tcp_mss(tcp);
  const TcpSenderState s = uses_handshake(id) ? tcp_connect(tcp, mss, ctx.now(), sender_actions_)
                                              : tcp_open(tcp, 0, mss, ctx.now(), sender_actions_);
  sender_actions_.completed = false;  // an empty connection completes no message
  apply_sender_actions(id, s, ctx);
}

void HostLp::on_tcp_syn_ack(const Packet& p, EventCtx& ctx) {
  TcpSenderState s = tcp_senders_[net_.send_slot(p.flow)];
  sender_actions_.clear();
  tcp_on_syn_ack(s, tcp_of(p.flow), ctx.now(), sender_actions_);
  apply_sender_actions(p.flow, s, ctx);
}

void HostLp::start_lossless(const Message& m, EventCtx& ctx) {
  PendingSend send;
  send.bytes = m.bytes;
  send.id = m.id;
  lossless_.enqueue(send, ctx);
  fill_lossless(ctx);
}

// The wire's 32-bit seq wraps in a message past 4 GiB; the receiver counts bytes.
void HostLp::fill_lossless(EventCtx& ctx) {
  lossless_.fill(nic_, ctx, [&](const PacketCut& cut) {
    send_data(net_.message(cut.send.id), static_cast<std::uint32_t>(cut.offset), cut.length, false,
              cut.last ? packet_flags::last : 0, ctx);
  });
}

void HostLp::on_tcp_ack(const Packet& p, EventCtx& ctx) {
  TcpSenderState s = tcp_senders_[net_.send_slot(p.flow)];
  if (s.mss == 0) return;  // not opened: nothing to acknowledge
  sender_actions_.clear();
  TcpRevRanges scoreboard(tcp_scoreboards_, net_.send_slot(p.flow), &ctx);
  tcp_on_ack(s, tcp_of(p.flow), tcp_unwrap(p.ack, s.snd_una), (p.flags & packet_flags::ece) != 0,
             tcp_unwrap(sack_blocks_of(p), s.snd_una), &scoreboard, ctx.now(), sender_actions_);
  apply_sender_actions(p.flow, s, ctx);
}

// `flow` names the connection (its first message).
void HostLp::apply_sender_actions(MessageId flow, const TcpSenderState& s, EventCtx& ctx) {
  sample_flow(flow, ctx);
  ctx.set(tcp_senders_, net_.send_slot(flow), s);
  const Message& m = net_.message(flow);
  const std::uint8_t flags = tcp_of(flow).sends_ect() ? packet_flags::ect : 0;
  if (sender_actions_.send_syn)
    send_handshake(m, PacketKind::syn, sender_actions_.syn_is_retransmission, ctx);
  if (sender_actions_.send_handshake_ack) send_handshake(m, PacketKind::handshake_ack, false, ctx);
  for (const TcpSegment& seg : sender_actions_.segments)  // the wire's 32 bits wrap
    send_data(m, static_cast<std::uint32_t>(seg.seq), seg.length, seg.is_retransmission, flags,
              ctx);
  const TcpTimerRequest& timer = sender_actions_.timer;
  if (timer.wanted)
    ctx.send_self(std::max(timer.at - ctx.now(), engine::ps(1)),
                  TimerFired{flow, timer.generation, 0});
  if (sender_actions_.cwnd_changed && net_.spec().outputs.cwnd_trace)
    ctx.emit(CwndSample{ctx.now().ps(), flow, 0, s.cwnd, s.ssthresh});
  // Last: complete_flow may start the next message, which reuses sender_actions_.
  complete_acknowledged(flow, s.snd_una, ctx);
}

// Messages on the connection whose every byte is acknowledged are complete.
void HostLp::complete_acknowledged(MessageId connection, std::uint64_t snd_una, EventCtx& ctx) {
  for (MessageId id = connection; id != kNoMessage && net_.stream_end(id) <= snd_una;
       id = net_.next_on_connection(id)) {
    const SenderFlow f = senders_[net_.send_slot(id)];
    if (f.handed_over != 0 && f.completed_ps < 0) complete_flow(id, ctx);
  }
}

// The sender learned that every byte arrived: record it and start the next message if it
// waits for this one.
void HostLp::complete_flow(MessageId flow, EventCtx& ctx) {
  const std::uint32_t slot = net_.send_slot(flow);
  const SenderFlow f = senders_[slot];
  if (f.start_ps < 0 || f.completed_ps >= 0) return;
  ctx.set(senders_, slot, SenderFlow{f.start_ps, ctx.now().ps(), f.handed_over, 0});
  ctx.emit(flow_record(flow));
  const auto& mine = net_.messages_of(self_);
  if (slot + 1 == mine.size()) return;
  const Message& next = net_.message(mine[slot + 1]);
  if (!next.after_previous) return;
  if (next.start <= ctx.now()) {
    start_message(next.id, ctx);  // at once: the instant the sender learns of the delivery
  } else {
    ctx.send_self(next.start - ctx.now(), MessageDue{next.id});
  }
}

void HostLp::send_data(const Message& m, std::uint32_t seq, std::uint32_t length,
                       bool retransmission, std::uint8_t flags, EventCtx& ctx) {
  Packet p;
  p.flow = m.id;
  p.seq = seq;
  p.payload_bytes = length;
  p.wire_bytes = net_.spec().format.wire_bytes(length);
  p.src = self_;
  p.dst = m.dst;
  p.kind = PacketKind::data;
  p.flags = flags;
  set_priority(p, m.priority);
  p.retransmission = retransmission ? 1 : 0;
  send_packet(p, ctx);
}

void HostLp::send_packet(const Packet& p, EventCtx& ctx) {
  if (traced_) ctx.emit(PacketTrace{ctx.now().ps(), self_, trace_direction::sent, p, 0});
  nic_.offer(p, ctx);
}

// --- receiving side -----------------------------------------------------------------------

void HostLp::on_lossless_data(const Packet& p, EventCtx& ctx) {
  const std::uint32_t slot = net_.receive_slot(p.flow);
  const std::uint64_t received = received_bytes_[slot] + p.payload_bytes;
  ctx.set(received_bytes_, slot, received);
  const Message& m = net_.message(p.flow);
  if (received != m.bytes) return;
  ctx.emit(DeliveryRecord{m.id, self_, ctx.now().ps()});
  notify_dependents(m.id, ctx);
  send_control(m, PacketKind::control, 0, 0, ctx);
}

// `p.flow` names the connection; a message is delivered once its last byte is in order.
void HostLp::on_tcp_handshake_ack(const Packet& p, EventCtx& ctx) {
  const std::size_t slot = net_.receive_slot(p.flow);
  const TcpReceiverState& stored = tcp_receivers_[slot];
  TcpReceiverState r = stored.total_bytes != 0 ? stored : tcp_accept(net_.connection_bytes(p.flow));
  if (tcp_on_handshake_ack(r, tcp_of(p.flow), (p.flags & packet_flags::ce) != 0))
    ctx.set(tcp_receivers_, slot, r);
}

void HostLp::on_tcp_data(const Packet& p, EventCtx& ctx) {
  const TcpReceiverState& stored = tcp_receivers_[net_.receive_slot(p.flow)];
  TcpReceiverState r = stored.total_bytes != 0 ? stored : tcp_accept(net_.connection_bytes(p.flow));
  const TcpSeq before = r.rcv_nxt;
  receiver_actions_.clear();
  TcpRevRanges ooo(tcp_ooo_ranges_, net_.receive_slot(p.flow), &ctx);
  tcp_on_segment(r, tcp_of(p.flow), ooo, tcp_unwrap(p.seq, r.rcv_nxt), p.payload_bytes,
                 (p.flags & packet_flags::ce) != 0, ctx.now(), receiver_actions_);
  for (MessageId id = p.flow; id != kNoMessage && net_.stream_end(id) <= r.rcv_nxt;
       id = net_.next_on_connection(id))
    if (net_.stream_end(id) > before) {
      ctx.emit(DeliveryRecord{id, self_, ctx.now().ps()});
      notify_dependents(id, ctx);
    }
  apply_receiver_actions(p.flow, r, ctx);
}

void HostLp::apply_receiver_actions(MessageId flow, const TcpReceiverState& r, EventCtx& ctx) {
  ctx.set(tcp_receivers_, net_.receive_slot(flow), r);
  const TcpReceiverActions& a = receiver_actions_;
  if (a.send_prior_ack)
    send_control(net_.message(flow), PacketKind::ack, static_cast<std::uint32_t>(a.prior_ack),
                 a.prior_ece ? packet_flags::ece : 0, ctx, a.prior_sack);
  if (a.send_ack)
    send_control(net_.message(flow), PacketKind::ack, static_cast<std::uint32_t>(a.ack),
                 a.ece ? packet_flags::ece : 0, ctx, a.sack);
  if (a.timer.wanted)
    ctx.send_self(std::max(a.timer.at - ctx.now(), engine::ps(1)),
                  TimerFired{flow, a.timer.generation, 1});
}

// An ACK or a delivery notice from this host (the receiver) back to the message's sender.
void HostLp::send_control(const Message& m, PacketKind kind, std::uint32_t ack, std::uint8_t flags,
                          EventCtx& ctx, const TcpSackBlocks& sack) {
  Packet p = control_packet(net_.spec().format, self_, m.src, kind);
  p.flow = m.id;
  p.ack = ack;
  p.flags = flags;
  if (is_tcp_ && tcp_control_is_ect(tcp_of(m.id))) p.flags |= packet_flags::ect;
  set_priority(p, m.priority);
  set_sack_blocks(p, sack);
  if (is_tcp_ && tcp_of(m.id).sack_option_bytes) p.wire_bytes += sack_option_wire_bytes(sack.count);
  send_packet(p, ctx);
}

// A segment of the handshake: SYN and its ACK from the sender, SYN-ACK back from the receiver.
void HostLp::send_handshake(const Message& m, PacketKind kind, bool retransmission, EventCtx& ctx) {
  Packet p =
      control_packet(net_.spec().format, self_, kind == PacketKind::syn_ack ? m.src : m.dst, kind);
  p.flow = m.id;
  if (tcp_control_is_ect(tcp_of(m.id))) p.flags |= packet_flags::ect;
  set_priority(p, m.priority);
  p.retransmission = retransmission ? 1 : 0;
  send_packet(p, ctx);
}

// RoCE's receiver has the message's every packet in order.
void HostLp::roce_delivered(MessageId flow, EventCtx& ctx) {
  ctx.emit(DeliveryRecord{flow, self_, ctx.now().ps()});
  notify_dependents(flow, ctx);
}

// --- results ------------------------------------------------------------------------------

FlowRecord HostLp::flow_record(MessageId flow) const {
  FlowRecord r;
  r.flow = flow;
  r.src = self_;
  r.bytes = net_.message(flow).bytes;
  const std::uint32_t slot = net_.send_slot(flow);
  r.start_ps = senders_[slot].start_ps;
  r.completed_ps = senders_[slot].completed_ps;
  // A shared connection's counters go to its last message, complete when the connection is.
  if (is_tcp_ && net_.next_on_connection(flow) == kNoMessage) {
    const TcpSenderState& s = tcp_senders_[net_.send_slot(net_.connection_of(flow))];
    r.segments_sent = s.segments_sent;
    r.retransmitted_segments = s.retransmitted_segments;
    r.duplicate_acks = s.duplicate_acks;
    r.fast_retransmits = s.fast_retransmits;
    r.timeouts = s.timeouts;
    r.syns_sent = s.syns_sent;
    r.syn_retransmissions = s.syn_retransmissions;
    r.limited_transmits = s.limited_transmits;
  } else if (is_roce_ && r.start_ps >= 0) {
    roce_.add_counters(flow, r);
  } else if (!is_tcp_ && r.start_ps >= 0) {
    const std::uint32_t max_payload = net_.spec().format.max_payload();
    r.segments_sent = (r.bytes + max_payload - 1) / max_payload;
  }
  return r;
}

// Before the sender's first change in a new interval: its state as the last interval it
// changed in ended (nothing changed it since).
void HostLp::sample_flow(MessageId flow, EventCtx& ctx) {
  if (flow_intervals_.size() == 0) return;
  const std::uint32_t slot = net_.send_slot(flow);
  const std::int64_t now = ctx.now().ps() / net_.spec().outputs.sample_interval_ps;
  const std::int64_t last = flow_intervals_[slot];
  if (last == now) return;
  if (last >= 0) ctx.emit(flow_sample(flow, last));
  ctx.set(flow_intervals_, slot, now);
}

FlowSample HostLp::flow_sample(MessageId flow, std::int64_t interval) const {
  const TcpSenderState& s = tcp_senders_[net_.send_slot(flow)];
  FlowSample sample;
  sample.interval_start_ps = interval * net_.spec().outputs.sample_interval_ps;
  sample.flow = flow;
  sample.cwnd = s.cwnd;
  sample.ssthresh = s.ssthresh;
  sample.acked_bytes = s.snd_una;
  sample.timeouts = s.timeouts;
  return sample;
}

void HostLp::finish_flow_samples(engine::FinishCtx& ctx) const {
  if (flow_intervals_.size() == 0) return;
  for (MessageId id : net_.messages_of(self_)) {
    const std::int64_t last = flow_intervals_[net_.send_slot(id)];
    if (last >= 0) ctx.emit(flow_sample(id, last));
  }
}

// Flows that did not complete by the end still get their record.
void HostLp::finish(engine::FinishCtx& ctx) {
  ctx.emit(nic_.totals());
  nic_.finish(ctx);
  finish_flow_samples(ctx);
  for (MessageId id : net_.messages_of(self_))
    if (senders_[net_.send_slot(id)].completed_ps < 0) ctx.emit(flow_record(id));
  if (is_roce_) {
    for (MessageId id : net_.messages_to(self_))
      if (const std::uint64_t discarded = roce_.discarded_packets(id); discarded != 0)
        ctx.emit(ReceiverRecord{id, net_.message(id).src, self_, 0, discarded});
  }
  if (!is_tcp_) return;
  for (MessageId id : net_.messages_to(self_)) {
    const TcpReceiverState& r = tcp_receivers_[net_.receive_slot(id)];
    if (r.discarded_segments != 0)
      ctx.emit(ReceiverRecord{id, net_.message(id).src, self_, 0, r.discarded_segments});
  }
}

void HostLp::visit_state(engine::StateVisitor& v) const {
  v("nic", nic_);
  v("senders", senders_);
  v("prerequisites_done", prerequisites_done_);
  v("tcp_senders", tcp_senders_);
  v("tcp_receivers", tcp_receivers_);
  v("received_bytes", received_bytes_);
  v("flow_intervals", flow_intervals_);
  v("tcp_ooo_ranges", tcp_ooo_ranges_);
  v("tcp_scoreboards", tcp_scoreboards_);
  lossless_.visit_state(v);
  if (is_roce_) roce_.visit_state(v);
}

}  // namespace netwarp::netmodels
