// ideal_completion_time: a tandem of FIFO links fed back to back, solved exactly. For n equal
// packets of w bytes the k-th leaves hop h at S_h + (k - 1) x w / r_min(h), where S_h is the
// first packet's time through hops 1..h and r_min(h) the slowest of them; the last (shorter)
// packet then follows the recurrence D(h) = max(D(h - 1) + d(h - 1), D_prev(h)) + w' / r_h.
#include "netwarp/netmodels/ideal_fct.hpp"

#include <algorithm>
#include <vector>

#include "netwarp/netmodels/units.hpp"

namespace netwarp::netmodels {

namespace {

struct Hop {
  std::uint64_t rate_bps = 0;
  SimTime latency;
};

// The links from `src` to `dst` along the static routes; a host's first link at its NIC rate.
std::vector<Hop> path_hops(const NetworkSpec& spec, NodeId src, NodeId dst) {
  const Topology& t = spec.topology;
  std::vector<Hop> hops;
  NodeId at = src;
  for (std::size_t guard = 0; at != dst && guard <= t.nodes.size(); ++guard) {
    const PortIndex port = t.next_port(at, dst);
    const Port& link = t.nodes[at].ports[port];
    std::uint64_t rate = link.rate_bps;
    if (t.is_host(at) && spec.nic.rate_bps != 0) rate = spec.nic.rate_bps;
    hops.push_back(Hop{rate, link.latency});
    at = link.peer;
  }
  return hops;
}

std::uint32_t segment_bytes(const NetworkSpec& spec, const TcpConfig& tcp) {
  if (spec.transport.kind == TransportKind::tcp && tcp.mss_bytes != 0) return tcp.mss_bytes;
  return spec.format.max_payload();
}

}  // namespace

SimTime ideal_completion_time(const NetworkSpec& spec, NodeId src, NodeId dst,
                              std::uint64_t bytes) {
  return ideal_completion_time(spec, src, dst, bytes, spec.transport.tcp);
}

SimTime ideal_completion_time(const NetworkSpec& spec, const Message& m) {
  const TcpConfig& tcp =
      m.tcp_config == 0 ? spec.transport.tcp : spec.workload_tcp[m.tcp_config - 1];
  return ideal_completion_time(spec, m.src, m.dst, m.bytes, tcp);
}

SimTime ideal_completion_time(const NetworkSpec& spec, NodeId src, NodeId dst, std::uint64_t bytes,
                              const TcpConfig& tcp) {
  const std::vector<Hop> hops = path_hops(spec, src, dst);
  if (hops.empty() || bytes == 0) return SimTime::zero();
  const std::uint64_t seg = segment_bytes(spec, tcp);
  const std::uint64_t full = (bytes - 1) / seg;  // packets before the last
  const auto full_wire = std::uint64_t{spec.format.wire_bytes(static_cast<std::uint32_t>(seg))};
  const auto last_wire =
      std::uint64_t{spec.format.wire_bytes(static_cast<std::uint32_t>(bytes - full * seg))};
  // Departure of the last full packet (number `full`) from each hop, then the last packet.
  SimTime first_done = SimTime::zero();  // the first full packet's departure from hop h
  SimTime arrival = SimTime::zero();     // the last packet's arrival at hop h
  std::uint64_t slowest = UINT64_MAX;
  for (const Hop& hop : hops) {
    first_done = first_done + serialisation_time(full_wire, hop.rate_bps);
    slowest = std::min(slowest, hop.rate_bps);
    SimTime start = arrival;
    if (full > 0) {
      const SimTime previous_done =
          SimTime::from_ps(first_done.ps() + serialisation_time(full_wire, slowest).ps() *
                                                 static_cast<std::int64_t>(full - 1));
      start = std::max(start, previous_done);
    }
    arrival = start + serialisation_time(last_wire, hop.rate_bps) + hop.latency;
    first_done = first_done + hop.latency;
  }
  return arrival;
}

SimTime path_latency(const NetworkSpec& spec, NodeId a, NodeId b) {
  SimTime total = SimTime::zero();
  for (const Hop& hop : path_hops(spec, a, b)) total = total + hop.latency;
  return total;
}

}  // namespace netwarp::netmodels
