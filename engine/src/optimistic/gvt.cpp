// GVT by all-reduce with transient-message accounting (the synchronous scheme of ROSS's
// mpi_allreduce GVT): every rank flushes and drains until the global count of messages sent
// equals the count received, so nothing is in transit; then GVT is the minimum over ranks of
// the earliest pending event. A message received while draining may roll an LP back and send
// anti-messages; those are counted and drained in the next pass.
#include "time_warp_pe.hpp"

namespace netwarp::engine {

SimTime compute_gvt(TimeWarpPe& pe, RankExchange& exchange) {
  for (;;) {
    pe.flush_outgoing();
    pe.poll_incoming();
    pe.flush_outgoing();
    const std::int64_t in_transit = exchange.sum(pe.messages_sent() - pe.messages_received());
    NW_CHECK(in_transit >= 0, "more messages received than sent ({})", in_transit);
    if (in_transit == 0) break;
  }
  return SimTime::from_ps(exchange.min(pe.local_min().ps()));
}

}  // namespace netwarp::engine
