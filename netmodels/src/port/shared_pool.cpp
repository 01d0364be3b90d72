// SharedPool: dynamic-threshold admission and occupancy of a switch's shared buffer.
#include "port/shared_pool.hpp"

#include <algorithm>

namespace netwarp::netmodels {

namespace {
std::uint64_t shared_part(const SharedBufferConfig& config, std::uint64_t queues) {
  const std::uint64_t reserved = config.reserved_bytes * queues;
  NW_CHECK(reserved < config.bytes, "{} queues reserve {} B of a {} B shared buffer", queues,
           reserved, config.bytes);
  return config.bytes - reserved;
}
}  // namespace

SharedPool::SharedPool(const SharedBufferConfig& config, std::uint64_t queues,
                       const PoolOutputs& outputs)
    : alpha_(config.alpha),
      reserved_bytes_(config.reserved_bytes),
      shared_bytes_(shared_part(config, queues)),
      outputs_(outputs) {}

// Lossless classes (PFC) are admitted by their ingress headroom and may overfill the pool.
std::uint64_t SharedPool::free_bytes() const {
  const auto used = static_cast<std::uint64_t>(shared_used_.get());
  return used < shared_bytes_ ? shared_bytes_ - used : 0;
}

double SharedPool::threshold_bytes() const {
  return alpha_ * static_cast<double>(free_bytes());
}

bool SharedPool::admits(std::uint64_t queue_bytes, std::uint32_t wire_bytes) const {
  const std::uint64_t after = excess(queue_bytes + wire_bytes);
  if (after == 0) return true;  // within the queue's reservation
  const std::uint64_t grows = after - excess(queue_bytes);
  return grows <= free_bytes() && static_cast<double>(after) <= threshold_bytes();
}

void SharedPool::change(std::uint64_t before, std::uint64_t after, engine::EventCtx& ctx) {
  const std::int64_t delta = static_cast<std::int64_t>(after) - static_cast<std::int64_t>(before);
  if (outputs_.sample_interval_ps > 0) advance_interval(delta, ctx);
  ctx.add(used_, delta);
  if (outputs_.traced) ctx.emit(PoolSample{ctx.now().ps(), outputs_.node, 0, used_bytes()});
  const auto shared_delta =
      static_cast<std::int64_t>(excess(after)) - static_cast<std::int64_t>(excess(before));
  if (shared_delta != 0) ctx.add(shared_used_, shared_delta);
  if (used_bytes() > max_used_.get()) ctx.set(max_used_, used_bytes());
}

// The occupancy is a step function of time: the interval's sums run up to now at the level
// before the change, then see the level after it (as an OutputPort's, without a line).
void SharedPool::advance_interval(std::int64_t delta, engine::EventCtx& ctx) {
  PortInterval interval = interval_.get();
  advance(interval, ctx.now().ps(), PortLevel{used_bytes(), PortLevel::kLineIdle},
          outputs_.sample_interval_ps, [&](const PortInterval& closed, std::uint64_t n) {
            ctx.emit(interval_sample(closed, n));
          });
  note_level(interval, static_cast<std::uint64_t>(static_cast<std::int64_t>(used_bytes()) + delta));
  ctx.set(interval_, interval);
}

PoolIntervalSample SharedPool::interval_sample(const PortInterval& closed,
                                               std::uint64_t intervals) const {
  const PortSample s = to_sample(closed, outputs_.sample_interval_ps, outputs_.node, 0, intervals);
  return PoolIntervalSample{s.interval_start_ps, outputs_.node,      0,
                            s.max_queue_bytes,   s.mean_queue_bytes, intervals};
}

// The interval the run ends in, cut at the end (as OutputPort::finish_intervals).
void SharedPool::finish(engine::FinishCtx& ctx) const {
  PortInterval interval = interval_.get();
  if (outputs_.sample_interval_ps <= 0 || interval.index < 0) return;
  const std::int64_t last =
      std::min(ctx.end_time().ps(), (interval.index + 1) * outputs_.sample_interval_ps);
  if (last > interval.integrated_ps)
    integrate(interval, last, PortLevel{used_bytes(), PortLevel::kLineIdle});
  if (is_active(interval)) ctx.emit(interval_sample(interval, 1));
}

void SharedPool::visit_bytes(engine::StateVisitor& v) const {
  engine::visit_value(v, used_);
  engine::visit_value(v, shared_used_);
  engine::visit_value(v, max_used_);
  engine::visit_value(v, interval_);
}

}  // namespace netwarp::netmodels
