// Lazy one-shot timers shared by the TCP sender (RTO) and receiver (delayed ACK). A state keeps
// a deadline (-1: off), the time of the one live timer event (-1: none) and a generation that
// names it. Moving the deadline later costs nothing: the live event fires early, sees the
// later deadline and asks for one more event there. Moving it earlier asks for a new event
// with the next generation, which makes the old one stale, so at most one event is live.
#pragma once

#include <cstdint>

#include "netwarp/netmodels/tcp.hpp"

namespace netwarp::netmodels::tcp_detail {

// Deadline set to `deadline_ps`: asks for an event only if none is live at or before it.
inline void arm_lazy_timer(std::int64_t deadline_ps, std::int64_t& pending_ps,
                           std::uint32_t& generation, TcpTimerRequest& out) {
  if (pending_ps != -1 && pending_ps <= deadline_ps) return;
  pending_ps = deadline_ps;
  ++generation;
  out = TcpTimerRequest{true, SimTime::from_ps(deadline_ps), generation};
}

enum class TimerEvent : std::uint8_t {
  stale,  // superseded by a later request: touch nothing
  off,    // the live event, but the timer was stopped meanwhile
  early,  // the live event, before a deadline that moved later: re-arm
  due,    // the live event at or past the deadline: the timer expires
};

// Classifies a fired timer event; the live one is no longer pending afterwards.
inline TimerEvent classify_timer_event(std::uint32_t event_generation, std::int64_t deadline_ps,
                                       std::int64_t& pending_ps, std::uint32_t generation,
                                       SimTime now) {
  if (event_generation != generation) return TimerEvent::stale;
  pending_ps = -1;
  if (deadline_ps == -1) return TimerEvent::off;
  if (now.ps() < deadline_ps) return TimerEvent::early;
  return TimerEvent::due;
}

}  // namespace netwarp::netmodels::tcp_detail
