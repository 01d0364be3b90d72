// GVT by all-reduce with transient-message accounting (after the synchronous scheme of ROSS's
// mpi_allreduce GVT): every rank drains what has arrived and contributes (messages sent -
// received, earliest time it holds) to one reduction. A message sent before its sender
// contributed but not received before its receiver contributed keeps the sum above zero; so a
// zero sum means nothing was in transit and the minimum of that same reduction is GVT.
// Otherwise drain and reduce again: messages received while draining may roll LPs back.
//
// Nothing is sent during a round. A message flushed just before contributing would often still
// be in transit when the other ranks contribute, and cost another pass; so what waits in the
// outgoing batches stays there, and counts in the rank's minimum instead (local_min). While a
// reduction runs, a rank keeps handling its own events (sends held, nothing received).
// Everything it handles then is at or after the minimum it contributed, so at or after GVT:
// nothing it does can be committed by this round, and the counts it contributed stay exact.
// Waiting for a slower rank becomes useful work, and as no pass sends, the second pass finds
// nothing in transit unless a message is very slow.
//
// The safe horizon rides on the same reduction. Once nothing is in transit, a message can reach
// a rank only from what some rank still holds: an unsent entry of an outgoing batch (its own
// time), or a send of an event yet to run, or to run again after a rollback. Such an event is no
// earlier than the earliest pending event (a rollback is set off by a pending event or a
// message, and redoes only later ones), so its sends to another rank are at least the lookahead
// later. Below the least of these, nothing a rank has handled can be rolled back.
//
// A rank with nothing to do waits as IdleWait does, with naps of 20 us at most: napping longer
// costs more than it saves when only one other process competes for the cores.
#include "idle_wait.hpp"
#include "time_warp_pe.hpp"

namespace netwarp::engine {

GvtResult compute_gvt(TimeWarpPe& pe, RankExchange& exchange,
                      const std::function<std::size_t()>& work) {
  IdleWait wait(std::chrono::microseconds(20), exchange.shares_cpus());
  for (;;) {
    pe.poll_incoming();
    exchange.start_sum_and_min(pe.messages_sent() - pe.messages_received(), pe.local_min().ps(),
                               pe.local_horizon().ps());
    std::int64_t in_transit = 0;
    std::int64_t earliest = 0;
    std::int64_t horizon = 0;
    pe.hold_sends(true);
    while (!exchange.try_finish_sum_and_min(in_transit, earliest, horizon)) {
      if (work() > 0) {
        wait.busy();
      } else {
        wait.idle();
      }
    }
    pe.hold_sends(false);
    NW_CHECK(in_transit >= 0, "more messages received than sent ({})", in_transit);
    if (in_transit == 0) return {SimTime::from_ps(earliest), SimTime::from_ps(horizon)};
  }
}

}  // namespace netwarp::engine
