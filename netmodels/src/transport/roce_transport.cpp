// RoceTransport: pacing, PSNs, ACK / NACK, go-back-N and DCQCN's timers (see the header).
#include "netwarp/netmodels/roce_transport.hpp"

#include <algorithm>

#include "netwarp/engine/check.hpp"

namespace netwarp::netmodels {

using engine::EventCtx;

RoceTransport::RoceTransport(NodeId self, const NetworkContext& net, std::uint64_t line_rate_bps,
                             bool active)
    : self_(self),
      net_(net),
      config_(net.spec().transport.roce),
      line_rate_bps_(line_rate_bps),
      payload_(net.spec().format.max_payload()),
      senders_(active ? net.messages_of(self).size() : 0, Sender{}),
      receivers_(active ? net.messages_to(self).size() : 0, Receiver{0, -1, 0, 0, 0}) {}

std::uint64_t RoceTransport::packets_of(const Message& m) const {
  return std::max<std::uint64_t>(1, (m.bytes + payload_ - 1) / payload_);
}

bool RoceTransport::is_done(MessageId flow, const Sender& s) const {
  return s.una >= packets_of(net_.message(flow));
}

void RoceTransport::start(const Message& m, EventCtx& ctx, RoceHost& host) {
  NW_CHECK(packets_of(m) <= 0xffffffffu, "RoCE message {} needs more than 2^32 PSNs", m.id);
  Sender s{};
  s.rto_at_ps = -1;
  s.alpha_from_ps = -1;
  s.dcqcn = dcqcn_start(line_rate_bps_);
  ctx.set(senders_, net_.send_slot(m.id), s);
  send_next(m.id, ctx, host);
}

// Sends packet next_psn, unless the NIC is full, and paces the next one after the packet's
// time on the wire at the DCQCN rate.
void RoceTransport::send_next(MessageId flow, EventCtx& ctx, RoceHost& host) {
  const std::uint32_t slot = net_.send_slot(flow);
  Sender s = senders_[slot];
  const Message& m = net_.message(flow);
  const std::uint64_t packets = packets_of(m);
  s.pacing = kIdle;
  if (s.next_psn >= packets || s.una >= packets) return ctx.set(senders_, slot, s);
  const std::uint64_t offset = s.next_psn * payload_;
  Packet p;
  p.flow = flow;
  p.seq = static_cast<std::uint32_t>(s.next_psn);
  p.payload_bytes = static_cast<std::uint32_t>(std::min<std::uint64_t>(payload_, m.bytes - offset));
  p.wire_bytes = net_.spec().format.wire_bytes(p.payload_bytes);
  if (wait_for_nic(flow, s, p.wire_bytes, ctx, host)) return ctx.set(senders_, slot, s);
  p.src = self_;
  p.dst = m.dst;
  p.kind = PacketKind::data;
  p.flags = config_.dcqcn.enabled ? packet_flags::ect : 0;
  set_priority(p, m.priority);
  const bool is_retransmission = s.next_psn < s.high_psn;
  p.retransmission = is_retransmission ? 1 : 0;
  s.retransmitted += is_retransmission ? 1 : 0;
  ++s.sent;
  ++s.next_psn;
  s.high_psn = std::max(s.high_psn, s.next_psn);
  if (config_.dcqcn.enabled) dcqcn_on_sent(s.dcqcn, config_.dcqcn, p.wire_bytes, line_rate_bps_);
  if (s.rto_at_ps < 0) arm_retransmission(flow, s, ctx);
  if (s.next_psn < packets) {
    s.paced_from_ps = ctx.now().ps();
    s.paced_wire_bytes = p.wire_bytes;
    pace(flow, s, pacing_gap(s), ctx);
  }
  ctx.set(senders_, slot, s);
  host.send_roce(p, ctx);
}

// True when a frame or more already waits in the NIC (behind the one on the wire): the sender
// stops. With classes (PFC) the NIC's PortReady resumes it (a paused class has no schedule to
// compute from); without, a pacing event when the line will have room.
bool RoceTransport::wait_for_nic(MessageId flow, Sender& s, std::uint32_t wire_bytes, EventCtx& ctx,
                                 RoceHost& host) {
  const OutputPort& nic = host.roce_nic();
  const SimTime backlog = nic.backlog(ctx.now());
  const SimTime frame = serialisation_time(wire_bytes, nic.link().rate_bps);
  if (backlog < frame) return false;
  if (nic.has_classes()) {
    s.pacing = kWaitingForNic;
    ctx.push_back(waiting_for_nic_, flow);
  } else {
    pace(flow, s, backlog - frame + engine::ps(1), ctx);
  }
  return true;
}

// The packet's time on the wire at the DCQCN rate.
SimTime RoceTransport::pacing_gap(const Sender& s) const {
  const double gap_ps = static_cast<double>(s.paced_wire_bytes) * 8e12 / s.dcqcn.rate_bps;
  return engine::ps(std::max<std::int64_t>(1, static_cast<std::int64_t>(gap_ps)));
}

// A newer pacing event makes the pending one stale (its generation no longer counts).
void RoceTransport::pace(MessageId flow, Sender& s, SimTime gap, EventCtx& ctx) {
  s.pacing = kPaced;
  ++s.pacing_generation;
  ctx.send_self(gap, TimerFired{flow, s.pacing_generation, roce_timer::pacing});
}

// As an RDMA NIC's rate limiter applies a new rate to the packet it holds back (the HPCC ns-3
// code, RdmaHw::ChangeRate, moves the next send time by the gap's change): the next packet goes
// one gap at the new rate after the last, or at once if that has passed. Without it a flow cut
// to a low rate waits out the long gap after its rate has recovered, and one just raised keeps
// the old gap: at 312 Mbit/s a 1 KB gap is 26 us, half of a rate-timer period.
void RoceTransport::retime(MessageId flow, Sender& s, double old_rate_bps, EventCtx& ctx) {
  if (s.pacing != kPaced || s.dcqcn.rate_bps == old_rate_bps) return;
  const SimTime due = SimTime::from_ps(s.paced_from_ps) + pacing_gap(s);
  pace(flow, s, due > ctx.now() ? due - ctx.now() : engine::ps(1), ctx);
}

// The senders waiting when the NIC became ready try again, in the order they stopped; one
// that finds the NIC full again waits at the back.
void RoceTransport::on_nic_ready(EventCtx& ctx, RoceHost& host) {
  for (std::size_t n = waiting_for_nic_.size(); n > 0; --n) {
    const MessageId flow = ctx.pop_front(waiting_for_nic_);
    send_next(flow, ctx, host);
  }
}

// After a go-back: a sender with nothing due (all sent) starts again at once.
void RoceTransport::resume(MessageId flow, Sender& s, EventCtx& ctx) {
  if (s.pacing == kIdle) pace(flow, s, engine::ps(1), ctx);
}

// The timer's deadline moves with every acknowledgement; one TimerFired at a time is pending
// and, firing early, is sent again for the deadline.
void RoceTransport::arm_retransmission(MessageId flow, Sender& s, EventCtx& ctx) {
  s.rto_at_ps = (ctx.now() + config_.timeout).ps();
  if (s.rto_event_due != 0) return;
  s.rto_event_due = 1;
  ctx.send_self(config_.timeout, TimerFired{flow, 0, roce_timer::retransmission});
}

void RoceTransport::go_back(MessageId flow, Sender& s, EventCtx& ctx) {
  s.next_psn = s.una;
  arm_retransmission(flow, s, ctx);
  resume(flow, s, ctx);
}

void RoceTransport::on_packet(const Packet& p, EventCtx& ctx, RoceHost& host) {
  switch (p.kind) {
    case PacketKind::data:
      return on_data(p, ctx, host);
    case PacketKind::ack:
    case PacketKind::nack:
      return on_ack(p, ctx, host);
    case PacketKind::cnp:
      return on_cnp(p, ctx);
    default:
      return;
  }
}

// ACK psn: every packet before psn arrived. NACK psn: the same, and psn is missing.
void RoceTransport::on_ack(const Packet& p, EventCtx& ctx, RoceHost& host) {
  const std::uint32_t slot = net_.send_slot(p.flow);
  Sender s = senders_[slot];
  const std::uint64_t packets = packets_of(net_.message(p.flow));
  if (s.una >= packets) return;  // complete already
  const std::uint64_t psn = p.ack;
  if (psn > s.una) {
    s.una = psn;
    s.next_psn = std::max(s.next_psn, s.una);  // acknowledged beyond a timeout's go-back
    if (s.una < s.next_psn) {
      arm_retransmission(p.flow, s, ctx);
    } else {
      s.rto_at_ps = -1;  // nothing outstanding
    }
  }
  if (p.kind == PacketKind::nack && psn == s.una && psn < s.next_psn) {
    ++s.nacks;
    go_back(p.flow, s, ctx);
  }
  ctx.set(senders_, slot, s);
  if (s.una >= packets) host.roce_completed(p.flow, ctx);
}

void RoceTransport::on_timer(const TimerFired& ev, EventCtx& ctx, RoceHost& host) {
  if (ev.is_receiver == roce_timer::pacing) {
    const Sender& s = senders_[net_.send_slot(ev.flow)];
    if (s.pacing != kPaced || ev.generation != s.pacing_generation) return;  // re-timed
    return send_next(ev.flow, ctx, host);
  }
  if (ev.is_receiver == roce_timer::retransmission) return on_retransmission_timer(ev.flow, ctx);
  if (ev.is_receiver == roce_timer::rate) on_rate_timer(ev, ctx);
}

void RoceTransport::on_retransmission_timer(MessageId flow, EventCtx& ctx) {
  const std::uint32_t slot = net_.send_slot(flow);
  Sender s = senders_[slot];
  s.rto_event_due = 0;
  if (s.next_psn == s.una) s.rto_at_ps = -1;  // nothing outstanding (a stopped sender)
  if (is_done(flow, s) || s.rto_at_ps < 0) return ctx.set(senders_, slot, s);
  if (ctx.now().ps() < s.rto_at_ps) {  // acknowledgements moved the deadline
    s.rto_event_due = 1;
    ctx.send_self(SimTime::from_ps(s.rto_at_ps) - ctx.now(),
                  TimerFired{flow, 0, roce_timer::retransmission});
  } else {
    ++s.timeouts;
    go_back(flow, s, ctx);
  }
  ctx.set(senders_, slot, s);
}

// Reaction point: a CNP cuts the rate and (re)starts the rate timer. Alpha's timer (started by
// the first CNP, restarted by each) is not an event: the periods it would have fired in since
// the last CNP are applied now, the only time alpha is read (at a 1 us period, NVIDIA's
// ConnectX default, the timer was a quarter of a RoCE incast's events).
void RoceTransport::on_cnp(const Packet& p, EventCtx& ctx) {
  const std::uint32_t slot = net_.send_slot(p.flow);
  Sender s = senders_[slot];
  if (is_done(p.flow, s) || !config_.dcqcn.enabled) return;
  const std::int64_t now = ctx.now().ps();
  if (s.alpha_from_ps >= 0) {
    const auto periods = (now - s.alpha_from_ps) / config_.dcqcn.alpha_timer.ps();
    dcqcn_decay_alpha(s.dcqcn, config_.dcqcn, static_cast<std::uint64_t>(periods));
  }
  s.alpha_from_ps = now;
  const double old_rate = s.dcqcn.rate_bps;
  dcqcn_on_cnp(s.dcqcn, config_.dcqcn);
  retime(p.flow, s, old_rate, ctx);
  ++s.rate_generation;
  ctx.set(senders_, slot, s);
  ctx.send_self(config_.dcqcn.rate_timer, TimerFired{p.flow, s.rate_generation, roce_timer::rate});
}

// The rate timer runs until the rate is back at the line.
void RoceTransport::on_rate_timer(const TimerFired& ev, EventCtx& ctx) {
  const std::uint32_t slot = net_.send_slot(ev.flow);
  Sender s = senders_[slot];
  if (is_done(ev.flow, s) || ev.generation != s.rate_generation) return;
  const double old_rate = s.dcqcn.rate_bps;
  dcqcn_on_rate_timer(s.dcqcn, config_.dcqcn, line_rate_bps_);
  retime(ev.flow, s, old_rate, ctx);
  const double line = static_cast<double>(line_rate_bps_);
  if (s.dcqcn.rate_bps < line || s.dcqcn.target_bps < line)
    ctx.send_self(config_.dcqcn.rate_timer, ev);
  ctx.set(senders_, slot, s);
}

// --- receiving side -----------------------------------------------------------------------

void RoceTransport::on_data(const Packet& p, EventCtx& ctx, RoceHost& host) {
  const std::uint32_t slot = net_.receive_slot(p.flow);
  Receiver r = receivers_[slot];
  const Message& m = net_.message(p.flow);
  const DcqcnConfig& dcqcn = config_.dcqcn;
  const std::int64_t now = ctx.now().ps();
  if (dcqcn.enabled && (p.flags & packet_flags::ce) != 0 &&
      (r.last_cnp_ps < 0 || now - r.last_cnp_ps >= dcqcn.cnp_interval.ps())) {
    r.last_cnp_ps = now;
    send_control(m, PacketKind::cnp, 0, ctx, host);
  }
  const std::uint64_t packets = packets_of(m);
  bool is_delivered = false;
  if (r.expected_psn >= packets || p.seq < r.expected_psn) {  // a duplicate: say where we are
    send_control(m, PacketKind::ack, r.expected_psn, ctx, host);
  } else if (p.seq > r.expected_psn) {  // a gap: go-back-N drops it, one NACK per gap
    ++r.discarded;
    if (r.nack_sent == 0) send_control(m, PacketKind::nack, r.expected_psn, ctx, host);
    r.nack_sent = 1;
  } else {
    ++r.expected_psn;
    ++r.unacked;
    r.nack_sent = 0;
    is_delivered = r.expected_psn == packets;
    if (is_delivered || r.unacked >= config_.ack_interval_packets) {
      send_control(m, PacketKind::ack, r.expected_psn, ctx, host);
      r.unacked = 0;
    }
  }
  ctx.set(receivers_, slot, r);
  if (is_delivered) host.roce_delivered(m.id, ctx);
}

// ACK, NACK or CNP from this host (the receiver) to the message's sender, in its class.
void RoceTransport::send_control(const Message& m, PacketKind kind, std::uint64_t psn,
                                 EventCtx& ctx, RoceHost& host) const {
  Packet p = control_packet(net_.spec().format, self_, m.src, kind);
  p.flow = m.id;
  p.ack = static_cast<std::uint32_t>(psn);
  set_priority(p, m.priority);
  host.send_roce(p, ctx);
}

void RoceTransport::add_counters(MessageId flow, FlowRecord& r) const {
  const Sender& s = senders_[net_.send_slot(flow)];
  r.segments_sent = s.sent;
  r.retransmitted_segments = s.retransmitted;
  r.fast_retransmits = s.nacks;
  r.timeouts = s.timeouts;
}

std::uint64_t RoceTransport::discarded_packets(MessageId flow) const {
  return receivers_[net_.receive_slot(flow)].discarded;
}

void RoceTransport::visit_state(engine::StateVisitor& v) const {
  v("roce_senders", senders_);
  v("roce_receivers", receivers_);
  v("roce_waiting_for_nic", waiting_for_nic_);
}

}  // namespace netwarp::netmodels
