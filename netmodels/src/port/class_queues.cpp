// ClassQueues: per-class admission, step ECN, strict-priority and DRR scheduling, counters.
#include "port/class_queues.hpp"

#include <algorithm>

namespace netwarp::netmodels {

using engine::EventCtx;

ClassQueues::ClassQueues(const std::vector<PortClassConfig>& classes, PortScheduler scheduler,
                         std::uint64_t quantum_bytes, std::uint64_t port_buffer_bytes,
                         std::uint64_t port_ecn_threshold_bytes)
    : config_(classes),
      scheduler_(scheduler),
      quantum_bytes_(quantum_bytes),
      classes_(classes.size()) {
  NW_CHECK(!classes.empty() && classes.size() <= kMaxPriority + 1, "{} traffic classes on a port",
           classes.size());
  std::size_t lowest = 0;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const PortClassConfig& k = classes[c];
    limit_bytes_.push_back(k.buffer_bytes != 0 ? k.buffer_bytes : port_buffer_bytes);
    threshold_bytes_.push_back(k.ecn_threshold_bytes != 0 ? k.ecn_threshold_bytes
                                                          : port_ecn_threshold_bytes);
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

bool ClassQueues::fits(std::size_t c, std::uint32_t wire_bytes) const {
  const std::uint64_t limit = limit_bytes_[c];
  return limit == 0 || static_cast<std::uint64_t>(classes_[c].bytes.get()) + wire_bytes <= limit;
}

bool ClassQueues::mark(std::size_t c, Packet& packet, EventCtx& ctx) {
  const std::uint64_t threshold = threshold_bytes_[c];
  if (threshold == 0 || static_cast<std::uint64_t>(classes_[c].bytes.get()) < threshold ||
      (packet.flags & packet_flags::ect) == 0)
    return false;
  packet.flags |= packet_flags::ce;
  ctx.add(classes_[c].ecn_marked, 1);
  return true;
}

void ClassQueues::push(std::size_t c, const Packet& packet, EventCtx& ctx) {
  Class& k = classes_[c];
  ctx.push_back(k.queue, packet);
  ctx.add(k.bytes, packet.wire_bytes);
  const auto bytes = static_cast<std::uint64_t>(k.bytes.get());
  if (bytes > k.max_bytes.get()) ctx.set(k.max_bytes, bytes);
}

void ClassQueues::count_drop(std::size_t c, const Packet& packet, EventCtx& ctx) {
  ctx.add(classes_[c].packets_dropped, 1);
  ctx.add(classes_[c].bytes_dropped, packet.wire_bytes);
}

std::size_t ClassQueues::pick_strict() const {
  for (std::size_t c : by_priority_)
    if (!classes_[c].queue.empty()) return c;
  NW_CHECK(false, "pop_next on empty class queues");
  return 0;
}

// The class whose turn it is sends while its deficit covers its head packet; a class that is
// passed over (or empties) moves the turn on, and the class that gets it gains its quantum.
std::size_t ClassQueues::pick_drr(EventCtx& ctx) {
  const std::size_t n = classes_.size();
  for (;;) {
    const auto c = static_cast<std::size_t>(round_.get());
    Class& k = classes_[c];
    if (!k.queue.empty() &&
        static_cast<std::uint64_t>(k.deficit.get()) >= k.queue.front().wire_bytes)
      return c;
    if (k.queue.empty() && k.deficit.get() != 0) ctx.add(k.deficit, -k.deficit.get());
    const std::size_t next = (c + 1) % n;
    ctx.set(round_, std::uint64_t{next});
    if (!classes_[next].queue.empty())
      ctx.add(classes_[next].deficit,
              static_cast<std::int64_t>(quantum_bytes_ * config_[next].weight));
  }
}

Packet ClassQueues::pop_next(EventCtx& ctx) {
  const std::size_t c = scheduler_ == PortScheduler::drr ? pick_drr(ctx) : pick_strict();
  Class& k = classes_[c];
  const Packet packet = ctx.pop_front(k.queue);
  ctx.add(k.bytes, -std::int64_t{packet.wire_bytes});
  ctx.add(k.packets_sent, 1);
  ctx.add(k.bytes_sent, packet.wire_bytes);
  if (scheduler_ == PortScheduler::drr) {
    // A class that empties keeps no credit (DRR resets an idle class's deficit).
    const std::int64_t left = k.queue.empty() ? 0 : k.deficit.get() - packet.wire_bytes;
    ctx.add(k.deficit, left - k.deficit.get());
  }
  return packet;
}

void ClassQueues::emit_totals(NodeId node, PortIndex port, engine::FinishCtx& ctx) const {
  for (std::size_t c = 0; c < classes_.size(); ++c) {
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
    if (r.packets_sent != 0 || r.packets_dropped != 0) ctx.emit(r);
  }
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
  }
  engine::visit_value(v, round_);
}

}  // namespace netwarp::netmodels
