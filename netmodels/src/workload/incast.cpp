// Incast: `senders` hosts each send `bytes` to one receiver, all at the same start time and
// independent of each other. The senders are the lowest-numbered hosts other than the
// receiver (first_sender is host 0), in ascending order.
#include "netwarp/netmodels/workload.hpp"
#include "workload/workload_checks.hpp"

namespace netwarp::netmodels {

Workload make_incast(const IncastSpec& spec, std::uint32_t host_count, const std::string& at) {
  workload_detail::check_two_hosts(at, host_count);
  workload_detail::check_in_range(at + ".senders", spec.senders, 1, host_count - 1, host_count);
  workload_detail::check_host(at + ".receiver", spec.receiver, host_count);
  workload_detail::check_message_bytes(at + ".bytes", spec.bytes);
  Workload w;
  w.kind = "incast";
  w.messages.reserve(spec.senders);
  for (NodeId host = 0; w.messages.size() < spec.senders; ++host) {
    if (host == spec.receiver) continue;
    workload_detail::add_message(w, host, spec.receiver, spec.bytes, spec.start, false);
  }
  return w;
}

}  // namespace netwarp::netmodels
