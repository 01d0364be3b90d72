// GVT by all-reduce with transient-message accounting (the synchronous scheme of ROSS's
// mpi_allreduce GVT): every rank flushes, drains, and contributes (messages sent - received,
// earliest pending event) to one reduction. A message sent before its sender contributed but
// not received before its receiver contributed keeps the sum above zero, and no rank sends
// or receives between contributing and the result; so a zero sum means nothing was in transit
// and the minimum of that same reduction is GVT. Otherwise drain again: messages received
// while draining may roll LPs back and send anti-messages, which the next pass counts.
#include "time_warp_pe.hpp"

namespace netwarp::engine {

SimTime compute_gvt(TimeWarpPe& pe, RankExchange& exchange) {
  for (;;) {
    pe.flush_outgoing();
    pe.poll_incoming();
    pe.flush_outgoing();
    std::int64_t in_transit = pe.messages_sent() - pe.messages_received();
    std::int64_t earliest = pe.local_min().ps();
    exchange.sum_and_min(in_transit, earliest);
    NW_CHECK(in_transit >= 0, "more messages received than sent ({})", in_transit);
    if (in_transit == 0) return SimTime::from_ps(earliest);
  }
}

}  // namespace netwarp::engine
