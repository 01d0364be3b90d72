// PfcIngress: PFC's ingress accounting (IEEE 802.1Qbb) on one switch port: per lossless class,
// the bytes the switch holds that arrived on this port's link, and whether a PAUSE is in
// effect upstream. It decides; the OutputPort sends the frames on its line (the reverse link).
// XOFF: the configured threshold, or alpha x the shared pool's free bytes; XON: the configured
// one, or (dynamic XOFF) two max frames below XOFF. The headroom holds what comes in beyond XOFF
// (a packet that crosses it, in part), apart from the bytes held below it, as a switch's
// headroom buffer does: a dynamic XOFF that falls below what a port already holds takes nothing
// from it. Its size: the configured bytes, or what can still arrive once a packet crosses XOFF
// (link_headroom): that packet, the frame this port is sending before the PAUSE can go, the
// PAUSE frame, the link's round trip at its rate, and the frame upstream is sending when the
// PAUSE arrives.
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

  // Whether class c may take `wire_bytes` more: what passes XOFF must fit in the headroom's free
  // bytes. Counts an overflow, whose bytes count in the most held and the most headroom wanted.
  bool admits(std::size_t c, std::uint32_t wire_bytes, std::uint64_t xoff_bytes,
              engine::EventCtx& ctx);
  // `wire_bytes` more held (admitted), or fewer (gone on the wire: out of the headroom first);
  // what to send up the link.
  Action take(std::size_t c, std::uint32_t wire_bytes, std::uint64_t xoff_bytes,
              engine::EventCtx& ctx);
  Action release(std::size_t c, std::uint32_t wire_bytes, std::uint64_t xoff_bytes,
                 engine::EventCtx& ctx);
  std::uint64_t headroom_bytes() const { return headroom_bytes_; }
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
    engine::RevCounter bytes;     // held in all
    engine::RevCounter headroom;  // of them, in the headroom (came in beyond XOFF)
    engine::Rev<std::uint64_t> max_bytes;
    engine::Rev<std::uint64_t> max_headroom;
    engine::Rev<SimTime> refresh_at;        // of the PAUSE in effect; 0: none in effect
    engine::Rev<SimTime> refresh_event_at;  // the PfcRefresh pending (if later than now)
    engine::Rev<std::uint8_t> paused;
    engine::RevCounter frames_sent;
    engine::RevCounter overflows;
  };
  std::uint64_t xon_bytes(std::uint64_t xoff_bytes) const;
  // Of `wire_bytes` more, those beyond XOFF: what the headroom must take.
  static std::uint64_t beyond_xoff(const Class& k, std::uint32_t wire_bytes,
                                   std::uint64_t xoff_bytes);
  Action decide(const Class& k, std::uint64_t xoff_bytes) const;

  const PfcConfig config_;
  const std::uint64_t headroom_bytes_;
  const std::uint64_t max_frame_bytes_;
  std::vector<Class> classes_;
};

}  // namespace netwarp::netmodels
