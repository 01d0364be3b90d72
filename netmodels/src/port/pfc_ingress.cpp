// PfcIngress: per-class ingress bytes, XOFF / XON decisions, headroom overflows.
#include "port/pfc_ingress.hpp"

#include <algorithm>
#include <cmath>

#include "netwarp/netmodels/output_port.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {

using engine::EventCtx;

namespace {
// A packet is counted once its last bit is in, so bytes pass XOFF by at most the packet that
// crosses it; the PAUSE waits for the frame on the reverse wire, takes its own time and the
// latency to arrive, and upstream finishes its frame: meanwhile the link delivers at its rate
// for the PAUSE's time, the round trip and that frame.
std::uint64_t link_headroom(std::uint64_t rate_bps, SimTime latency, std::uint64_t max_frame) {
  const auto in_flight = static_cast<std::uint64_t>(
      std::ceil(static_cast<double>(rate_bps) * static_cast<double>(latency.ps()) * 1e-12 / 8 * 2));
  return in_flight + 3 * max_frame + kPauseFrameWireBytes;
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

std::uint64_t PfcIngress::beyond_xoff(const Class& k, std::uint32_t wire_bytes,
                                      std::uint64_t xoff_bytes) {
  const auto below = static_cast<std::uint64_t>(k.bytes.get() - k.headroom.get());
  const std::uint64_t room = xoff_bytes > below ? xoff_bytes - below : 0;
  return wire_bytes > room ? wire_bytes - room : 0;
}

bool PfcIngress::admits(std::size_t c, std::uint32_t wire_bytes, std::uint64_t xoff_bytes,
                        EventCtx& ctx) {
  Class& k = classes_[c];
  const std::uint64_t wanted =
      static_cast<std::uint64_t>(k.headroom.get()) + beyond_xoff(k, wire_bytes, xoff_bytes);
  if (wanted <= headroom_bytes_) return true;
  ctx.add(k.overflows, 1);
  if (wanted > k.max_headroom.get()) ctx.set(k.max_headroom, wanted);
  const std::uint64_t held = static_cast<std::uint64_t>(k.bytes.get()) + wire_bytes;
  if (held > k.max_bytes.get()) ctx.set(k.max_bytes, held);
  return false;
}

PfcIngress::Action PfcIngress::take(std::size_t c, std::uint32_t wire_bytes,
                                    std::uint64_t xoff_bytes, EventCtx& ctx) {
  Class& k = classes_[c];
  const std::uint64_t to_headroom = beyond_xoff(k, wire_bytes, xoff_bytes);
  ctx.add(k.bytes, std::int64_t{wire_bytes});
  if (to_headroom != 0) {
    ctx.add(k.headroom, static_cast<std::int64_t>(to_headroom));
    const auto in_headroom = static_cast<std::uint64_t>(k.headroom.get());
    if (in_headroom > k.max_headroom.get()) ctx.set(k.max_headroom, in_headroom);
  }
  const auto bytes = static_cast<std::uint64_t>(k.bytes.get());
  if (bytes > k.max_bytes.get()) ctx.set(k.max_bytes, bytes);
  return decide(k, xoff_bytes);
}

PfcIngress::Action PfcIngress::release(std::size_t c, std::uint32_t wire_bytes,
                                       std::uint64_t xoff_bytes, EventCtx& ctx) {
  Class& k = classes_[c];
  const std::int64_t from_headroom = std::min(k.headroom.get(), std::int64_t{wire_bytes});
  if (from_headroom != 0) ctx.add(k.headroom, -from_headroom);
  ctx.add(k.bytes, -std::int64_t{wire_bytes});
  return decide(k, xoff_bytes);
}

PfcIngress::Action PfcIngress::decide(const Class& k, std::uint64_t xoff_bytes) const {
  const auto bytes = static_cast<std::uint64_t>(k.bytes.get());
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
  r.max_headroom_bytes = k.max_headroom.get();
  r.headroom_bytes = headroom_bytes_;
}

void PfcIngress::visit_bytes(engine::StateVisitor& v) const {
  for (const Class& k : classes_) {
    engine::visit_value(v, k.bytes);
    engine::visit_value(v, k.headroom);
    engine::visit_value(v, k.max_bytes);
    engine::visit_value(v, k.max_headroom);
    engine::visit_value(v, k.refresh_at);
    engine::visit_value(v, k.refresh_event_at);
    engine::visit_value(v, k.paused);
    engine::visit_value(v, k.frames_sent);
    engine::visit_value(v, k.overflows);
  }
}

}  // namespace netwarp::netmodels
