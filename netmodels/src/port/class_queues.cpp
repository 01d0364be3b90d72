// ClassQueues: per-class admission, ECN (step or RED), strict-priority and DRR scheduling,
// counters.
#include "port/class_queues.hpp"

#include <algorithm>

#include "netwarp/netmodels/units.hpp"
#include "port/red.hpp"

namespace netwarp::netmodels {

using engine::EventCtx;

ClassQueues::ClassQueues(const std::vector<PortClassConfig>& classes, PortScheduler scheduler,
                         std::uint64_t quantum_bytes, std::uint64_t port_buffer_bytes,
                         std::uint64_t port_ecn_threshold_bytes, const RedConfig* port_red,
                         MarkAt mark_at, std::uint64_t rate_bps, const ClassSampling& sampling)
    : config_(classes),
      scheduler_(scheduler),
      quantum_bytes_(quantum_bytes),
      mark_at_dequeue_(mark_at == MarkAt::dequeue),
      frame_ps_(
          std::max(1.0, static_cast<double>(serialisation_time(quantum_bytes, rate_bps).ps()))),
      sampling_(sampling),
      classes_(classes.size()) {
  NW_CHECK(!classes.empty() && classes.size() <= kMaxPriority + 1, "{} traffic classes on a port",
           classes.size());
  std::size_t lowest = 0;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const PortClassConfig& k = classes[c];
    limit_bytes_.push_back(k.buffer_bytes != 0 ? k.buffer_bytes : port_buffer_bytes);
    threshold_bytes_.push_back(k.ecn_threshold_bytes != 0 ? k.ecn_threshold_bytes
                                                          : port_ecn_threshold_bytes);
    red_.push_back(k.red.enabled() || port_red == nullptr ? k.red : *port_red);
    by_priority_.push_back(c);
    if (k.priority < classes[lowest].priority) lowest = c;
  }
  std::sort(by_priority_.begin(), by_priority_.end(), [&](std::size_t a, std::size_t b) {
    return classes[a].priority > classes[b].priority;
  });
  class_of_priority_.fill(static_cast<std::uint8_t>(lowest));
  for (std::size_t c = 0; c < classes.size(); ++c)
    class_of_priority_[classes[c].priority] = static_cast<std::uint8_t>(c);
}

bool ClassQueues::empty() const {
  return std::all_of(classes_.begin(), classes_.end(),
                     [](const Class& k) { return k.queue.empty(); });
}

std::uint64_t ClassQueues::queued_packets() const {
  std::uint64_t n = 0;
  for (const Class& k : classes_) n += k.queue.size();
  return n;
}

std::uint64_t ClassQueues::queued_bytes() const {
  std::uint64_t n = 0;
  for (const Class& k : classes_) n += static_cast<std::uint64_t>(k.bytes.get());
  return n;
}

bool ClassQueues::has_eligible(SimTime now) const {
  for (std::size_t c = 0; c < classes_.size(); ++c)
    if (is_eligible(c, now)) return true;
  return false;
}

template <class Update>
void ClassQueues::sample(std::size_t c, EventCtx& ctx, Update update) {
  const std::int64_t length = sampling_.interval_ps;
  if (length <= 0) return;
  Class& k = classes_[c];
  ClassInterval in = k.interval.get();
  const std::int64_t index = ctx.now().ps() / length;
  if (in.index != index) {
    if (in.index >= 0) ctx.emit(class_sample(c, in));
    // The level before this change, held since the last one (one that ends at the boundary
    // itself belongs to the interval before).
    const std::uint64_t carried = ctx.now().ps() > index * length ? in.end_bytes : 0;
    in = ClassInterval{index, carried, in.end_bytes, 0, 0, 0, 0, 0, 0, 0};
  }
  update(in);
  in.end_bytes = static_cast<std::uint64_t>(k.bytes.get());
  in.max_bytes = std::max(in.max_bytes, in.end_bytes);
  ctx.set(k.interval, in);
}

SimTime ClassQueues::next_pause_end(SimTime now) const {
  SimTime end = SimTime::max();
  for (const Class& k : classes_)
    if (k.paused_until.get() > now) end = std::min(end, k.paused_until.get());
  return end;
}

// The paused time counts ahead to the pause's end; a resume or a refresh corrects it.
void ClassQueues::pause(std::size_t c, SimTime until, EventCtx& ctx) {
  Class& k = classes_[c];
  const SimTime from = std::max(ctx.now(), k.paused_until.get());
  const SimTime to = std::max(ctx.now(), until);
  ctx.add(k.paused_ps, to.ps() - from.ps());
  ctx.set(k.paused_until, to);
  ctx.add(k.pauses_received, 1);
  sample(c, ctx, [](ClassInterval& in) { ++in.pauses_received; });
}

void ClassQueues::note_pause_sent(std::size_t c, EventCtx& ctx) {
  sample(c, ctx, [](ClassInterval& in) { ++in.pauses_sent; });
}

ClassSample ClassQueues::class_sample(std::size_t c, const ClassInterval& in) const {
  ClassSample s;
  s.interval_start_ps = in.index * sampling_.interval_ps;
  s.node = sampling_.node;
  s.port = sampling_.port;
  s.priority = config_[c].priority;
  s.max_queue_bytes = in.max_bytes;
  s.end_queue_bytes = in.end_bytes;
  s.packets_sent = in.packets_sent;
  s.bytes_sent = in.bytes_sent;
  s.packets_dropped = in.packets_dropped;
  s.bytes_dropped = in.bytes_dropped;
  s.ecn_marked = in.ecn_marked;
  s.pause_frames_received = in.pauses_received;
  s.pause_frames_sent = in.pauses_sent;
  return s;
}

void ClassQueues::finish_samples(engine::FinishCtx& ctx) const {
  if (sampling_.interval_ps <= 0) return;
  for (std::size_t c = 0; c < classes_.size(); ++c) {
    const ClassInterval& in = classes_[c].interval.get();
    if (in.index >= 0 && in.index * sampling_.interval_ps < ctx.end_time().ps())
      ctx.emit(class_sample(c, in));
  }
}

bool ClassQueues::fits(std::size_t c, std::uint32_t wire_bytes) const {
  if (config_[c].lossless) return true;
  const std::uint64_t limit = limit_bytes_[c];
  const auto bytes = static_cast<std::uint64_t>(classes_[c].bytes.get());
  if (limit != 0 && bytes + wire_bytes > limit) return false;
  return pool_ == nullptr || pool_->admits(bytes, wire_bytes);
}

bool ClassQueues::mark(std::size_t c, Packet& packet, EventCtx& ctx) {
  if (mark_at_dequeue_) return false;
  return decide_mark(c, static_cast<std::uint64_t>(classes_[c].bytes.get()), packet, ctx);
}

// The queue RED compares: the instantaneous one, or its average updated with this sample.
double ClassQueues::red_sample(std::size_t c, std::uint64_t queue_bytes, EventCtx& ctx) {
  const double weight = red_[c].queue_weight;
  if (weight == 0) return static_cast<double>(queue_bytes);
  Class& k = classes_[c];
  const double idle_frames =
      queue_bytes == 0 ? static_cast<double>(ctx.now().ps() - k.idle_since.get()) / frame_ps_ : 0;
  const double avg =
      red_average(k.red_average.get(), weight, static_cast<double>(queue_bytes), idle_frames);
  ctx.set(k.red_average, avg);
  return avg;
}

bool ClassQueues::decide_mark(std::size_t c, std::uint64_t queue_bytes, Packet& packet,
                              EventCtx& ctx) {
  const bool capable = (packet.flags & packet_flags::ect) != 0;
  if (red_[c].enabled()) {
    const double p = red_probability(red_[c], red_sample(c, queue_bytes, ctx));
    if (!capable || p <= 0 || (p < 1 && !(ctx.rng().uniform() < p))) return false;
  } else {
    const std::uint64_t threshold = threshold_bytes_[c];
    if (threshold == 0 || queue_bytes < threshold || !capable) return false;
  }
  packet.flags |= packet_flags::ce;
  ctx.add(classes_[c].ecn_marked, 1);
  sample(c, ctx, [](ClassInterval& in) { ++in.ecn_marked; });
  return true;
}

void ClassQueues::set_bytes(Class& k, std::int64_t delta, EventCtx& ctx) {
  const auto before = static_cast<std::uint64_t>(k.bytes.get());
  ctx.add(k.bytes, delta);
  if (pool_ != nullptr) pool_->change(before, static_cast<std::uint64_t>(k.bytes.get()), ctx);
}

void ClassQueues::push(std::size_t c, const Packet& packet, EventCtx& ctx) {
  Class& k = classes_[c];
  ctx.push_back(k.queue, packet);
  set_bytes(k, packet.wire_bytes, ctx);
  const auto bytes = static_cast<std::uint64_t>(k.bytes.get());
  if (bytes > k.max_bytes.get()) ctx.set(k.max_bytes, bytes);
  sample(c, ctx, [](ClassInterval&) {});
}

void ClassQueues::count_drop(std::size_t c, const Packet& packet, EventCtx& ctx) {
  ctx.add(classes_[c].packets_dropped, 1);
  ctx.add(classes_[c].bytes_dropped, packet.wire_bytes);
  sample(c, ctx, [&](ClassInterval& in) {
    ++in.packets_dropped;
    in.bytes_dropped += packet.wire_bytes;
  });
}

std::size_t ClassQueues::pick_strict(SimTime now) const {
  for (std::size_t c : by_priority_)
    if (is_eligible(c, now)) return c;
  NW_CHECK(false, "pop_next on empty class queues");
  return 0;
}

// The class whose turn it is sends while its deficit covers its head packet; a class that is
// passed over (or empties) moves the turn on, and the class that gets it gains its quantum. A
// paused class (PFC) is passed over as if empty, keeping its deficit.
std::size_t ClassQueues::pick_drr(EventCtx& ctx) {
  const std::size_t n = classes_.size();
  NW_CHECK(has_eligible(ctx.now()), "DRR with no class to send");
  for (;;) {
    const auto c = static_cast<std::size_t>(round_.get());
    Class& k = classes_[c];
    if (is_eligible(c, ctx.now()) &&
        static_cast<std::uint64_t>(k.deficit.get()) >= k.queue.front().wire_bytes)
      return c;
    if (k.queue.empty() && k.deficit.get() != 0) ctx.add(k.deficit, -k.deficit.get());
    const std::size_t next = (c + 1) % n;
    ctx.set(round_, std::uint64_t{next});
    if (is_eligible(next, ctx.now()))
      ctx.add(classes_[next].deficit,
              static_cast<std::int64_t>(quantum_bytes_ * config_[next].weight));
  }
}

Packet ClassQueues::pop_next(EventCtx& ctx, bool& marked) {
  const std::size_t c = scheduler_ == PortScheduler::drr ? pick_drr(ctx) : pick_strict(ctx.now());
  Class& k = classes_[c];
  Packet packet = ctx.pop_front(k.queue);
  set_bytes(k, -std::int64_t{packet.wire_bytes}, ctx);
  ctx.add(k.packets_sent, 1);
  ctx.add(k.bytes_sent, packet.wire_bytes);
  sample(c, ctx, [&](ClassInterval& in) {
    ++in.packets_sent;
    in.bytes_sent += packet.wire_bytes;
  });
  if (k.queue.empty()) ctx.set(k.idle_since, ctx.now().ps());
  if (scheduler_ == PortScheduler::drr) {
    // A class that empties keeps no credit (DRR resets an idle class's deficit).
    const std::int64_t left = k.queue.empty() ? 0 : k.deficit.get() - packet.wire_bytes;
    ctx.add(k.deficit, left - k.deficit.get());
  }
  // Dequeue marking sees the queue the packet leaves behind.
  marked =
      mark_at_dequeue_ && decide_mark(c, static_cast<std::uint64_t>(k.bytes.get()), packet, ctx);
  return packet;
}

PortClassRecord ClassQueues::totals(std::size_t c, NodeId node, PortIndex port, SimTime end) const {
  const Class& k = classes_[c];
  PortClassRecord r;
  r.node = node;
  r.port = port;
  r.priority = config_[c].priority;
  r.packets_sent = static_cast<std::uint64_t>(k.packets_sent.get());
  r.bytes_sent = static_cast<std::uint64_t>(k.bytes_sent.get());
  r.packets_dropped = static_cast<std::uint64_t>(k.packets_dropped.get());
  r.bytes_dropped = static_cast<std::uint64_t>(k.bytes_dropped.get());
  r.ecn_marked = static_cast<std::uint64_t>(k.ecn_marked.get());
  r.max_queue_bytes = k.max_bytes.get();
  r.pause_frames_received = static_cast<std::uint64_t>(k.pauses_received.get());
  const SimTime until = k.paused_until.get();
  r.paused_ps = k.paused_ps.get() - (until > end ? until.ps() - end.ps() : 0);
  if (until > end && !k.queue.empty()) r.queued_at_end_bytes = static_cast<std::uint64_t>(k.bytes);
  return r;
}

void ClassQueues::visit_bytes(engine::StateVisitor& v) const {
  for (const Class& k : classes_) {
    engine::visit_value(v, k.queue);
    engine::visit_value(v, k.bytes);
    engine::visit_value(v, k.deficit);
    engine::visit_value(v, k.packets_sent);
    engine::visit_value(v, k.bytes_sent);
    engine::visit_value(v, k.packets_dropped);
    engine::visit_value(v, k.bytes_dropped);
    engine::visit_value(v, k.ecn_marked);
    engine::visit_value(v, k.max_bytes);
    engine::visit_value(v, k.red_average);
    engine::visit_value(v, k.idle_since);
    engine::visit_value(v, k.paused_until);
    engine::visit_value(v, k.paused_ps);
    engine::visit_value(v, k.pauses_received);
    engine::visit_value(v, k.interval);
  }
  engine::visit_value(v, round_);
}

}  // namespace netwarp::netmodels
