// PfcIngress: per-class ingress bytes, XOFF / XON decisions, headroom overflows.
#include "port/pfc_ingress.hpp"

#include "netwarp/netmodels/output_port.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {

using engine::EventCtx;

namespace {
std::uint64_t link_headroom(std::uint64_t rate_bps, SimTime latency, std::uint64_t max_frame) {
  const auto in_flight = static_cast<std::uint64_t>(
      static_cast<double>(rate_bps) * static_cast<double>(latency.ps()) * 1e-12 / 8 * 2);
  return in_flight + 2 * max_frame + kPauseFrameWireBytes;
}
}  // namespace

PfcIngress::PfcIngress(const PfcConfig& config, std::size_t classes, std::uint64_t link_rate_bps,
                       SimTime link_latency, std::uint64_t max_frame_bytes)
    : config_(config),
      headroom_bytes_(config.headroom_bytes != 0
                          ? config.headroom_bytes
                          : link_headroom(link_rate_bps, link_latency, max_frame_bytes)),
      max_frame_bytes_(max_frame_bytes),
      classes_(classes) {}

std::uint64_t PfcIngress::xon_bytes(std::uint64_t xoff_bytes) const {
  if (config_.xoff_bytes != 0) return config_.xon_bytes;
  return xoff_bytes > 2 * max_frame_bytes_ ? xoff_bytes - 2 * max_frame_bytes_ : 0;
}

bool PfcIngress::admits(std::size_t c, std::uint32_t wire_bytes, std::uint64_t xoff_bytes,
                        EventCtx& ctx) {
  Class& k = classes_[c];
  const std::uint64_t limit = xoff_bytes + headroom_bytes_;
  if (static_cast<std::uint64_t>(k.bytes.get()) + wire_bytes <= limit) return true;
  if (k.overflows.get() == 0) ctx.set(k.overflow_limit, limit);
  ctx.add(k.overflows, 1);
  const std::uint64_t wanted = static_cast<std::uint64_t>(k.bytes.get()) + wire_bytes;
  if (wanted > k.max_bytes.get()) ctx.set(k.max_bytes, wanted);
  return false;
}

PfcIngress::Action PfcIngress::change(std::size_t c, std::int64_t delta, std::uint64_t xoff_bytes,
                                      EventCtx& ctx) {
  Class& k = classes_[c];
  ctx.add(k.bytes, delta);
  const auto bytes = static_cast<std::uint64_t>(k.bytes.get());
  if (bytes > k.max_bytes.get()) ctx.set(k.max_bytes, bytes);
  if (k.paused.get() == 0 && bytes > xoff_bytes) return Action::pause;
  if (k.paused.get() != 0 && bytes <= xon_bytes(xoff_bytes)) return Action::resume;
  return Action::none;
}

bool PfcIngress::refresh_due(std::size_t c, std::uint64_t xoff_bytes, SimTime now) const {
  const Class& k = classes_[c];
  return k.paused.get() != 0 && k.refresh_at.get() == now &&
         static_cast<std::uint64_t>(k.bytes.get()) > xon_bytes(xoff_bytes);
}

void PfcIngress::note_pause_sent(std::size_t c, SimTime refresh_at, EventCtx& ctx) {
  Class& k = classes_[c];
  if (k.paused.get() == 0) ctx.set(k.paused, std::uint8_t{1});
  ctx.set(k.refresh_at, refresh_at);
  ctx.add(k.frames_sent, 1);
}

SimTime PfcIngress::next_refresh_event(std::size_t c, SimTime now) const {
  const Class& k = classes_[c];
  const SimTime due = k.refresh_at.get();
  if (k.paused.get() == 0 || due <= now) return SimTime::max();
  const SimTime pending = k.refresh_event_at.get();
  return pending > now && pending <= due ? SimTime::max() : due;
}

void PfcIngress::note_refresh_event(std::size_t c, SimTime at, EventCtx& ctx) {
  ctx.set(classes_[c].refresh_event_at, at);
}

void PfcIngress::note_resume_sent(std::size_t c, EventCtx& ctx) {
  Class& k = classes_[c];
  ctx.set(k.paused, std::uint8_t{0});
  ctx.set(k.refresh_at, SimTime{});
  ctx.add(k.frames_sent, 1);
}

void PfcIngress::fill(std::size_t c, PortClassRecord& r) const {
  const Class& k = classes_[c];
  r.pause_frames_sent = static_cast<std::uint64_t>(k.frames_sent.get());
  r.max_ingress_bytes = k.max_bytes.get();
  r.ingress_overflows = static_cast<std::uint64_t>(k.overflows.get());
  r.ingress_limit_bytes = k.overflow_limit.get();
}

void PfcIngress::visit_bytes(engine::StateVisitor& v) const {
  for (const Class& k : classes_) {
    engine::visit_value(v, k.bytes);
    engine::visit_value(v, k.max_bytes);
    engine::visit_value(v, k.refresh_at);
    engine::visit_value(v, k.refresh_event_at);
    engine::visit_value(v, k.paused);
    engine::visit_value(v, k.frames_sent);
    engine::visit_value(v, k.overflows);
    engine::visit_value(v, k.overflow_limit);
  }
}

}  // namespace netwarp::netmodels
