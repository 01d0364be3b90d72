// ideal_completion_time: a tandem of FIFO links fed back to back, solved exactly. For n equal
// packets of w bytes the k-th leaves hop h at S_h + (k - 1) x w / r_min(h), where S_h is the
// first packet's time through hops 1..h and r_min(h) the slowest of them; the last (shorter)
// packet then follows the recurrence D(h) = max(D(h - 1) + d(h - 1), D_prev(h)) + w' / r_h.
#include "netwarp/netmodels/ideal_fct.hpp"

#include <algorithm>
#include <future>
#include <vector>

#include "netwarp/engine/cpu_pinning.hpp"
#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {

namespace {

// fn(rate_bps, latency) for each link from `src` to `dst` along the static routes, in order; a
// host's first link at its NIC rate.
template <class Fn>
void for_each_hop(const NetworkSpec& spec, NodeId src, NodeId dst, Fn&& fn) {
  const Topology& t = spec.topology;
  t.for_each_link(src, dst, [&](NodeId at, const Port& link) {
    const bool at_nic = t.is_host(at) && spec.nic.rate_bps != 0;
    fn(at_nic ? spec.nic.rate_bps : link.rate_bps, link.latency);
  });
}

std::uint32_t segment_bytes(const NetworkSpec& spec, const TcpConfig& tcp) {
  if (spec.transport.kind == TransportKind::tcp && tcp.mss_bytes != 0) return tcp.mss_bytes;
  return spec.format.max_payload();
}

// The transport settings of a message's workload.
const TcpConfig& tcp_of(const NetworkSpec& spec, const Message& m) {
  return m.tcp_config == 0 ? spec.transport.tcp : spec.workload_tcp[m.tcp_config - 1];
}

// The message's time over the links `hops(fn)` gives, fn(rate_bps, latency) each, in order.
template <class Hops>
SimTime ideal_over_hops(const NetworkSpec& spec, std::uint64_t bytes, const TcpConfig& tcp,
                        Hops&& hops) {
  const std::uint64_t seg = segment_bytes(spec, tcp);
  const std::uint64_t full = (bytes - 1) / seg;  // packets before the last
  const auto full_wire = std::uint64_t{spec.format.wire_bytes(static_cast<std::uint32_t>(seg))};
  const auto last_wire =
      std::uint64_t{spec.format.wire_bytes(static_cast<std::uint32_t>(bytes - full * seg))};
  // Departure of the last full packet (number `full`) from each hop, then the last packet.
  SimTime first_done = SimTime::zero();  // the first full packet's departure from hop h
  SimTime arrival = SimTime::zero();     // the last packet's arrival at hop h
  std::uint64_t slowest = UINT64_MAX;
  hops([&](std::uint64_t rate_bps, SimTime latency) {
    first_done = first_done + serialisation_time(full_wire, rate_bps);
    slowest = std::min(slowest, rate_bps);
    SimTime start = arrival;
    if (full > 0) {
      const SimTime previous_done =
          SimTime::from_ps(first_done.ps() + serialisation_time(full_wire, slowest).ps() *
                                                 static_cast<std::int64_t>(full - 1));
      start = std::max(start, previous_done);
    }
    arrival = start + serialisation_time(last_wire, rate_bps) + latency;
    first_done = first_done + latency;
  });
  return arrival;
}

// The one rate and latency of every link, when all links have the same.
std::optional<LinkSpec> uniform_links(const Topology& topology) {
  std::optional<LinkSpec> uniform;
  for (const Node& node : topology.nodes)
    for (const Port& port : node.ports) {
      if (!uniform) uniform = LinkSpec{port.rate_bps, port.latency};
      if (port.rate_bps != uniform->rate_bps || port.latency != uniform->latency)
        return std::nullopt;
    }
  return uniform;
}

}  // namespace

SimTime ideal_completion_time(const NetworkSpec& spec, NodeId src, NodeId dst,
                              std::uint64_t bytes) {
  return ideal_completion_time(spec, src, dst, bytes, spec.transport.tcp);
}

SimTime ideal_completion_time(const NetworkSpec& spec, const Message& m) {
  return ideal_completion_time(spec, m.src, m.dst, m.bytes, tcp_of(spec, m));
}

SimTime ideal_completion_time(const NetworkSpec& spec, NodeId src, NodeId dst, std::uint64_t bytes,
                              const TcpConfig& tcp) {
  if (src == dst || bytes == 0) return SimTime::zero();
  return ideal_over_hops(spec, bytes, tcp, [&](auto&& fn) { for_each_hop(spec, src, dst, fn); });
}

SimTime path_latency(const NetworkSpec& spec, NodeId a, NodeId b) {
  SimTime total = SimTime::zero();
  for_each_hop(spec, a, b, [&](std::uint64_t, SimTime latency) { total = total + latency; });
  return total;
}

IdealCompletionTimes::IdealCompletionTimes(const NetworkSpec& spec)
    : spec_(spec), ps_(spec.workload.messages.size(), -1), uniform_(uniform_links(spec.topology)) {}

SimTime IdealCompletionTimes::of(MessageId id) {
  std::int64_t& ps = ps_.at(id);
  if (ps < 0) ps = compute(spec_.workload.messages[id]).ps();
  return SimTime::from_ps(ps);
}

// Over uniform links only the number of links matters, which the router may count without a
// walk of the path (the 100^3 permutation's million flows: 4.9 s on 2 threads walking).
SimTime IdealCompletionTimes::compute(const Message& m) const {
  const Topology& t = spec_.topology;
  const std::optional<std::uint32_t> beyond_first =
      uniform_ && m.src != m.dst && m.bytes != 0 && t.router
          ? t.router->links_to(t.nodes[m.src].ports[0].peer, m.dst)
          : std::nullopt;
  if (!beyond_first) return ideal_completion_time(spec_, m);
  const std::uint64_t first_rate =
      spec_.nic.rate_bps != 0 ? spec_.nic.rate_bps : uniform_->rate_bps;
  return ideal_over_hops(spec_, m.bytes, tcp_of(spec_, m), [&](auto&& fn) {
    fn(first_rate, uniform_->latency);
    for (std::uint32_t link = 0; link < *beyond_first; ++link)
      fn(uniform_->rate_bps, uniform_->latency);
  });
}

void IdealCompletionTimes::compute_all(std::size_t threads) {
  const std::size_t n = ps_.size();
  threads = std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(1, n / kMessagesPerThread));
  const auto compute_range = [this](std::size_t begin, std::size_t end) {
    for (std::size_t id = begin; id < end; ++id)
      if (ps_[id] < 0) ps_[id] = compute(spec_.workload.messages[id]).ps();
  };
  std::vector<std::future<void>> helpers;  // a failure comes out of get(), as on this thread
  for (std::size_t t = 1; t < threads; ++t)
    helpers.push_back(std::async(std::launch::async, [&compute_range, t, threads, n] {
      engine::run_on_process_cpus();
      compute_range(n * t / threads, n * (t + 1) / threads);
    }));
  compute_range(0, n / threads);
  for (std::future<void>& helper : helpers) helper.get();
}

}  // namespace netwarp::netmodels
