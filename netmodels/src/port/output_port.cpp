// OutputPort: admission (drop-tail, ECN), serialisation and propagation, credit back-pressure.
#include "netwarp/netmodels/output_port.hpp"

#include <algorithm>
#include <deque>
#include <mutex>

#include "netwarp/netmodels/records.hpp"
#include "netwarp/netmodels/stream_transport.hpp"
#include "netwarp/netmodels/units.hpp"
#include "port/class_queues.hpp"
#include "port/pfc_ingress.hpp"

namespace netwarp::netmodels {

using engine::EventCtx;

namespace queue_event {
inline constexpr std::uint8_t admitted = 0;
inline constexpr std::uint8_t departed = 1;
inline constexpr std::uint8_t dropped = 2;
}  // namespace queue_event

namespace {
std::array<engine::RevCounter, kVirtualChannels> full_credits(std::uint64_t bytes) {
  std::array<engine::RevCounter, kVirtualChannels> credits;
  credits.fill(engine::RevCounter(static_cast<std::int64_t>(bytes)));
  return credits;
}
}  // namespace

// Interned for the life of the process: a run has a handful of distinct policies (host NICs,
// switch ports toward hosts and toward switches), and a policy never changes once made.
const OutputPort::PortPolicy* OutputPort::PortPolicy::intern(const PortSettings& settings) {
  PortPolicy policy;
  policy.buffer_bytes = settings.buffer_bytes;
  policy.ecn_threshold_bytes = settings.ecn_threshold_bytes;
  policy.credit_bytes = settings.credit_bytes;
  policy.sample_interval_ps = settings.sample_interval_ps;
  policy.jitter = settings.jitter;
  policy.buffer_packets = settings.buffer_packets;
  policy.count_frame_in_service = settings.count_frame_in_service;
  policy.arrival_first = settings.arrival_first;
  policy.record_drops = settings.record_drops;
  policy.mark_ns3_red = settings.mark_ns3_red;
  policy.frame_overhead_bytes = settings.mark_ns3_red ? settings.frame_overhead_bytes : 0;
  static std::mutex mutex;
  static std::deque<PortPolicy> policies;  // a deque never moves what it holds
  const std::lock_guard<std::mutex> lock(mutex);
  const auto found = std::find(policies.begin(), policies.end(), policy);
  return found != policies.end() ? &*found : &policies.emplace_back(policy);
}

OutputPort::OutputPort(const PortSettings& settings)
    : link_(settings.link),
      node_(settings.node),
      index_(settings.index),
      traced_(settings.traced),
      mirrored_(settings.mirrored),
      policy_(PortPolicy::intern(settings)),
      credits_(full_credits(settings.credit_bytes)) {
  if (settings.classes == nullptr) return;
  NW_CHECK(settings.credit_bytes == 0, "traffic classes with credit flow control at node {}",
           settings.node);
  classes_ = std::make_unique<ClassQueues>(
      *settings.classes, settings.scheduler, settings.quantum_bytes, settings.buffer_bytes,
      settings.ecn_threshold_bytes, settings.red, settings.mark_at, settings.link.rate_bps,
      ClassSampling{settings.node, settings.index, settings.sample_interval_ps});
  if (settings.pfc != nullptr && settings.pfc->enabled)
    pfc_ = std::make_unique<PfcIngress>(*settings.pfc, settings.classes->size(),
                                        settings.link.rate_bps, settings.link.latency,
                                        settings.quantum_bytes);
}

SimTime pause_end(const Port& link, std::uint32_t quanta, SimTime now) {
  return now.saturating_add(serialisation_time(std::uint64_t{quanta} * 64, link.rate_bps));
}

void OutputPort::attach_pool(SharedPool* pool) {
  NW_CHECK(classes_ != nullptr, "a shared buffer on a port without classes at node {}", node_);
  classes_->attach_pool(pool);
}

OutputPort::OutputPort(OutputPort&&) noexcept = default;
OutputPort::~OutputPort() = default;

std::uint64_t OutputPort::buffered_packets() const {
  std::uint64_t n = in_flight_.size();
  if (policy_->credit_bytes != 0)  // only credit flow control holds packets back
    for (const auto& w : waiting_) n += w.size();
  if (classes_) n += classes_->queued_packets();
  return n;
}

// The frame on the wire: the oldest scheduled one once its first bit has gone.
std::uint64_t OutputPort::in_service_bytes(SimTime now) const {
  if (in_flight_.empty() || in_flight_.front().start_ps > now.ps()) return 0;
  return in_flight_.front().wire_bytes;
}

bool OutputPort::fits(std::uint32_t wire_bytes, SimTime now) const {
  std::uint64_t bytes = buffered_bytes();
  std::uint64_t packets = buffered_packets();
  if (!policy_->count_frame_in_service) {
    const std::uint64_t on_wire = in_service_bytes(now);
    bytes -= on_wire;
    packets -= on_wire != 0 ? 1 : 0;
  }
  if (policy_->buffer_bytes != 0 && bytes + wire_bytes > policy_->buffer_bytes) return false;
  return policy_->buffer_packets == 0 || packets + 1 <= policy_->buffer_packets;
}

// SwitchConfig::mark_ns3_red: ns-3's queue disc holds what waits behind the frame on the wire
// and the one in the one-packet device queue, as IP packets (no frame overhead).
std::uint64_t OutputPort::queue_disc_bytes(SimTime now) const {
  const std::size_t skipped = in_service_bytes(now) != 0 ? 2 : 1;
  std::uint64_t bytes = 0;
  for (std::size_t i = skipped; i < in_flight_.size(); ++i)
    bytes += in_flight_[i].wire_bytes - policy_->frame_overhead_bytes;
  return bytes;
}

// RedQueueDisc::DoEnqueue with MinTh = MaxTh = the threshold and QW 1: at or above it an
// ECN-capable arrival is marked (and counted, even if the limit then drops it), one that is not
// is dropped; then the internal queue's byte limit.
bool OutputPort::admit_ns3_red(Packet& packet, EventCtx& ctx) {
  const std::uint64_t queued = queue_disc_bytes(ctx.now());
  const std::uint64_t threshold = policy_->ecn_threshold_bytes;
  if (threshold != 0 && queued >= threshold && queued > 1) {
    if ((packet.flags & packet_flags::ect) == 0) return false;
    packet.flags |= packet_flags::ce;
    ctx.add(ecn_marked_, 1);
  }
  const std::uint64_t ip_bytes = packet.wire_bytes - policy_->frame_overhead_bytes;
  return policy_->buffer_bytes == 0 || queued + ip_bytes <= policy_->buffer_bytes;
}

void OutputPort::count_injected_drop(const Packet& packet, EventCtx& ctx) {
  ctx.add(packets_dropped_, 1);
  ctx.add(bytes_dropped_, packet.wire_bytes);
  record_drop(packet, ctx);
}

void OutputPort::record_drop(const Packet& packet, EventCtx& ctx) const {
  if (!policy_->record_drops) return;
  ctx.emit(DropRecord{ctx.now().ps(), packet.flow, node_, index_,
                      static_cast<std::uint8_t>(is_stream_packet(packet) ? 1 : 0), 0,
                      packet.wire_bytes});
}

bool OutputPort::offer(Packet packet, EventCtx& ctx, TransmitObserver* observer) {
  PortInterval interval = current_interval();
  expire(ctx, !policy_->arrival_first, interval);
  advance_interval(interval, ctx.now().ps(), ctx);
  if (classes_) return offer_to_class(packet, interval, ctx, observer);
  const bool is_admitted =
      policy_->mark_ns3_red ? admit_ns3_red(packet, ctx) : fits(packet.wire_bytes, ctx.now());
  if (!is_admitted) {
    drop(packet, interval, ctx);
    return false;
  }
  if (policy_->mark_ns3_red) {
    account_admitted(packet, ctx);
  } else {
    admit(packet, ctx);
  }
  note_level(interval, buffered_bytes());
  store_interval(interval, ctx);
  const auto vc = static_cast<std::uint8_t>(packet.vc + link_.vc_step);
  NW_CHECK(vc < kVirtualChannels, "packet of flow {} needs virtual channel {} of {}", packet.flow,
           vc, kVirtualChannels);
  const bool has_credit_control = policy_->credit_bytes != 0;
  if (has_credit_control && (!waiting_[vc].empty() || credits_[vc].get() < packet.wire_bytes)) {
    ctx.push_back(waiting_[vc], packet);
  } else {
    if (has_credit_control) ctx.add(credits_[vc], -std::int64_t{packet.wire_bytes});
    transmit(packet, vc, ctx, observer);
  }
  sample(ctx, ctx.now(), queue_event::admitted);
  return true;
}

// Drop-tail: counted in the totals and in the current sampling interval.
void OutputPort::drop(const Packet& packet, PortInterval& interval, EventCtx& ctx) {
  ctx.add(packets_dropped_, 1);
  ctx.add(bytes_dropped_, packet.wire_bytes);
  ++interval.packets_dropped;
  interval.bytes_dropped += packet.wire_bytes;
  store_interval(interval, ctx);
  sample(ctx, ctx.now(), queue_event::dropped);
  record_drop(packet, ctx);
}

void OutputPort::on_credit(std::uint64_t bytes, std::uint8_t vc, EventCtx& ctx,
                           TransmitObserver* observer) {
  NW_CHECK(vc < kVirtualChannels, "credit for virtual channel {}", vc);
  PortInterval interval = current_interval();
  expire(ctx, true, interval);
  store_interval(interval, ctx);
  ctx.add(credits_[vc], static_cast<std::int64_t>(bytes));
  auto& waiting = waiting_[vc];
  while (!waiting.empty() && credits_[vc].get() >= waiting.front().wire_bytes) {
    const Packet packet = ctx.pop_front(waiting);
    ctx.add(credits_[vc], -std::int64_t{packet.wire_bytes});
    transmit(packet, vc, ctx, observer);
  }
}

// With classes: the port's limits and the class's (or the shared pool's), ECN on admission
// (mark_at enqueue) on the class's queue; the packet waits in its class unless the line is free.
bool OutputPort::offer_to_class(Packet& packet, PortInterval& interval, EventCtx& ctx,
                                TransmitObserver* observer) {
  const std::size_t c = classes_->class_of(packet);
  const bool is_admitted = classes_->is_lossless(c) || (fits(packet.wire_bytes, ctx.now()) &&
                                                        classes_->fits(c, packet.wire_bytes));
  if (!is_admitted) {
    classes_->count_drop(c, packet, ctx);
    sample_class(ctx, c, queue_event::dropped);
    drop(packet, interval, ctx);
    return false;
  }
  if (classes_->mark(c, packet, ctx)) ctx.add(ecn_marked_, 1);
  account_admitted(packet, ctx);
  note_level(interval, buffered_bytes());
  store_interval(interval, ctx);
  classes_->push(c, packet, ctx);
  sample_class(ctx, c, queue_event::admitted);
  if (free_at_.get() <= ctx.now() && classes_->has_eligible(ctx.now()))
    serve_classes(ctx, observer);
  sample(ctx, ctx.now(), queue_event::admitted);
  return true;
}

void OutputPort::on_ready(EventCtx& ctx, TransmitObserver* observer) {
  PortInterval interval = current_interval();
  expire(ctx, true, interval);
  store_interval(interval, ctx);
  if (pause_wake_at_.get() == ctx.now()) wake_at_pause_end(ctx);
  if (free_at_.get() > ctx.now()) {  // a PAUSE frame took the line after this was scheduled
    if (!classes_->empty()) ready_at(free_at_.get(), ctx);
    return;
  }
  if (classes_->has_eligible(ctx.now())) serve_classes(ctx, observer);
}

void OutputPort::ready_at(SimTime at, EventCtx& ctx) {
  if (ready_at_.get() == at) return;
  ctx.send_self(std::max(at - ctx.now(), engine::ps(1)), PortReady{index_, 0});
  if (at > ready_at_.get()) ctx.set(ready_at_, at);
}

// --- PFC ----------------------------------------------------------------------------------

// One PortReady pending for the earliest pause end, re-armed when it fires. A PAUSE lasts up to
// 65535 quanta (335 us at 100 Gbit/s) and is usually ended early by a resume: a wake-up per
// PAUSE kept hundreds of stale events in the queue of a paused incast.
void OutputPort::wake_at_pause_end(EventCtx& ctx) {
  const SimTime end = classes_->next_pause_end(ctx.now());
  if (end == SimTime::max()) return;
  const SimTime pending = pause_wake_at_.get();
  if (pending > ctx.now() && pending <= end) return;
  ctx.send_self(end - ctx.now(), PortReady{index_, 0});
  ctx.set(pause_wake_at_, end);
}

bool OutputPort::is_lossless(const Packet& packet) const {
  return pfc_ != nullptr && classes_->is_lossless(classes_->class_of(packet));
}

void OutputPort::on_pause(std::uint8_t priority, SimTime until, EventCtx& ctx,
                          TransmitObserver* observer) {
  PortInterval interval = current_interval();
  expire(ctx, true, interval);
  store_interval(interval, ctx);
  classes_->pause(classes_->class_of_priority(priority), until, ctx);
  if (until > ctx.now()) return wake_at_pause_end(ctx);  // the class may send again then
  if (free_at_.get() <= ctx.now() && classes_->has_eligible(ctx.now()))
    serve_classes(ctx, observer);
}

bool OutputPort::admit_ingress(const Packet& packet, std::uint64_t xoff_bytes, EventCtx& ctx) {
  const std::size_t c = classes_->class_of(packet);
  if (!pfc_->admits(c, packet.wire_bytes, xoff_bytes, ctx)) return false;
  const auto action = pfc_->take(c, packet.wire_bytes, xoff_bytes, ctx);
  if (action == PfcIngress::Action::pause) send_pause_frame(c, pfc_->pause_quanta(), ctx);
  return true;
}

void OutputPort::release_ingress(const Packet& packet, std::uint64_t xoff_bytes, EventCtx& ctx) {
  const std::size_t c = classes_->class_of(packet);
  const auto action = pfc_->release(c, packet.wire_bytes, xoff_bytes, ctx);
  if (action == PfcIngress::Action::resume) send_pause_frame(c, 0, ctx);
}

void OutputPort::on_pause_refresh(std::uint8_t priority, std::uint64_t xoff_bytes, EventCtx& ctx) {
  const std::size_t c = classes_->class_of_priority(priority);
  if (pfc_->refresh_due(c, xoff_bytes, ctx.now())) {
    send_pause_frame(c, pfc_->pause_quanta(), ctx);
  } else {
    arm_pause_refresh(c, ctx);  // a later PAUSE moved the refresh
  }
}

// One PfcRefresh pending per class, for the earliest refresh due; firing early, it is sent
// again for the refresh of the PAUSE then in effect.
void OutputPort::arm_pause_refresh(std::size_t c, EventCtx& ctx) {
  const SimTime at = pfc_->next_refresh_event(c, ctx.now());
  if (at == SimTime::max()) return;
  ctx.send_self(at - ctx.now(),
                PfcRefresh{index_, static_cast<std::uint8_t>(classes_->priority(c)), {}});
  pfc_->note_refresh_event(c, at, ctx);
}

// MAC control frames wait for the frame on the wire, then go before any queued packet.
void OutputPort::send_pause_frame(std::size_t c, std::uint32_t quanta, EventCtx& ctx) {
  const SimTime start = std::max(ctx.now(), free_at_.get());
  const SimTime done =
      start.saturating_add(serialisation_time(kPauseFrameWireBytes, link_.rate_bps));
  ctx.set(free_at_, done);
  const auto priority = static_cast<std::uint8_t>(classes_->priority(c));
  ctx.send(link_.peer, done.saturating_add(link_.latency) - ctx.now(),
           PauseFrame{link_.peer_port, priority, 0, quanta});
  classes_->note_pause_sent(c, ctx);
  if (quanta == 0) {
    pfc_->note_resume_sent(c, ctx);
  } else {
    const SimTime half =
        std::max(SimTime::from_ps(pause_end(link_, quanta, SimTime{}).ps() / 2), engine::ps(1));
    pfc_->note_pause_sent(c, ctx.now() + half, ctx);
    arm_pause_refresh(c, ctx);
  }
  if (!classes_->empty()) ready_at(done, ctx);
}

// The scheduler's packet goes on the wire; the line calls again when its last bit has left.
void OutputPort::serve_classes(EventCtx& ctx, TransmitObserver* observer) {
  bool marked = false;
  const Packet packet = classes_->pop_next(ctx, marked);
  sample_class(ctx, classes_->class_of(packet), queue_event::departed);
  if (marked) ctx.add(ecn_marked_, 1);
  const auto vc = static_cast<std::uint8_t>(packet.vc + link_.vc_step);
  NW_CHECK(vc < kVirtualChannels, "packet of flow {} needs virtual channel {} of {}", packet.flow,
           vc, kVirtualChannels);
  transmit(packet, vc, ctx, observer);
  ready_at(free_at_.get(), ctx);
}

// Departures before now leave the buffer, and those at now too unless an arrival at the same
// instant is to be admitted first (PortSettings::arrival_first).
void OutputPort::expire(EventCtx& ctx, bool include_now, PortInterval& interval) {
  const std::int64_t upto = include_now ? ctx.now().ps() : ctx.now().ps() - 1;
  while (!in_flight_.empty() && in_flight_.front().done_ps <= upto) {
    advance_interval(interval, in_flight_.front().done_ps, ctx);
    const InFlight gone = ctx.pop_front(in_flight_);
    ctx.add(buffered_bytes_, -static_cast<std::int64_t>(gone.wire_bytes));
    note_level(interval, buffered_bytes());
    sample(ctx, SimTime::from_ps(gone.done_ps), queue_event::departed);
  }
}

void OutputPort::admit(Packet& packet, EventCtx& ctx) {
  const std::uint64_t threshold = policy_->ecn_threshold_bytes;
  if (threshold != 0 && buffered_bytes() >= threshold && (packet.flags & packet_flags::ect)) {
    packet.flags |= packet_flags::ce;
    ctx.add(ecn_marked_, 1);
  }
  account_admitted(packet, ctx);
}

void OutputPort::account_admitted(const Packet& packet, EventCtx& ctx) {
  ctx.add(buffered_bytes_, packet.wire_bytes);
  if (buffered_bytes() > max_bytes_.get()) ctx.set(max_bytes_, buffered_bytes());
  if (buffered_packets() + 1 > max_packets_.get()) ctx.set(max_packets_, buffered_packets() + 1);
}

void OutputPort::transmit(const Packet& packet, std::uint8_t vc, EventCtx& ctx,
                          TransmitObserver* observer) {
  SimTime start = std::max(ctx.now(), free_at_.get());
  if (policy_->jitter.ps() > 0) start += random_gap(ctx);
  const SimTime done = start.saturating_add(serialisation_time(packet.wire_bytes, link_.rate_bps));
  ctx.set(free_at_, done);
  ctx.push_back(in_flight_, InFlight{start.ps(), done.ps(), packet.wire_bytes});
  if (first_sent_ps_.get() < 0) ctx.set(first_sent_ps_, start.ps());
  if (mirrored_)
    ctx.emit(PacketTrace{start.ps(), node_, trace_direction::port_departure, packet, index_});
  ctx.add(packets_sent_, 1);
  ctx.add(bytes_sent_, packet.wire_bytes);
  if (observer != nullptr) observer->transmitted(packet, done, ctx);
  Packet onward = packet;
  onward.in_port = link_.peer_port;
  onward.vc = vc;
  const SimTime arrival = done.saturating_add(link_.latency);
  if (!ctx.follows_chains())
    return ctx.send(link_.peer, arrival - ctx.now(), PacketArrived{onward});
  const engine::TieFields fields = engine::scheduled_by(start_fields(ctx), start);
  ctx.set(last_sent_, fields);
  ctx.send_stamped(link_.peer, arrival - ctx.now(), PacketArrived{onward}, fields);
}

// The tie fields of the event that starts the frame just scheduled, as ns-3 runs it: on a busy
// line the completion of the frame before it (whose fields its arrival has), on an idle line the
// event now running. When the line frees now, ns-3 runs the one scheduled first (section 3 of
// validation/ns3/SEMANTICS.md) and the other starts the frame: the later of the two.
engine::TieFields OutputPort::start_fields(const EventCtx& ctx) const {
  const engine::TieFields running = ctx.running_fields();
  // in_flight_ ends with the frame just scheduled; the one before it is the previous frame.
  if (in_flight_.size() < 2) return running;
  const InFlight& previous = in_flight_[in_flight_.size() - 2];
  if (previous.done_ps < ctx.now().ps()) return running;
  if (previous.done_ps > ctx.now().ps()) return last_sent_.get();
  return std::max(last_sent_.get(), running);
}

// A uniform random gap in [0, jitter] before a packet goes on the wire, also when the port is
// busy: back-to-back senders are what phase-locks (ns-2's per-packet "overhead" does the same).
SimTime OutputPort::random_gap(EventCtx& ctx) const {
  const auto bound = static_cast<std::uint64_t>(policy_->jitter.ps()) + 1;
  return SimTime::from_ps(static_cast<SimTime::Rep>(ctx.rng().below(bound)));
}

void OutputPort::sample(EventCtx& ctx, SimTime at, std::uint8_t event) {
  if (!traced_) return;
  ctx.emit(QueueSample{at.ps(), node_, index_, event, 0, buffered_bytes(), buffered_packets()});
}

// A traced port's class queue after a change: `reserved` holds 1 + its priority (0 marks the
// port's rows); departed: the packet left the class's queue for the wire.
void OutputPort::sample_class(EventCtx& ctx, std::size_t c, std::uint8_t event) {
  if (!traced_) return;
  ctx.emit(QueueSample{ctx.now().ps(), node_, index_, event,
                       static_cast<std::uint8_t>(1 + classes_->priority(c)),
                       classes_->class_bytes(c), classes_->class_packets(c)});
}

// --- sampling intervals (OutputSpec::sample_interval) --------------------------------------

PortLevel OutputPort::level() const {
  return PortLevel{buffered_bytes(),
                   in_flight_.empty() ? PortLevel::kLineIdle : in_flight_.front().start_ps};
}

void OutputPort::advance_interval(PortInterval& interval, std::int64_t at_ps, EventCtx& ctx) const {
  if (!is_sampled()) return;
  const std::int64_t length = policy_->sample_interval_ps;
  advance(interval, at_ps, level(), length,
          [&](const PortInterval& closed, std::uint64_t intervals) {
            ctx.emit(to_sample(closed, length, node_, index_, intervals));
          });
}

void OutputPort::store_interval(const PortInterval& interval, EventCtx& ctx) {
  if (is_sampled()) ctx.set(interval_, interval);
}

// The departures before the end, then the interval the run ends in (cut at the end).
void OutputPort::finish_intervals(engine::FinishCtx& ctx) const {
  if (!is_sampled() || interval_.get().index < 0) return;
  const std::int64_t length = policy_->sample_interval_ps;
  const std::int64_t end = ctx.end_time().ps();
  const auto emit = [&](const PortInterval& closed, std::uint64_t intervals = 1) {
    ctx.emit(to_sample(closed, length, node_, index_, intervals));
  };
  PortInterval interval = interval_.get();
  PortLevel now{buffered_bytes(), PortLevel::kLineIdle};
  for (const InFlight& f : in_flight_) {
    now.line_start_ps = f.start_ps;
    if (f.done_ps >= end) break;
    advance(interval, f.done_ps, now, length, emit);
    now.bytes -= f.wire_bytes;
    note_level(interval, now.bytes);
    now.line_start_ps = PortLevel::kLineIdle;
  }
  const std::int64_t last = std::min(end, (interval.index + 1) * length);
  if (last > interval.integrated_ps) integrate(interval, last, now);
  if (is_active(interval)) emit(interval);
}

PortRecord OutputPort::totals() const {
  PortRecord r;
  r.node = node_;
  r.port = index_;
  r.peer = link_.peer;
  r.packets_sent = static_cast<std::uint64_t>(packets_sent_.get());
  r.bytes_sent = static_cast<std::uint64_t>(bytes_sent_.get());
  r.packets_dropped = static_cast<std::uint64_t>(packets_dropped_.get());
  r.bytes_dropped = static_cast<std::uint64_t>(bytes_dropped_.get());
  r.ecn_marked = static_cast<std::uint64_t>(ecn_marked_.get());
  r.max_queue_bytes = max_bytes_.get();
  r.max_queue_packets = max_packets_.get();
  r.busy_until_ps = free_at_.get().ps();
  r.first_sent_ps = first_sent_ps_.get();
  return r;
}

void OutputPort::finish(engine::FinishCtx& ctx) const {
  finish_intervals(ctx);
  if (classes_)
    classes_->emit_totals(node_, index_, ctx, [&](std::size_t c, PortClassRecord& r) {
      if (pfc_) pfc_->fill(c, r);
    });
  if (classes_) classes_->finish_samples(ctx);
  if (!traced_) return;
  std::uint64_t bytes = buffered_bytes();
  std::uint64_t packets = buffered_packets();
  for (const InFlight& f : in_flight_) {
    if (f.done_ps >= ctx.end_time().ps()) break;
    bytes -= f.wire_bytes;
    --packets;
    ctx.emit(QueueSample{f.done_ps, node_, index_, queue_event::departed, 0, bytes, packets});
  }
}

void OutputPort::visit_bytes(engine::StateVisitor& v) const {
  engine::visit_value(v, free_at_);
  engine::visit_value(v, last_sent_);
  engine::visit_value(v, in_flight_);
  for (const auto& w : waiting_) engine::visit_value(v, w);
  engine::visit_value(v, buffered_bytes_);
  for (const auto& c : credits_) engine::visit_value(v, c);
  engine::visit_value(v, packets_sent_);
  engine::visit_value(v, bytes_sent_);
  engine::visit_value(v, packets_dropped_);
  engine::visit_value(v, bytes_dropped_);
  engine::visit_value(v, ecn_marked_);
  engine::visit_value(v, max_bytes_);
  engine::visit_value(v, max_packets_);
  engine::visit_value(v, first_sent_ps_);
  engine::visit_value(v, interval_);
  if (!classes_) return;
  classes_->visit_bytes(v);
  engine::visit_value(v, ready_at_);
  engine::visit_value(v, pause_wake_at_);
  if (pfc_) pfc_->visit_bytes(v);
}

std::uint64_t OutputPort::queued_bytes(SimTime now) const {
  std::uint64_t bytes = buffered_bytes();
  for (const InFlight& f : in_flight_) {
    if (f.done_ps > now.ps()) break;
    bytes -= f.wire_bytes;
  }
  return bytes;
}

SimTime OutputPort::backlog(SimTime now) const {
  std::uint64_t waiting_bytes = 0;
  if (policy_->credit_bytes != 0)
    for (const auto& channel : waiting_)
      for (const Packet& packet : channel) waiting_bytes += packet.wire_bytes;
  if (classes_) waiting_bytes += classes_->queued_bytes();
  const SimTime line = free_at_.get() > now ? free_at_.get() - now : SimTime{};
  return line.saturating_add(serialisation_time(waiting_bytes, link_.rate_bps));
}

}  // namespace netwarp::netmodels
