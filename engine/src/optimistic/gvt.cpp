// GVT by all-reduce with transient-message accounting (after the synchronous scheme of ROSS's
// mpi_allreduce GVT): every rank flushes, drains, and contributes (messages sent - received,
// earliest pending event) to one reduction. A message sent before its sender contributed but
// not received before its receiver contributed keeps the sum above zero; so a zero sum means
// nothing was in transit and the minimum of that same reduction is GVT. Otherwise drain again:
// messages received while draining may roll LPs back and send anti-messages, which the next
// pass counts.
//
// While the first pass's reduction runs, a rank keeps handling its own events but neither sends
// nor receives (sends are held in the outgoing batches). Everything it handles then is at or
// after the minimum it contributed, so at or after GVT: nothing it does can be committed by this
// round, and the counts it contributed stay exact. Waiting for a slower rank becomes useful
// work. Later passes only wait: work there would keep producing messages for the next pass,
// and the round might never see zero in transit.
#include "time_warp_pe.hpp"

namespace netwarp::engine {

SimTime compute_gvt(TimeWarpPe& pe, RankExchange& exchange, const std::function<void()>& work) {
  for (bool first_pass = true;; first_pass = false) {
    pe.flush_outgoing();
    pe.poll_incoming();
    pe.flush_outgoing();
    exchange.start_sum_and_min(pe.messages_sent() - pe.messages_received(), pe.local_min().ps());
    std::int64_t in_transit = 0;
    std::int64_t earliest = 0;
    pe.hold_sends(true);
    while (!exchange.try_finish_sum_and_min(in_transit, earliest))
      if (first_pass) work();
    pe.hold_sends(false);
    NW_CHECK(in_transit >= 0, "more messages received than sent ({})", in_transit);
    if (in_transit == 0) return SimTime::from_ps(earliest);
  }
}

}  // namespace netwarp::engine
