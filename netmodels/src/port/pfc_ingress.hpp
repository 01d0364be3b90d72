// PfcIngress: PFC's ingress accounting (IEEE 802.1Qbb) on one switch port: per lossless class,
// the bytes the switch holds that arrived on this port's link, and whether a PAUSE is in
// effect upstream. It decides; the OutputPort sends the frames on its line (the reverse link).
// XOFF: the configured threshold, or alpha x the shared pool's free bytes; XON: the configured
// one, or (dynamic XOFF) two max frames below XOFF. Headroom: the configured bytes, or what the
// link holds in flight while the PAUSE travels and takes effect: 2 x latency x rate, two max
// frames (the one this port is sending before the PAUSE, the one upstream is sending when it
// arrives) and the PAUSE frame itself.
#pragma once

#include <cstdint>
#include <vector>

#include "netwarp/engine/event_ctx.hpp"
#include "netwarp/engine/lp.hpp"
#include "netwarp/engine/reversible.hpp"
#include "netwarp/netmodels/network_config.hpp"
#include "netwarp/netmodels/records.hpp"

namespace netwarp::netmodels {

class PfcIngress {
 public:
  enum class Action : std::uint8_t { none, pause, resume };

  PfcIngress(const PfcConfig& config, std::size_t classes, std::uint64_t link_rate_bps,
             SimTime link_latency, std::uint64_t max_frame_bytes);

  // Whether class c may take `wire_bytes` more within XOFF + headroom; counts an overflow, whose
  // bytes count in the most held (what the headroom would have had to take).
  bool admits(std::size_t c, std::uint32_t wire_bytes, std::uint64_t xoff_bytes,
              engine::EventCtx& ctx);
  // `delta` bytes more or less held; what to send up the link.
  Action change(std::size_t c, std::int64_t delta, std::uint64_t xoff_bytes, engine::EventCtx& ctx);
  // The refresh due now for class c: whether to send the PAUSE again.
  bool refresh_due(std::size_t c, std::uint64_t xoff_bytes, SimTime now) const;
  // A PAUSE went up for class c; its refresh is due at `refresh_at`.
  void note_pause_sent(std::size_t c, SimTime refresh_at, engine::EventCtx& ctx);
  void note_resume_sent(std::size_t c, engine::EventCtx& ctx);
  // When a PfcRefresh for class c must be scheduled (SimTime::max(): none, one is pending for
  // the refresh due or earlier, or no PAUSE is in effect); note_refresh_event: it was.
  SimTime next_refresh_event(std::size_t c, SimTime now) const;
  void note_refresh_event(std::size_t c, SimTime at, engine::EventCtx& ctx);
  std::uint32_t pause_quanta() const { return config_.pause_quanta; }

  void fill(std::size_t c, PortClassRecord& r) const;
  void visit_bytes(engine::StateVisitor& v) const;

 private:
  struct Class {
    engine::RevCounter bytes;
    engine::Rev<std::uint64_t> max_bytes;
    engine::Rev<SimTime> refresh_at;        // of the PAUSE in effect; 0: none in effect
    engine::Rev<SimTime> refresh_event_at;  // the PfcRefresh pending (if later than now)
    engine::Rev<std::uint8_t> paused;
    engine::RevCounter frames_sent;
    engine::RevCounter overflows;
    engine::Rev<std::uint64_t> overflow_limit;
  };
  std::uint64_t xon_bytes(std::uint64_t xoff_bytes) const;

  const PfcConfig config_;
  const std::uint64_t headroom_bytes_;
  const std::uint64_t max_frame_bytes_;
  std::vector<Class> classes_;
};

}  // namespace netwarp::netmodels
