// ClassQueues: the traffic-class queues of one output port (SwitchConfig::classes) and the
// scheduler that picks the next packet for the line: strict priority or deficit round robin
// (Shreedhar and Varghese, "Efficient fair queuing using deficit round robin", 1995: each class
// visited in turn gains weight x quantum bytes of credit and sends while its head packet fits).
// ECN marking per class: RED (red.hpp) or a step threshold, decided on admission or when the
// packet leaves its queue (SwitchConfig::mark_at). With a shared buffer (SharedPool) a class is
// admitted by the pool's dynamic threshold besides its own limit. With time series
// (OutputSpec::sample_interval) each class sums its sampling interval and emits a ClassSample
// for every interval in which it changed.
// Part of an OutputPort: reversible state, changed through the event's context.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/lp.hpp"
#include "netwarp/engine/reversible.hpp"
#include "netwarp/netmodels/network_config.hpp"
#include "netwarp/netmodels/packet.hpp"
#include "netwarp/netmodels/records.hpp"
#include "port/shared_pool.hpp"

namespace netwarp::netmodels {

// A class's sums over its current sampling interval; eight-byte fields only (no padding).
struct ClassInterval {
  std::int64_t index = -1;  // start = index x length; -1: no change yet
  std::uint64_t max_bytes = 0;
  std::uint64_t end_bytes = 0;  // after the interval's last change
  std::uint64_t packets_sent = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t packets_dropped = 0;
  std::uint64_t bytes_dropped = 0;
  std::uint64_t ecn_marked = 0;
  std::uint64_t pauses_received = 0;
  std::uint64_t pauses_sent = 0;
  void visit_bytes(engine::StateVisitor& v) const { v.bytes(this, sizeof *this); }
};

// Where a port's class time series go; interval_ps 0: none.
struct ClassSampling {
  NodeId node = 0;
  PortIndex port = 0;
  std::int64_t interval_ps = 0;
};

class ClassQueues {
 public:
  // `quantum_bytes`: DRR's quantum of weight 1, at least the largest frame.
  // `port_red`: RED for classes without their own (null or off: step marking); `rate_bps`: the
  // line's, for RED's idle decay.
  ClassQueues(const std::vector<PortClassConfig>& classes, PortScheduler scheduler,
              std::uint64_t quantum_bytes, std::uint64_t port_buffer_bytes,
              std::uint64_t port_ecn_threshold_bytes, const RedConfig* port_red, MarkAt mark_at,
              std::uint64_t rate_bps, const ClassSampling& sampling = {});
  void attach_pool(SharedPool* pool) { pool_ = pool; }

  // The class a packet queues in: its priority's, or the lowest class when none names it.
  std::size_t class_of(const Packet& packet) const {
    return class_of_priority_[priority_of(packet)];
  }
  std::size_t class_of_priority(std::uint8_t priority) const {
    return class_of_priority_[priority & kMaxPriority];
  }
  std::size_t class_count() const { return classes_.size(); }
  std::uint8_t priority(std::size_t c) const { return config_[c].priority; }
  bool is_lossless(std::size_t c) const { return config_[c].lossless; }
  // Whether class c may take the packet: its limit and the shared pool's threshold (lossless
  // classes: always, PFC keeps them within bounds).
  bool fits(std::size_t c, std::uint32_t wire_bytes) const;
  // ECN on admission (mark_at enqueue): marks an ECN-capable packet, returns whether it did.
  bool mark(std::size_t c, Packet& packet, engine::EventCtx& ctx);
  void push(std::size_t c, const Packet& packet, engine::EventCtx& ctx);
  void count_drop(std::size_t c, const Packet& packet, engine::EventCtx& ctx);
  bool empty() const;
  // Whether a class has a packet and is not paused (PFC) at `now`.
  bool has_eligible(SimTime now) const;
  // PFC: the earliest end after `now` of a class's pause (SimTime::max(): none paused).
  SimTime next_pause_end(SimTime now) const;
  // PFC: class c may not send until `until` (now: resumed). Counts the PAUSE frame.
  void pause(std::size_t c, SimTime until, engine::EventCtx& ctx);
  // PFC: the port sent a PAUSE or resume frame for class c up its link (time series only).
  void note_pause_sent(std::size_t c, engine::EventCtx& ctx);
  std::uint64_t queued_packets() const;
  std::uint64_t queued_bytes() const;
  // Class c's queue (waiting, not on the wire).
  std::uint64_t class_bytes(std::size_t c) const {
    return static_cast<std::uint64_t>(classes_[c].bytes.get());
  }
  std::uint64_t class_packets(std::size_t c) const { return classes_[c].queue.size(); }
  // Removes the packet the scheduler sends next (not empty()); `marked`: whether dequeue
  // marking (mark_at dequeue) marked it.
  Packet pop_next(engine::EventCtx& ctx, bool& marked);

  // One PortClassRecord per class that did anything; `fill` adds the ingress side's counters.
  template <class Fill>
  void emit_totals(NodeId node, PortIndex port, engine::FinishCtx& ctx, Fill fill) const {
    for (std::size_t c = 0; c < classes_.size(); ++c) {
      PortClassRecord r = totals(c, node, port, ctx.end_time());
      fill(c, r);
      if (r.packets_sent != 0 || r.packets_dropped != 0 || r.pause_frames_received != 0 ||
          r.pause_frames_sent != 0 || r.ingress_overflows != 0)
        ctx.emit(r);
    }
  }
  // At the end of the run: each class's last sampling interval, if it began before the end.
  void finish_samples(engine::FinishCtx& ctx) const;
  void visit_bytes(engine::StateVisitor& v) const;

 private:
  struct Class {
    engine::RevFifo<Packet> queue;
    engine::RevCounter bytes;  // queued, not yet on the wire
    engine::RevCounter deficit;
    engine::RevCounter packets_sent;
    engine::RevCounter bytes_sent;
    engine::RevCounter packets_dropped;
    engine::RevCounter bytes_dropped;
    engine::RevCounter ecn_marked;
    engine::Rev<std::uint64_t> max_bytes;
    engine::Rev<double> red_average;       // RED's EWMA of the queue (queue_weight > 0)
    engine::Rev<std::int64_t> idle_since;  // ps: when the queue last emptied
    engine::Rev<SimTime> paused_until;     // PFC
    engine::RevCounter paused_ps;          // counts ahead to paused_until
    engine::RevCounter pauses_received;
    engine::Rev<ClassInterval> interval;  // time series (ClassSampling)
  };
  bool is_eligible(std::size_t c, SimTime now) const {
    return !classes_[c].queue.empty() && classes_[c].paused_until.get() <= now;
  }
  PortClassRecord totals(std::size_t c, NodeId node, PortIndex port, SimTime end) const;
  // Marks `packet` by the class's RED or step threshold on a queue of `queue_bytes`.
  bool decide_mark(std::size_t c, std::uint64_t queue_bytes, Packet& packet, engine::EventCtx& ctx);
  double red_sample(std::size_t c, std::uint64_t queue_bytes, engine::EventCtx& ctx);
  void set_bytes(Class& k, std::int64_t delta, engine::EventCtx& ctx);
  // Time series: class c's interval brought to now (a finished one emitted), `update` applied,
  // its queue level noted.
  template <class Update>
  void sample(std::size_t c, engine::EventCtx& ctx, Update update);
  ClassSample class_sample(std::size_t c, const ClassInterval& in) const;
  std::size_t pick_strict(SimTime now) const;
  std::size_t pick_drr(engine::EventCtx& ctx);

  const std::vector<PortClassConfig> config_;  // by index
  const PortScheduler scheduler_;
  const std::uint64_t quantum_bytes_;
  std::vector<std::uint64_t> limit_bytes_;      // per class; 0: unlimited
  std::vector<std::uint64_t> threshold_bytes_;  // per class; 0: no marking
  std::vector<RedConfig> red_;                  // per class; off: step marking
  const bool mark_at_dequeue_;
  const double frame_ps_;  // one quantum on the line: RED's idle time unit
  const ClassSampling sampling_;
  SharedPool* pool_ = nullptr;
  std::vector<std::size_t> by_priority_;  // class indices, highest priority first
  std::array<std::uint8_t, kMaxPriority + 1> class_of_priority_{};
  std::vector<Class> classes_;
  engine::Rev<std::uint64_t> round_;  // DRR: the class whose turn it is
};

}  // namespace netwarp::netmodels
