// StreamTransport: per-peer connections carrying application transfers in order.
#include "netwarp/netmodels/stream_transport.hpp"

#include <algorithm>
#include <limits>

#include "netwarp/engine/check.hpp"
#include "netwarp/netmodels/records.hpp"

namespace netwarp::netmodels {

using engine::EventCtx;

namespace {
// A TCP receiver's total for a stream of no announced length: any nonzero value opens it. This
// one is hashed into the digests recorded before transfers could pass 4 GiB, so it stays.
constexpr std::uint64_t kOpenStreamTotal = std::numeric_limits<std::uint32_t>::max();
}  // namespace

StreamTransport::StreamTransport(NodeId self, const NetworkContext& net, OutputPort* shared_nic)
    : self_(self),
      net_(net),
      tcp_config_(net.spec().transport.tcp),
      mss_(net.tcp_mss()),
      is_tcp_(net.spec().transport.kind == TransportKind::tcp),
      is_roce_(net.spec().transport.kind == TransportKind::roce),
      traced_(net.is_pcap_traced(self)),
      shared_(shared_nic != nullptr),
      marked_(!net.spec().workload.messages.empty()),
      nic_(shared_ ? *shared_nic : own_nic_.emplace(net.port_settings(self, 0))),
      lossless_(net.spec().format.max_payload(), net.spec().format),
      roce_(self, net, nic_.link().rate_bps, is_roce_ ? RoceMode::streams : RoceMode::off) {
  NW_CHECK(!is_roce_ || (!shared_ && !nic_.has_classes()),
           "host {}: MPI over RoCE beside a workload, or with PFC (not modelled)", self);
}

void StreamTransport::send(NodeId to, const TransferTag& tag, EventCtx& ctx) {
  NW_CHECK(tag.bytes > 0 && tag.bytes <= kMaxMessageBytes, "transfer of {} bytes", tag.bytes);
  if (is_roce_) return send_roce(to, tag, ctx);
  if (!is_tcp_) {
    send_lossless(to, tag, ctx);
    return;
  }
  if (tcp_senders_.find(to) == nullptr) open_connection(to, ctx);
  TcpSenderState s = *tcp_senders_.find(to);
  ctx.put(unacknowledged_, EndKey{to, 0, s.total_bytes + tag.bytes}, tag);
  tcp_append(s, tcp_config_, tag.bytes, ctx.now(), sender_actions_);
  apply_sender_actions(to, s, ctx);
}

// A connection opens the first time this host sends to the peer (as MPI libraries connect
// lazily), not for every pair at 0: an all-to-all would start with a burst of SYNs between
// peers that never talk.
void StreamTransport::open_connection(NodeId to, EventCtx& ctx) {
  sender_actions_.clear();
  TcpSenderState s;
  if (tcp_config_.handshake) {
    s = tcp_connect(tcp_config_, mss_, ctx.now(), sender_actions_);
  } else {
    s = tcp_open(tcp_config_, 0, mss_, ctx.now(), sender_actions_);
  }
  apply_sender_actions(to, s, ctx);
}

void StreamTransport::send_lossless(NodeId to, const TransferTag& tag, EventCtx& ctx) {
  const std::uint64_t* stored = next_send_offset_.find(to);
  const std::uint64_t offset = stored == nullptr ? 0 : *stored;
  ctx.put(next_send_offset_, to, offset + tag.bytes);
  PendingSend send;
  send.first_offset = offset;
  send.bytes = tag.bytes;
  send.aux = tag.aux;
  send.id = to;
  send.word = tag.word;
  send.kind = tag.kind;
  lossless_.enqueue(send, ctx);
  fill_lossless(ctx);
}

// A transfer's own packets on the peer's stream, after those already appended.
void StreamTransport::send_roce(NodeId to, const TransferTag& tag, EventCtx& ctx) {
  const std::uint64_t payload = net_.spec().format.max_payload();
  const std::uint64_t packets = (tag.bytes + payload - 1) / payload;
  const std::uint64_t* sent = next_send_offset_.find(to);
  ctx.put(next_send_offset_, to, (sent == nullptr ? 0 : *sent) + tag.bytes);
  ctx.put(unacknowledged_, EndKey{to, 0, roce_.appended(to) + packets}, tag);
  roce_.append(to, packets, ctx, *this);
}

// Packet `psn` is in the transfer with the first end past it; its packets end at that end.
void StreamTransport::roce_stream_packet(NodeId peer, std::uint64_t psn, Packet& p) const {
  const auto it = unacknowledged_.lower_bound(EndKey{peer, 0, psn + 1});
  NW_CHECK(it != unacknowledged_.end() && it->first.peer == peer,
           "RoCE stream {} -> {}: packet {} belongs to no transfer", self_, peer, psn);
  const TransferTag& tag = it->second;
  const std::uint64_t payload = net_.spec().format.max_payload();
  const std::uint64_t first = it->first.end - (tag.bytes + payload - 1) / payload;
  const std::uint64_t offset = (psn - first) * payload;
  const auto length = static_cast<std::uint32_t>(std::min(payload, tag.bytes - offset));
  p = data_packet(peer, tag, static_cast<std::uint32_t>(psn), length, psn + 1 == it->first.end,
                  false);
}

// Packets come in PSN order, each once: a transfer's last one completes it.
void StreamTransport::roce_stream_received(const Packet& p, EventCtx&) {
  if ((p.flags & packet_flags::last) != 0) arrivals_->push_back({p.src, tag_of_packet(p)});
}

void StreamTransport::roce_stream_acknowledged(NodeId peer, std::uint64_t una, EventCtx& ctx) {
  forget_acknowledged(peer, una, ctx);
}

// The wire's 32-bit seq wraps; the receiver checks it against its 64-bit offset's low half.
void StreamTransport::fill_lossless(EventCtx& ctx) {
  lossless_.fill(nic_, ctx, [&](const PacketCut& cut) {
    TransferTag tag;
    tag.bytes = cut.send.bytes;
    tag.aux = cut.send.aux;
    tag.word = cut.send.word;
    tag.kind = cut.send.kind;
    send_data(cut.send.id, tag, static_cast<std::uint32_t>(cut.send.first_offset + cut.offset),
              cut.length, cut.last, false, ctx);
  });
}

void StreamTransport::on_lossless_refill(const LosslessRefillDue& ev, EventCtx& ctx) {
  if (lossless_.on_refill_due(ev, ctx)) fill_lossless(ctx);
}

void StreamTransport::on_packet(const Packet& p, EventCtx& ctx,
                                std::vector<ReceivedTransfer>& out) {
  if (is_roce_) {
    arrivals_ = &out;
    roce_.on_packet(p, ctx, *this);
    arrivals_ = nullptr;
    return;
  }
  if (p.kind == PacketKind::ack) {
    on_tcp_ack(p, ctx);
  } else if (p.kind == PacketKind::syn) {
    send_handshake(p.src, PacketKind::syn_ack, p.retransmission != 0, ctx);
  } else if (p.kind == PacketKind::syn_ack) {
    on_tcp_syn_ack(p, ctx);
  } else if (p.kind == PacketKind::handshake_ack) {
    return;  // data is accepted without it
  } else if (is_tcp_) {
    on_tcp_data(p, ctx, out);
  } else {
    on_lossless_data(p, ctx, out);
  }
}

void StreamTransport::on_credit(const CreditReturned& ev, EventCtx& ctx) {
  nic_.on_credit(ev.bytes, ev.vc, ctx);
  if (!is_tcp_) fill_lossless(ctx);
}

void StreamTransport::on_shared_nic_credit(EventCtx& ctx) {
  if (!is_tcp_) fill_lossless(ctx);
}

// Lossless links keep one route's packets in order, but routes chosen per packet (spraying, a
// dragonfly's Valiant or UGAL routing) reorder them: bytes beyond the next expected wait in the
// out-of-order ranges as TCP's do, and a transfer ends once every byte before its end is in.
void StreamTransport::on_lossless_data(const Packet& p, EventCtx& ctx,
                                       std::vector<ReceivedTransfer>& out) {
  const std::uint64_t* stored = next_receive_offset_.find(p.src);
  const std::uint64_t expected = stored == nullptr ? 0 : *stored;
  const TcpSeq seq = tcp_unwrap(p.seq, expected);
  const TcpSeq end = seq + p.payload_bytes;
  NW_CHECK(seq >= expected, "lossless stream {} -> {}: byte {} arrived again, {} expected", p.src,
           self_, seq, expected);
  const bool last = (p.flags & packet_flags::last) != 0;
  TcpRevRanges ooo(tcp_ooo_ranges_, p.src, &ctx);
  if (seq != expected) {
    if (last) ctx.put(arrived_ends_, EndKey{p.src, 0, end}, tag_of_packet(p));
    tcp_insert_range(ooo, TcpRange{seq, end});
    return;
  }
  TcpSeq next = end;
  if (!tcp_ooo_ranges_.empty())
    if (const auto after = ooo.first_at_or_after(next); after && after->begin == next) {
      next = after->end;
      ooo.erase(after->begin);
    }
  ctx.put(next_receive_offset_, p.src, next);
  if (last) out.push_back({p.src, tag_of_packet(p)});
  if (next == end) return;  // nothing waited beyond it
  for (auto it = arrived_ends_.lower_bound(EndKey{p.src, 0, end + 1});
       it != arrived_ends_.end() && it->first.peer == p.src && it->first.end <= next;) {
    const EndKey key = it->first;
    out.push_back({p.src, it->second});
    ++it;
    ctx.erase(arrived_ends_, key);
  }
}

void StreamTransport::on_tcp_data(const Packet& p, EventCtx& ctx,
                                  std::vector<ReceivedTransfer>& out) {
  const TcpReceiverState* stored = tcp_receivers_.find(p.src);
  // A stream has no announced length: any nonzero total marks the receiver as opened.
  TcpReceiverState r = stored != nullptr ? *stored : tcp_accept(kOpenStreamTotal);
  const TcpSeq before = r.rcv_nxt;
  const TcpSeq seq = tcp_unwrap(p.seq, r.rcv_nxt);
  receiver_actions_.clear();
  TcpRevRanges ooo(tcp_ooo_ranges_, p.src, &ctx);
  tcp_on_segment(r, tcp_config_, ooo, seq, p.payload_bytes, (p.flags & packet_flags::ce) != 0,
                 ctx.now(), receiver_actions_);
  const TcpSeq end = seq + p.payload_bytes;
  if ((p.flags & packet_flags::last) != 0 && end > before)
    ctx.put(arrived_ends_, EndKey{p.src, 0, end}, tag_of_packet(p));
  if (r.rcv_nxt > before) {
    for (auto it = arrived_ends_.lower_bound(EndKey{p.src, 0, before + 1});
         it != arrived_ends_.end() && it->first.peer == p.src && it->first.end <= r.rcv_nxt;) {
      const EndKey key = it->first;
      out.push_back({p.src, it->second});
      ++it;
      ctx.erase(arrived_ends_, key);
    }
  }
  apply_receiver_actions(p.src, r, ctx);
}

void StreamTransport::send_receiver_ack(NodeId peer, TcpSeq ack, bool ece,
                                        const TcpSackBlocks& sack, EventCtx& ctx) {
  Packet p = control_packet(net_.spec().format, self_, peer, PacketKind::ack);
  p.ack = static_cast<std::uint32_t>(ack);  // the wire's 32 bits wrap
  p.flags = ece ? packet_flags::ece : 0;
  if (tcp_control_is_ect(tcp_config_)) p.flags |= packet_flags::ect;
  set_sack_blocks(p, sack);
  if (tcp_config_.sack_option_bytes) p.wire_bytes += sack_option_wire_bytes(sack.count);
  send_packet(p, ctx);
}

void StreamTransport::apply_receiver_actions(NodeId peer, const TcpReceiverState& r,
                                             EventCtx& ctx) {
  ctx.put(tcp_receivers_, peer, r);
  const TcpReceiverActions& a = receiver_actions_;
  if (a.send_prior_ack) send_receiver_ack(peer, a.prior_ack, a.prior_ece, a.prior_sack, ctx);
  if (a.send_ack) send_receiver_ack(peer, a.ack, a.ece, a.sack, ctx);
  if (a.timer.wanted)
    ctx.send_self(std::max(a.timer.at - ctx.now(), engine::ps(1)),
                  TimerFired{peer, a.timer.generation, 1 | (marked_ ? kStreamTimerBit : 0)});
}

void StreamTransport::on_tcp_ack(const Packet& p, EventCtx& ctx) {
  const TcpSenderState* stored = tcp_senders_.find(p.src);
  if (stored == nullptr) return;
  TcpSenderState s = *stored;
  sender_actions_.clear();
  TcpRevRanges scoreboard(tcp_scoreboards_, p.src, &ctx);
  tcp_on_ack(s, tcp_config_, tcp_unwrap(p.ack, s.snd_una), (p.flags & packet_flags::ece) != 0,
             tcp_unwrap(sack_blocks_of(p), s.snd_una), &scoreboard, ctx.now(), sender_actions_);
  apply_sender_actions(p.src, s, ctx);
}

void StreamTransport::on_tcp_syn_ack(const Packet& p, EventCtx& ctx) {
  const TcpSenderState* stored = tcp_senders_.find(p.src);
  if (stored == nullptr) return;
  TcpSenderState s = *stored;
  sender_actions_.clear();
  tcp_on_syn_ack(s, tcp_config_, ctx.now(), sender_actions_);
  apply_sender_actions(p.src, s, ctx);
}

// A handshake segment between this host and `peer`; flow 0, it belongs to no transfer.
void StreamTransport::send_handshake(NodeId peer, PacketKind kind, bool retransmission,
                                     EventCtx& ctx) {
  Packet p = control_packet(net_.spec().format, self_, peer, kind);
  if (is_tcp_ && tcp_control_is_ect(tcp_config_)) p.flags |= packet_flags::ect;
  p.retransmission = retransmission ? 1 : 0;
  send_packet(p, ctx);
}

void StreamTransport::on_timer(const TimerFired& ev, EventCtx& ctx) {
  if (is_roce_) return roce_.on_timer(ev, ctx, *this);
  const NodeId peer = ev.flow;
  if ((ev.is_receiver & 1) != 0) {
    TcpReceiverState r = *tcp_receivers_.find(peer);
    receiver_actions_.clear();
    tcp_on_delayed_ack_timer(r, tcp_config_, ev.generation, ctx.now(), receiver_actions_);
    apply_receiver_actions(peer, r, ctx);
    return;
  }
  TcpSenderState s = *tcp_senders_.find(peer);
  sender_actions_.clear();
  TcpRevRanges scoreboard(tcp_scoreboards_, peer, &ctx);
  tcp_on_timer(s, tcp_config_, ev.generation, &scoreboard, ctx.now(), sender_actions_);
  apply_sender_actions(peer, s, ctx);
}

void StreamTransport::apply_sender_actions(NodeId peer, const TcpSenderState& s, EventCtx& ctx) {
  ctx.put(tcp_senders_, peer, s);
  if (sender_actions_.send_syn)
    send_handshake(peer, PacketKind::syn, sender_actions_.syn_is_retransmission, ctx);
  if (sender_actions_.send_handshake_ack)
    send_handshake(peer, PacketKind::handshake_ack, false, ctx);
  for (const TcpSegment& seg : sender_actions_.segments) send_segment(peer, seg, ctx);
  const TcpTimerRequest& timer = sender_actions_.timer;
  if (timer.wanted)
    ctx.send_self(std::max(timer.at - ctx.now(), engine::ps(1)),
                  TimerFired{peer, timer.generation, marked_ ? kStreamTimerBit : 0});
  forget_acknowledged(peer, s.snd_una, ctx);
}

// A TCP segment becomes one packet per transfer it touches, so no packet mixes two transfers.
void StreamTransport::send_segment(NodeId peer, const TcpSegment& seg, EventCtx& ctx) {
  TcpSeq at = seg.seq;
  const TcpSeq stop = seg.seq + seg.length;
  auto it = unacknowledged_.lower_bound(EndKey{peer, 0, at + 1});
  while (at < stop) {
    NW_CHECK(it != unacknowledged_.end() && it->first.peer == peer,
             "connection {} -> {}: byte {} belongs to no transfer", self_, peer, at);
    const TcpSeq piece_end = std::min(it->first.end, stop);
    // The wire's 32-bit sequence number wraps (RFC 793 section 3.3).
    send_data(peer, it->second, static_cast<std::uint32_t>(at),
              static_cast<std::uint32_t>(piece_end - at), piece_end == it->first.end,
              seg.is_retransmission, ctx);
    at = piece_end;
    ++it;
  }
}

void StreamTransport::forget_acknowledged(NodeId peer, TcpSeq snd_una, EventCtx& ctx) {
  for (auto it = unacknowledged_.lower_bound(EndKey{peer, 0, 0});
       it != unacknowledged_.end() && it->first.peer == peer && it->first.end <= snd_una;) {
    const EndKey key = it->first;
    ++it;
    ctx.erase(unacknowledged_, key);
  }
}

void StreamTransport::send_data(NodeId to, const TransferTag& tag, std::uint32_t seq,
                                std::uint32_t length, bool last, bool retransmission,
                                EventCtx& ctx) {
  send_packet(data_packet(to, tag, seq, length, last, retransmission), ctx);
}

Packet StreamTransport::data_packet(NodeId to, const TransferTag& tag, std::uint32_t seq,
                                    std::uint32_t length, bool last, bool retransmission) const {
  Packet p;
  p.flow = tag.word;
  p.seq = seq;
  set_transfer_bytes(p, tag.bytes);
  p.payload_bytes = length;
  p.wire_bytes = net_.spec().format.wire_bytes(length);
  p.src = self_;
  p.dst = to;
  p.kind = PacketKind::data;
  p.flags = static_cast<std::uint8_t>((last ? packet_flags::last : 0) |
                                      (is_tcp_ && tcp_config_.sends_ect() ? packet_flags::ect : 0));
  p.retransmission = retransmission ? 1 : 0;
  p.app_kind = tag.kind;
  p.app_aux = tag.aux;
  return p;
}

// Every packet of the job carries its traffic class (NetworkSpec::stream_priority).
void StreamTransport::send_packet(Packet p, EventCtx& ctx) {
  set_priority(p, net_.spec().stream_priority);
  if (marked_ && p.app_kind == 0) p.app_kind = kStreamControlKind;
  if (traced_) ctx.emit(PacketTrace{ctx.now().ps(), self_, trace_direction::sent, p, 0});
  nic_.offer(p, ctx);
}

TransferTag StreamTransport::tag_of_packet(const Packet& p) {
  TransferTag t;
  t.bytes = transfer_bytes_of(p);
  t.aux = p.app_aux;
  t.word = p.flow;
  t.kind = p.app_kind;
  return t;
}

void StreamTransport::finish(engine::FinishCtx& ctx) const {
  if (!shared_) {
    ctx.emit(nic_.totals());
    nic_.finish(ctx);
  }
  const MessageId mark = marked_ ? kConnectionFlowBit : 0;
  for (const auto& [peer, s] : tcp_senders_) {
    FlowRecord r;
    r.flow = peer | mark;
    r.src = self_;
    r.bytes = s.total_bytes;
    r.segments_sent = s.segments_sent;
    r.retransmitted_segments = s.retransmitted_segments;
    r.duplicate_acks = s.duplicate_acks;
    r.fast_retransmits = s.fast_retransmits;
    r.timeouts = s.timeouts;
    r.syns_sent = s.syns_sent;
    r.syn_retransmissions = s.syn_retransmissions;
    r.limited_transmits = s.limited_transmits;
    ctx.emit(r);
  }
  for (NodeId peer : roce_.stream_peers()) {  // RoCE: one record per stream, as TCP's
    FlowRecord r;
    r.flow = peer | mark;
    r.src = self_;
    r.bytes = *next_send_offset_.find(peer);
    roce_.add_counters(peer, r);
    ctx.emit(r);
  }
  for (NodeId peer : roce_.stream_sources())  // out-of-order packets go-back-N dropped
    if (const std::uint64_t n = roce_.discarded_packets(peer); n != 0)
      ctx.emit(ReceiverRecord{self_ | mark, peer, self_, 0, n});
  for (const auto& [peer, r] : tcp_receivers_)  // named as the peer's FlowRecord names it
    if (r.discarded_segments != 0)
      ctx.emit(ReceiverRecord{self_ | mark, peer, self_, 0, r.discarded_segments});
}

void StreamTransport::visit_state(engine::StateVisitor& v) const {
  if (!shared_) v("nic", nic_);
  v("next_send_offset", next_send_offset_);
  v("next_receive_offset", next_receive_offset_);
  v("tcp_senders", tcp_senders_);
  v("tcp_receivers", tcp_receivers_);
  v("unacknowledged", unacknowledged_);
  v("arrived_ends", arrived_ends_);
  v("tcp_ooo_ranges", tcp_ooo_ranges_);
  v("tcp_scoreboards", tcp_scoreboards_);
  lossless_.visit_state(v);
  roce_.visit_state(v);
}

}  // namespace netwarp::netmodels
