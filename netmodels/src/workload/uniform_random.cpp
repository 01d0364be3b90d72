// Uniform random traffic: every host sends `messages_per_host` messages one after another, each
// to a destination drawn uniformly from the other hosts with the host's own seeded stream. The
// vector holds host 0's messages in send order, then host 1's, and so on.
#include "netwarp/netmodels/workload.hpp"
#include "workload/seeded_rng.hpp"
#include "workload/workload_checks.hpp"

namespace netwarp::netmodels {

Workload make_uniform_random(const UniformRandomSpec& spec, std::uint32_t host_count,
                             const std::string& at) {
  workload_detail::check_two_hosts(at, host_count);
  workload_detail::check_positive(at + ".messages_per_host", spec.messages_per_host);
  workload_detail::check_message_bytes(at + ".bytes", spec.bytes);
  Workload w;
  w.kind = "uniform_random";
  w.messages.reserve(std::size_t{host_count} * spec.messages_per_host);
  for (NodeId src = 0; src < host_count; ++src) {
    workload_detail::SeededRng rng(spec.seed, src);
    for (std::uint32_t i = 0; i < spec.messages_per_host; ++i) {
      auto dst = static_cast<NodeId>(rng.below(host_count - 1));
      if (dst >= src) ++dst;  // skip the sender itself
      workload_detail::add_message(w, src, dst, spec.bytes, SimTime::zero(), i > 0);
    }
  }
  return w;
}

}  // namespace netwarp::netmodels
