// ClassQueues: the traffic-class queues of one output port (SwitchConfig::classes) and the
// scheduler that picks the next packet for the line: strict priority or deficit round robin
// (Shreedhar and Varghese, "Efficient fair queuing using deficit round robin", 1995: each class
// visited in turn gains weight x quantum bytes of credit and sends while its head packet fits).
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

namespace netwarp::netmodels {

class ClassQueues {
 public:
  // `quantum_bytes`: DRR's quantum of weight 1, at least the largest frame.
  ClassQueues(const std::vector<PortClassConfig>& classes, PortScheduler scheduler,
              std::uint64_t quantum_bytes, std::uint64_t port_buffer_bytes,
              std::uint64_t port_ecn_threshold_bytes);

  // The class a packet queues in: its priority's, or the lowest class when none names it.
  std::size_t class_of(const Packet& packet) const {
    return class_of_priority_[priority_of(packet)];
  }
  bool fits(std::size_t c, std::uint32_t wire_bytes) const;
  // Step ECN on the class's queue: marks an ECN-capable packet, returns whether it did.
  bool mark(std::size_t c, Packet& packet, engine::EventCtx& ctx);
  void push(std::size_t c, const Packet& packet, engine::EventCtx& ctx);
  void count_drop(std::size_t c, const Packet& packet, engine::EventCtx& ctx);
  bool empty() const;
  std::uint64_t queued_packets() const;
  std::uint64_t queued_bytes() const;
  // Removes the packet the scheduler sends next (not empty()).
  Packet pop_next(engine::EventCtx& ctx);

  void emit_totals(NodeId node, PortIndex port, engine::FinishCtx& ctx) const;
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
  };
  std::size_t pick_strict() const;
  std::size_t pick_drr(engine::EventCtx& ctx);

  const std::vector<PortClassConfig> config_;  // by index
  const PortScheduler scheduler_;
  const std::uint64_t quantum_bytes_;
  std::vector<std::uint64_t> limit_bytes_;      // per class; 0: unlimited
  std::vector<std::uint64_t> threshold_bytes_;  // per class; 0: no marking
  std::vector<std::size_t> by_priority_;        // class indices, highest priority first
  std::array<std::uint8_t, kMaxPriority + 1> class_of_priority_{};
  std::vector<Class> classes_;
  engine::Rev<std::uint64_t> round_;  // DRR: the class whose turn it is
};

}  // namespace netwarp::netmodels
