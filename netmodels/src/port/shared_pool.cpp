// SharedPool: dynamic-threshold admission and occupancy of a switch's shared buffer.
#include "port/shared_pool.hpp"

namespace netwarp::netmodels {

namespace {
std::uint64_t shared_part(const SharedBufferConfig& config, std::uint64_t queues) {
  const std::uint64_t reserved = config.reserved_bytes * queues;
  NW_CHECK(reserved < config.bytes, "{} queues reserve {} B of a {} B shared buffer", queues,
           reserved, config.bytes);
  return config.bytes - reserved;
}
}  // namespace

SharedPool::SharedPool(const SharedBufferConfig& config, std::uint64_t queues)
    : alpha_(config.alpha),
      reserved_bytes_(config.reserved_bytes),
      shared_bytes_(shared_part(config, queues)) {}

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
  ctx.add(used_, static_cast<std::int64_t>(after) - static_cast<std::int64_t>(before));
  const auto shared_delta =
      static_cast<std::int64_t>(excess(after)) - static_cast<std::int64_t>(excess(before));
  if (shared_delta != 0) ctx.add(shared_used_, shared_delta);
  if (used_bytes() > max_used_.get()) ctx.set(max_used_, used_bytes());
}

void SharedPool::visit_bytes(engine::StateVisitor& v) const {
  engine::visit_value(v, used_);
  engine::visit_value(v, shared_used_);
  engine::visit_value(v, max_used_);
}

}  // namespace netwarp::netmodels
