// Datacenter flows: sizes drawn from an empirical CDF, arrivals a Poisson process per source
// (a host, or a given pair) at the rate that makes the offered load of the source's link
// `load` x its rate: lambda = load x rate / (8 x mean size). Each source draws from its own
// seeded stream (arrival gap, then destination, then size); the sources' arrivals are merged
// in time order (ties by source), so a cap on the number of flows keeps the earliest ones.
#include <cmath>
#include <queue>
#include <tuple>

#include "netwarp/netmodels/workload.hpp"
#include "workload/seeded_rng.hpp"
#include "workload/workload_checks.hpp"

namespace netwarp::netmodels {

namespace {

using workload_detail::SeededRng;

double unit_uniform(SeededRng& rng) {  // in [0, 1), 53 random bits
  return static_cast<double>(rng.next_u64() >> 11) * 0x1.0p-53;
}

struct Source {
  NodeId src = 0;
  NodeId fixed_dst = 0;  // PER_PAIR: the pair's destination
  bool has_fixed_dst = false;
  double flows_per_ps = 0;  // Poisson rate
  SeededRng rng;
  std::int64_t next_ps = 0;  // the next arrival
};

// The gap to the next arrival, at least 1 ps (an exponential draw rounded).
std::int64_t exponential_gap_ps(SeededRng& rng, double flows_per_ps) {
  const double gap = -std::log1p(-unit_uniform(rng)) / flows_per_ps;
  return std::max<std::int64_t>(1, std::llround(std::min(gap, 9.0e18)));
}

std::vector<Source> make_sources(const DatacenterSpec& spec, std::uint32_t ranks,
                                 double mean_bytes) {
  std::vector<Source> sources;
  auto rate_of = [&](NodeId rank) { return static_cast<double>(spec.rank_rate_bps[rank]); };
  if (spec.pairs.empty()) {
    for (NodeId src = 0; src < ranks; ++src)
      sources.push_back(Source{src, 0, false, spec.load * rate_of(src) / (8 * mean_bytes) * 1e-12,
                               SeededRng(spec.seed, src), 0});
  } else {
    std::vector<std::uint32_t> pairs_of(ranks, 0);
    for (const auto& [src, dst] : spec.pairs) ++pairs_of[src];
    for (std::size_t i = 0; i < spec.pairs.size(); ++i) {
      const auto [src, dst] = spec.pairs[i];
      const double share = spec.load * rate_of(src) / (8 * mean_bytes) / pairs_of[src];
      sources.push_back(Source{src, dst, true, share * 1e-12, SeededRng(spec.seed, i), 0});
    }
  }
  for (Source& s : sources) s.next_ps = spec.start.ps() + exponential_gap_ps(s.rng, s.flows_per_ps);
  return sources;
}

}  // namespace

Workload make_datacenter(const DatacenterSpec& spec, std::uint32_t ranks, const std::string& at) {
  workload_detail::check_two_hosts(at, ranks);
  if (spec.rank_rate_bps.size() != ranks)
    throw InputError(at, "internal: a link rate per rank is needed");
  const double mean = spec.sizes.mean_bytes();
  std::vector<Source> sources = make_sources(spec, ranks, mean);
  using Next = std::tuple<std::int64_t, std::size_t>;  // (arrival, source): earliest first
  std::priority_queue<Next, std::vector<Next>, std::greater<>> due;
  for (std::size_t i = 0; i < sources.size(); ++i) due.emplace(sources[i].next_ps, i);
  const std::int64_t end_ps =
      spec.duration.ps() > 0 ? spec.start.ps() + spec.duration.ps() : INT64_MAX;
  Workload w;
  w.kind = "datacenter";
  while (!due.empty() && (spec.max_flows == 0 || w.messages.size() < spec.max_flows)) {
    const auto [at_ps, index] = due.top();
    due.pop();
    if (at_ps >= end_ps) break;
    Source& s = sources[index];
    NodeId dst = s.fixed_dst;
    if (!s.has_fixed_dst) {
      dst = static_cast<NodeId>(s.rng.below(ranks - 1));
      if (dst >= s.src) ++dst;  // any rank but the sender
    }
    const std::uint64_t bytes = spec.sizes.size_at(unit_uniform(s.rng));
    workload_detail::add_message(w, s.src, dst, bytes, SimTime::from_ps(at_ps), false);
    s.next_ps = at_ps + exponential_gap_ps(s.rng, s.flows_per_ps);
    due.emplace(s.next_ps, index);
  }
  return w;
}

}  // namespace netwarp::netmodels
