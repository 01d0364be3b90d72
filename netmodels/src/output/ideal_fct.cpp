// ideal_completion_time: a tandem of FIFO links fed back to back, solved exactly. For n equal
// packets of w bytes the k-th leaves hop h at S_h + (k - 1) x w / r_min(h), where S_h is the
// first packet's time through hops 1..h and r_min(h) the slowest of them; the last (shorter)
// packet then follows the recurrence D(h) = max(D(h - 1) + d(h - 1), D_prev(h)) + w' / r_h.
#include "netwarp/netmodels/ideal_fct.hpp"

#include <algorithm>
#include <future>
#include <vector>

#include "netwarp/engine/cpu_pinning.hpp"
#include "netwarp/netmodels/multipath.hpp"
#include "netwarp/netmodels/units.hpp"
#include "routing/dragonfly_router.hpp"

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

// A message's packets: `full` segments of `full_wire` wire bytes, then one of `last_wire`.
struct Packets {
  std::uint64_t full;
  std::uint64_t full_wire;
  std::uint64_t last_wire;
};

Packets packets_of(const NetworkSpec& spec, std::uint64_t bytes, const TcpConfig& tcp) {
  const std::uint64_t seg = segment_bytes(spec, tcp);
  const std::uint64_t full = (bytes - 1) / seg;  // packets before the last
  return {full, spec.format.wire_bytes(static_cast<std::uint32_t>(seg)),
          spec.format.wire_bytes(static_cast<std::uint32_t>(bytes - full * seg))};
}

// The message's time over the links `hops(fn)` gives, fn(rate_bps, latency) each, in order, every
// link a FIFO its packets cross one after another.
template <class Hops>
SimTime tandem_ideal(const Packets& m, Hops&& hops) {
  // Departure of the last full packet (number `full`) from each hop, then the last packet.
  SimTime first_done = SimTime::zero();  // the first full packet's departure from hop h
  SimTime arrival = SimTime::zero();     // the last packet's arrival at hop h
  std::uint64_t slowest = UINT64_MAX;
  hops([&](std::uint64_t rate_bps, SimTime latency) {
    first_done = first_done + serialisation_time(m.full_wire, rate_bps);
    slowest = std::min(slowest, rate_bps);
    SimTime start = arrival;
    if (m.full > 0) {
      const SimTime previous_done =
          SimTime::from_ps(first_done.ps() + serialisation_time(m.full_wire, slowest).ps() *
                                                 static_cast<std::int64_t>(m.full - 1));
      start = std::max(start, previous_done);
    }
    arrival = start + serialisation_time(m.last_wire, rate_bps) + latency;
    first_done = first_done + latency;
  });
  return arrival;
}

struct Link {
  std::uint64_t rate_bps = 0;
  SimTime latency;
};
// One packet's time across the links between a path's first and last, full and last packet.
struct Between {
  std::int64_t full_ps = 0;
  std::int64_t last_ps = 0;
  void add(const Packets& m, const Link& link) {
    full_ps += (serialisation_time(m.full_wire, link.rate_bps) + link.latency).ps();
    last_ps += (serialisation_time(m.last_wire, link.rate_bps) + link.latency).ps();
  }
};

// The packets cross the first link (the sender's) and the last (to the receiver) one after
// another, and the links between each on its own path, where none waits for another of the
// flow's packets: the shorter last packet may overtake the full one ahead of it and reach the
// last link first.
SimTime parallel_ideal(const Packets& m, const Link& first, const Between& between,
                       const Link& last) {
  const std::int64_t s1 = serialisation_time(m.full_wire, first.rate_bps).ps();
  const std::int64_t s_last = serialisation_time(m.full_wire, last.rate_bps).ps();
  const auto f = static_cast<std::int64_t>(m.full);
  // Arrival at the last link: full packet j (1 .. f) at arrive(j), the last packet at its own.
  const std::int64_t base = first.latency.ps() + between.full_ps;
  const auto arrive = [&](std::int64_t j) { return j * s1 + base; };
  const std::int64_t last_arrives = f * s1 + serialisation_time(m.last_wire, first.rate_bps).ps() +
                                    first.latency.ps() + between.last_ps;
  // The full packets that reach the last link first (at the same time: first too).
  const std::int64_t ahead = std::clamp<std::int64_t>((last_arrives - base) / s1, 0, f);
  // The last link serves in order of arrival. The packets arrive equally spaced, so of the
  // bounds "packet i arrived, then the rest back to back" the latest is at one end of each run.
  std::int64_t done = last_arrives;
  if (ahead > 0) done = std::max({done, arrive(1) + ahead * s_last, arrive(ahead) + s_last});
  done += serialisation_time(m.last_wire, last.rate_bps).ps();
  if (ahead < f) {
    const std::int64_t behind = f - ahead;
    done =
        std::max({done + behind * s_last, arrive(ahead + 1) + behind * s_last, arrive(f) + s_last});
  }
  return SimTime::from_ps(done) + last.latency;
}

// Packets sprayed over equal-cost paths: the parallel ideal over the links `hops` gives. A
// lower bound on every spraying of the flow, which a flow alone reaches when no link between is
// slower than its first. Over two links or fewer nothing is between: the tandem's time.
// A path cut into its first link, the links between (one packet's time across them) and its last.
struct SplitPath {
  Link first, last;
  Between between;
  std::size_t links = 0;
};

template <class Hops>
SplitPath split_path(const Packets& m, Hops&& hops) {
  SplitPath path;
  hops([&](std::uint64_t rate_bps, SimTime latency) {
    if (path.links == 0) path.first = {rate_bps, latency};
    if (path.links >= 2) path.between.add(m, path.last);
    path.last = {rate_bps, latency};
    ++path.links;
  });
  return path;
}

template <class Hops>
SimTime sprayed_ideal(const Packets& m, Hops&& hops) {
  const SplitPath path = split_path(m, hops);
  if (path.links <= 2) return tandem_ideal(m, hops);
  return parallel_ideal(m, path.first, path.between, path.last);
}

const DragonflyRouter* nonminimal_dragonfly(const Topology& t) {
  const auto* dragonfly = dynamic_cast<const DragonflyRouter*>(t.router.get());
  return dragonfly != nullptr && dragonfly->per_packet() ? dragonfly : nullptr;
}

// A dragonfly's non-minimal routing (Valiant, UGAL) between groups: each packet may take the
// minimal route or one through any other group, which on a small dragonfly may have fewer
// links. The parallel ideal over the least time between the first and last link of any of
// those routes: a lower bound on how the packets are routed.
SimTime dragonfly_ideal(const NetworkSpec& spec, const DragonflyRouter& router, NodeId src,
                        NodeId dst, const Packets& m) {
  const Topology& t = spec.topology;
  // The minimal route gives the first and last link; the route through the source's (or the
  // destination's) own group is the minimal one, so the loop below covers its links between.
  const SplitPath minimal = split_path(m, [&](auto&& fn) { for_each_hop(spec, src, dst, fn); });
  Between least{INT64_MAX, INT64_MAX};
  for (std::uint32_t group = 0; group < router.groups(); ++group) {
    Between through;
    router.for_each_link_through(src, dst, group, t, [&](NodeId at, PortIndex port) {
      through.add(m, Link{t.nodes[at].ports[port].rate_bps, t.nodes[at].ports[port].latency});
    });
    least.full_ps = std::min(least.full_ps, through.full_ps);
    least.last_ps = std::min(least.last_ps, through.last_ps);
  }
  return parallel_ideal(m, minimal.first, least, minimal.last);
}

bool sprays(const NetworkSpec& spec) {
  const MultipathRouter* multipath =
      spec.topology.router ? multipath_of(*spec.topology.router) : nullptr;
  return multipath != nullptr && (multipath->spec().mode == MultipathMode::spray_random ||
                                  multipath->spec().mode == MultipathMode::spray_round_robin);
}

template <class Hops>
SimTime ideal_over_hops(const NetworkSpec& spec, std::uint64_t bytes, const TcpConfig& tcp,
                        Hops&& hops) {
  const Packets m = packets_of(spec, bytes, tcp);
  return sprays(spec) ? sprayed_ideal(m, hops) : tandem_ideal(m, hops);
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
  const DragonflyRouter* dragonfly = nonminimal_dragonfly(spec.topology);
  if (dragonfly != nullptr && dragonfly->per_packet_groups(src, dst))
    return dragonfly_ideal(spec, *dragonfly, src, dst, packets_of(spec, bytes, tcp));
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
      uniform_ && m.src != m.dst && m.bytes != 0 && t.router && !nonminimal_dragonfly(t)
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
