// RoceTransport: pacing, PSNs, ACK / NACK, go-back-N and DCQCN's timers (see the header).
#include "netwarp/netmodels/roce_transport.hpp"

#include <algorithm>
#include <limits>

#include "netwarp/engine/check.hpp"

namespace netwarp::netmodels {

using engine::EventCtx;

void RoceHost::roce_delivered(MessageId flow, EventCtx&) {
  NW_CHECK(false, "RoCE message {} delivered to a host without RoCE messages", flow);
}
void RoceHost::roce_completed(MessageId flow, EventCtx&) {
  NW_CHECK(false, "RoCE message {} completed on a host without RoCE messages", flow);
}
void RoceHost::roce_stream_packet(NodeId peer, std::uint64_t, Packet&) const {
  NW_CHECK(false, "RoCE stream to {} on a host without RoCE streams", peer);
}
void RoceHost::roce_stream_received(const Packet& p, EventCtx&) {
  NW_CHECK(false, "RoCE stream from {} on a host without RoCE streams", p.src);
}
void RoceHost::roce_stream_acknowledged(NodeId peer, std::uint64_t, EventCtx&) {
  NW_CHECK(false, "RoCE stream to {} on a host without RoCE streams", peer);
}

RoceTransport::RoceTransport(NodeId self, const NetworkContext& net, std::uint64_t line_rate_bps,
                             RoceMode mode)
    : self_(self),
      net_(net),
      config_(net.spec().transport.roce),
      line_rate_bps_(line_rate_bps),
      payload_(net.spec().format.max_payload()),
      mode_(mode),
      senders_(mode == RoceMode::messages ? net.messages_of(self).size() : 0, Sender{}),
      receivers_(mode == RoceMode::messages ? net.messages_to(self).size() : 0,
                 Receiver{0, -1, 0, 0, 0}) {}

std::uint64_t RoceTransport::packets_of(const Message& m) const {
  return std::max<std::uint64_t>(1, (m.bytes + payload_ - 1) / payload_);
}

RoceTransport::Sender RoceTransport::new_sender(std::uint64_t line_rate_bps) {
  Sender s{};
  s.rto_at_ps = -1;
  s.alpha_from_ps = -1;
  s.dcqcn = dcqcn_start(line_rate_bps);
  return s;
}

RoceTransport::Sender RoceTransport::sender(ConnId conn) const {
  if (!is_streams()) return senders_[net_.send_slot(conn)];
  const Sender* s = stream_senders_.find(conn);
  NW_CHECK(s != nullptr, "RoCE host {}: no stream to {}", self_, conn);
  return *s;
}

void RoceTransport::put_sender(ConnId conn, const Sender& s, EventCtx& ctx) {
  if (is_streams()) return ctx.put(stream_senders_, conn, s);
  ctx.set(senders_, net_.send_slot(conn), s);
}

RoceTransport::Receiver RoceTransport::receiver(ConnId conn) const {
  if (!is_streams()) return receivers_[net_.receive_slot(conn)];
  const Receiver* r = stream_receivers_.find(conn);
  return r != nullptr ? *r : Receiver{0, -1, 0, 0, 0};
}

void RoceTransport::put_receiver(ConnId conn, const Receiver& r, EventCtx& ctx) {
  if (is_streams()) return ctx.put(stream_receivers_, conn, r);
  ctx.set(receivers_, net_.receive_slot(conn), r);
}

void RoceTransport::start(const Message& m, EventCtx& ctx, RoceHost& host) {
  NW_CHECK(packets_of(m) <= 0xffffffffu, "RoCE message {} needs more than 2^32 PSNs", m.id);
  Sender s = new_sender(line_rate_bps_);
  s.end_psn = packets_of(m);
  put_sender(m.id, s, ctx);
  send_next(m.id, ctx, host);
}

// An idle stream sends at once, or when the gap after its last packet at its rate has passed.
void RoceTransport::append(NodeId peer, std::uint64_t packets, EventCtx& ctx, RoceHost& host) {
  const Sender* stored = stream_senders_.find(peer);
  Sender s = stored != nullptr ? *stored : new_sender(line_rate_bps_);
  NW_CHECK(s.end_psn + packets <= 0xffffffffu, "RoCE stream {} -> {} needs more than 2^32 PSNs",
           self_, peer);
  s.end_psn += packets;
  if (s.pacing == kIdle && s.next_psn + packets == s.end_psn) {
    const SimTime due =
        s.paced_wire_bytes == 0 ? ctx.now() : SimTime::from_ps(s.paced_from_ps) + pacing_gap(s);
    if (due > ctx.now()) {
      pace(peer, s, due - ctx.now(), ctx);
    } else {
      put_sender(peer, s, ctx);
      return send_next(peer, ctx, host);
    }
  }
  put_sender(peer, s, ctx);
}

std::uint64_t RoceTransport::appended(NodeId peer) const {
  const Sender* s = stream_senders_.find(peer);
  return s != nullptr ? s->end_psn : 0;
}

std::vector<NodeId> RoceTransport::stream_peers() const {
  std::vector<NodeId> peers;
  for (const auto& [peer, s] : stream_senders_) peers.push_back(peer);
  return peers;
}

std::vector<NodeId> RoceTransport::stream_sources() const {
  std::vector<NodeId> peers;
  for (const auto& [peer, r] : stream_receivers_) peers.push_back(peer);
  return peers;
}

// The data packet `psn` of `conn`: a message's slice, or what the host puts in a stream's.
Packet RoceTransport::data_packet(ConnId conn, std::uint64_t psn, RoceHost& host) const {
  Packet p;
  if (is_streams()) {
    host.roce_stream_packet(conn, psn, p);
    p.dst = conn;
    set_priority(p, net_.spec().stream_priority);
  } else {
    const Message& m = net_.message(conn);
    const std::uint64_t offset = psn * payload_;
    p.flow = conn;
    p.payload_bytes =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(payload_, m.bytes - offset));
    p.dst = m.dst;
    set_priority(p, m.priority);
  }
  p.seq = static_cast<std::uint32_t>(psn);
  p.wire_bytes = net_.spec().format.wire_bytes(p.payload_bytes);
  p.src = self_;
  p.kind = PacketKind::data;
  p.flags = static_cast<std::uint8_t>(p.flags | (config_.dcqcn.enabled ? packet_flags::ect : 0));
  return p;
}

// Sends packet next_psn, unless the NIC is full, and paces the next one after the packet's
// time on the wire at the DCQCN rate.
void RoceTransport::send_next(ConnId conn, EventCtx& ctx, RoceHost& host) {
  Sender s = sender(conn);
  s.pacing = kIdle;
  if (s.next_psn >= s.end_psn || is_done(s)) return put_sender(conn, s, ctx);
  Packet p = data_packet(conn, s.next_psn, host);
  if (wait_for_nic(conn, s, p.wire_bytes, ctx, host)) return put_sender(conn, s, ctx);
  const bool is_retransmission = s.next_psn < s.high_psn;
  p.retransmission = is_retransmission ? 1 : 0;
  s.retransmitted += is_retransmission ? 1 : 0;
  ++s.sent;
  ++s.next_psn;
  s.high_psn = std::max(s.high_psn, s.next_psn);
  if (config_.dcqcn.enabled) dcqcn_on_sent(s.dcqcn, config_.dcqcn, p.wire_bytes, line_rate_bps_);
  if (s.rto_at_ps < 0) arm_retransmission(conn, s, ctx);
  s.paced_from_ps = ctx.now().ps();
  s.paced_wire_bytes = p.wire_bytes;
  if (s.next_psn < s.end_psn) pace(conn, s, pacing_gap(s), ctx);
  put_sender(conn, s, ctx);
  host.send_roce(p, ctx);
}

// True when a frame or more already waits in the NIC (behind the one on the wire): the sender
// stops. With classes (PFC) the NIC's PortReady resumes it (a paused class has no schedule to
// compute from); without, a pacing event when the line will have room.
bool RoceTransport::wait_for_nic(ConnId flow, Sender& s, std::uint32_t wire_bytes, EventCtx& ctx,
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
void RoceTransport::pace(ConnId flow, Sender& s, SimTime gap, EventCtx& ctx) {
  s.pacing = kPaced;
  ++s.pacing_generation;
  ctx.send_self(gap, TimerFired{flow, s.pacing_generation, roce_timer::pacing});
}

// As an RDMA NIC's rate limiter applies a new rate to the packet it holds back (the HPCC ns-3
// code, RdmaHw::ChangeRate, moves the next send time by the gap's change): the next packet goes
// one gap at the new rate after the last, or at once if that has passed. Without it a flow cut
// to a low rate waits out the long gap after its rate has recovered, and one just raised keeps
// the old gap: at 312 Mbit/s a 1 KB gap is 26 us, half of a rate-timer period.
void RoceTransport::retime(ConnId flow, Sender& s, double old_rate_bps, EventCtx& ctx) {
  if (s.pacing != kPaced || s.dcqcn.rate_bps == old_rate_bps) return;
  const SimTime due = SimTime::from_ps(s.paced_from_ps) + pacing_gap(s);
  pace(flow, s, due > ctx.now() ? due - ctx.now() : engine::ps(1), ctx);
}

// The senders waiting when the NIC became ready try again, in the order they stopped; one
// that finds the NIC full again waits at the back.
void RoceTransport::on_nic_ready(EventCtx& ctx, RoceHost& host) {
  for (std::size_t n = waiting_for_nic_.size(); n > 0; --n) {
    const ConnId flow = ctx.pop_front(waiting_for_nic_);
    send_next(flow, ctx, host);
  }
}

// After a go-back: a sender with nothing due (all sent) starts again at once.
void RoceTransport::resume(ConnId flow, Sender& s, EventCtx& ctx) {
  if (s.pacing == kIdle) pace(flow, s, engine::ps(1), ctx);
}

// The timer's deadline moves with every acknowledgement; one TimerFired at a time is pending
// and, firing early, is sent again for the deadline.
void RoceTransport::arm_retransmission(ConnId flow, Sender& s, EventCtx& ctx) {
  s.rto_at_ps = (ctx.now() + config_.timeout).ps();
  if (s.rto_event_due != 0) return;
  s.rto_event_due = 1;
  ctx.send_self(config_.timeout, TimerFired{flow, 0, roce_timer::retransmission});
}

void RoceTransport::go_back(ConnId flow, Sender& s, EventCtx& ctx) {
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
  const ConnId conn = conn_of(p);
  Sender s = sender(conn);
  if (is_done(s)) return;  // complete already (a stream: nothing outstanding)
  const std::uint64_t psn = p.ack;
  const bool is_new = psn > s.una;
  if (is_new) {
    s.una = psn;
    s.next_psn = std::max(s.next_psn, s.una);  // acknowledged beyond a timeout's go-back
    if (s.una < s.next_psn) {
      arm_retransmission(conn, s, ctx);
    } else {
      s.rto_at_ps = -1;  // nothing outstanding
    }
  }
  if (p.kind == PacketKind::nack && psn == s.una && psn < s.next_psn) {
    ++s.nacks;
    go_back(conn, s, ctx);
  }
  put_sender(conn, s, ctx);
  if (is_streams()) {
    if (is_new) host.roce_stream_acknowledged(conn, s.una, ctx);
  } else if (is_done(s)) {
    host.roce_completed(conn, ctx);
  }
}

void RoceTransport::on_timer(const TimerFired& ev, EventCtx& ctx, RoceHost& host) {
  if (ev.is_receiver == roce_timer::pacing) {
    const Sender s = sender(ev.flow);
    if (s.pacing != kPaced || ev.generation != s.pacing_generation) return;  // re-timed
    return send_next(ev.flow, ctx, host);
  }
  if (ev.is_receiver == roce_timer::retransmission) return on_retransmission_timer(ev.flow, ctx);
  if (ev.is_receiver == roce_timer::rate) on_rate_timer(ev, ctx);
}

void RoceTransport::on_retransmission_timer(ConnId flow, EventCtx& ctx) {
  Sender s = sender(flow);
  s.rto_event_due = 0;
  if (s.next_psn == s.una) s.rto_at_ps = -1;  // nothing outstanding (a stopped sender)
  if (is_done(s) || s.rto_at_ps < 0) return put_sender(flow, s, ctx);
  if (ctx.now().ps() < s.rto_at_ps) {  // acknowledgements moved the deadline
    s.rto_event_due = 1;
    ctx.send_self(SimTime::from_ps(s.rto_at_ps) - ctx.now(),
                  TimerFired{flow, 0, roce_timer::retransmission});
  } else {
    ++s.timeouts;
    go_back(flow, s, ctx);
  }
  put_sender(flow, s, ctx);
}

// Reaction point: a CNP cuts the rate and (re)starts the rate timer. Alpha's timer (started by
// the first CNP, restarted by each) is not an event: the periods it would have fired in since
// the last CNP are applied now, the only time alpha is read (at a 1 us period, NVIDIA's
// ConnectX default, the timer was a quarter of a RoCE incast's events).
void RoceTransport::on_cnp(const Packet& p, EventCtx& ctx) {
  const ConnId conn = conn_of(p);
  Sender s = sender(conn);
  if (is_finished(s) || !config_.dcqcn.enabled) return;
  const std::int64_t now = ctx.now().ps();
  if (s.alpha_from_ps >= 0) {
    const auto periods = (now - s.alpha_from_ps) / config_.dcqcn.alpha_timer.ps();
    dcqcn_decay_alpha(s.dcqcn, config_.dcqcn, static_cast<std::uint64_t>(periods));
  }
  s.alpha_from_ps = now;
  const double old_rate = s.dcqcn.rate_bps;
  dcqcn_on_cnp(s.dcqcn, config_.dcqcn);
  retime(conn, s, old_rate, ctx);
  ++s.rate_generation;
  put_sender(conn, s, ctx);
  ctx.send_self(config_.dcqcn.rate_timer, TimerFired{conn, s.rate_generation, roce_timer::rate});
}

// The rate timer runs until the rate is back at the line.
void RoceTransport::on_rate_timer(const TimerFired& ev, EventCtx& ctx) {
  Sender s = sender(ev.flow);
  if (is_finished(s) || ev.generation != s.rate_generation) return;
  const double old_rate = s.dcqcn.rate_bps;
  dcqcn_on_rate_timer(s.dcqcn, config_.dcqcn, line_rate_bps_);
  retime(ev.flow, s, old_rate, ctx);
  const double line = static_cast<double>(line_rate_bps_);
  if (s.dcqcn.rate_bps < line || s.dcqcn.target_bps < line)
    ctx.send_self(config_.dcqcn.rate_timer, ev);
  put_sender(ev.flow, s, ctx);
}

// --- receiving side -----------------------------------------------------------------------

// A message's receiver knows its length; a stream's has none (every packet in order is new).
void RoceTransport::on_data(const Packet& p, EventCtx& ctx, RoceHost& host) {
  const ConnId conn = conn_of(p);
  Receiver r = receiver(conn);
  const DcqcnConfig& dcqcn = config_.dcqcn;
  const std::int64_t now = ctx.now().ps();
  if (dcqcn.enabled && (p.flags & packet_flags::ce) != 0 &&
      (r.last_cnp_ps < 0 || now - r.last_cnp_ps >= dcqcn.cnp_interval.ps())) {
    r.last_cnp_ps = now;
    send_control(p, PacketKind::cnp, 0, ctx, host);
  }
  const std::uint64_t packets =
      is_streams() ? std::numeric_limits<std::uint64_t>::max() : packets_of(net_.message(conn));
  bool is_delivered = false;
  bool is_accepted = false;
  if (r.expected_psn >= packets || p.seq < r.expected_psn) {  // a duplicate: say where we are
    send_control(p, PacketKind::ack, r.expected_psn, ctx, host);
  } else if (p.seq > r.expected_psn) {  // a gap: go-back-N drops it, one NACK per gap
    ++r.discarded;
    if (r.nack_sent == 0) send_control(p, PacketKind::nack, r.expected_psn, ctx, host);
    r.nack_sent = 1;
  } else {
    ++r.expected_psn;
    ++r.unacked;
    r.nack_sent = 0;
    is_accepted = true;
    is_delivered = r.expected_psn == packets;
    const bool ends_transfer = is_streams() && (p.flags & packet_flags::last) != 0;
    if (is_delivered || ends_transfer || r.unacked >= config_.ack_interval_packets) {
      send_control(p, PacketKind::ack, r.expected_psn, ctx, host);
      r.unacked = 0;
    }
  }
  put_receiver(conn, r, ctx);
  if (is_streams() && is_accepted) host.roce_stream_received(p, ctx);
  if (is_delivered) host.roce_delivered(conn, ctx);
}

// ACK, NACK or CNP from this host (the receiver) to the sender of `data`, in its class.
void RoceTransport::send_control(const Packet& data, PacketKind kind, std::uint64_t psn,
                                 EventCtx& ctx, RoceHost& host) const {
  Packet p = control_packet(net_.spec().format, self_, data.src, kind);
  p.flow = is_streams() ? 0 : data.flow;
  p.ack = static_cast<std::uint32_t>(psn);
  set_priority(p, is_streams() ? net_.spec().stream_priority : net_.message(data.flow).priority);
  host.send_roce(p, ctx);
}

void RoceTransport::add_counters(ConnId flow, FlowRecord& r) const {
  const Sender s = sender(flow);
  r.segments_sent = s.sent;
  r.retransmitted_segments = s.retransmitted;
  r.fast_retransmits = s.nacks;
  r.timeouts = s.timeouts;
}

std::uint64_t RoceTransport::discarded_packets(ConnId flow) const {
  return receiver(flow).discarded;
}

void RoceTransport::visit_state(engine::StateVisitor& v) const {
  v("roce_senders", senders_);
  v("roce_receivers", receivers_);
  v("roce_stream_senders", stream_senders_);
  v("roce_stream_receivers", stream_receivers_);
  v("roce_waiting_for_nic", waiting_for_nic_);
}

}  // namespace netwarp::netmodels
