// SharedPool: a switch's buffer shared by all its queues (SwitchConfig::shared_buffer), with the
// dynamic thresholds of Choudhury and Hahne ("Dynamic queue length thresholds for shared-memory
// packet switches", IEEE/ACM ToN 6(2), 1998): each queue (output port and class) owns
// reserved_bytes; beyond that, it may grow while its excess stays within alpha x the free shared
// bytes, the shared part being the pool less every queue's reservation. A queue's bytes leave
// the pool when its packet leaves the queue for the wire (as the egress accounting of the
// shared-buffer switch in the HPCC ns-3 code, SwitchMmu, releases them on dequeue).
// Owned by the SwitchLp (reversible state changed through the event's context). Its occupancy
// goes into the outputs: a PoolSample after every change while the switch has a traced port
// (queues.csv), and a PoolIntervalSample per sampling interval it held bytes in (the time series).
#pragma once

#include <cstdint>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/lp.hpp"
#include "netwarp/engine/reversible.hpp"
#include "netwarp/netmodels/network_config.hpp"
#include "netwarp/netmodels/port_intervals.hpp"

namespace netwarp::netmodels {

// What a pool reports of its occupancy (see above); the defaults report nothing.
struct PoolOutputs {
  NodeId node = 0;
  bool traced = false;                  // PoolSample per change
  std::int64_t sample_interval_ps = 0;  // PoolIntervalSample per interval; 0: none
};

class SharedPool {
 public:
  // `queues`: the switch's queues (ports x classes), each with its reservation.
  SharedPool(const SharedBufferConfig& config, std::uint64_t queues,
             const PoolOutputs& outputs = {});

  // Whether a queue holding `queue_bytes` may take `wire_bytes` more.
  bool admits(std::uint64_t queue_bytes, std::uint32_t wire_bytes) const;
  // A queue went from `before` to `after` bytes.
  void change(std::uint64_t before, std::uint64_t after, engine::EventCtx& ctx);

  std::uint64_t used_bytes() const { return static_cast<std::uint64_t>(used_.get()); }
  std::uint64_t max_used_bytes() const { return max_used_.get(); }
  std::uint64_t shared_bytes() const { return shared_bytes_; }
  // The most a queue may hold beyond its reservation now: alpha x the free shared bytes.
  double threshold_bytes() const;
  // At the end of the run: the sampling interval it ends in.
  void finish(engine::FinishCtx& ctx) const;
  void visit_bytes(engine::StateVisitor& v) const;

 private:
  std::uint64_t free_bytes() const;
  std::uint64_t excess(std::uint64_t queue_bytes) const {
    return queue_bytes > reserved_bytes_ ? queue_bytes - reserved_bytes_ : 0;
  }
  PoolIntervalSample interval_sample(const PortInterval& closed, std::uint64_t intervals) const;
  void advance_interval(std::int64_t delta, engine::EventCtx& ctx);

  const double alpha_;
  const std::uint64_t reserved_bytes_;
  const std::uint64_t shared_bytes_;  // the pool less the reservations
  const PoolOutputs outputs_;
  engine::RevCounter used_;         // every queue's bytes
  engine::RevCounter shared_used_;  // the bytes queues hold beyond their reservations
  engine::Rev<std::uint64_t> max_used_;
  engine::Rev<PortInterval> interval_;  // the current sampling interval's sums
};

}  // namespace netwarp::netmodels
