// Rank placement: which host runs each workload rank. Regular puts rank i on host i; random
// takes the first `ranks` hosts of a seeded shuffle of all hosts; explicit takes the user's
// list (one distinct host per rank). apply_placement then rewrites every message's src and dst
// from rank ids to host ids.
#include <numeric>
#include <string>
#include <vector>

#include "netwarp/engine/check.hpp"
#include "netwarp/netmodels/workload.hpp"
#include "workload/seeded_rng.hpp"
#include "workload/workload_checks.hpp"

namespace netwarp::netmodels {
namespace {

std::vector<NodeId> explicit_hosts(const PlacementSpec& spec, std::uint32_t ranks,
                                   std::uint32_t host_count, const std::string& at) {
  if (spec.hosts.size() != ranks) {
    throw InputError(at + ".hosts", "must list one host per rank (" + std::to_string(ranks) +
                                        " ranks), got " + std::to_string(spec.hosts.size()));
  }
  constexpr NodeId kUnused = kNoNode;
  std::vector<NodeId> rank_on_host(host_count, kUnused);
  for (NodeId rank = 0; rank < ranks; ++rank) {
    const std::string field = at + ".hosts[" + std::to_string(rank) + "]";
    const NodeId host = spec.hosts[rank];
    workload_detail::check_host(field, host, host_count);
    if (rank_on_host[host] != kUnused) {
      throw InputError(field, "host " + std::to_string(host) + " is already used by rank " +
                                  std::to_string(rank_on_host[host]));
    }
    rank_on_host[host] = rank;
  }
  return spec.hosts;
}

}  // namespace

std::vector<NodeId> place_ranks(const PlacementSpec& spec, std::uint32_t ranks,
                                std::uint32_t host_count, const std::string& at) {
  if (ranks > host_count) {
    throw InputError(at, std::to_string(ranks) + " ranks do not fit on " +
                             std::to_string(host_count) + " hosts");
  }
  if (spec.kind == PlacementKind::explicit_list) {
    return explicit_hosts(spec, ranks, host_count, at);
  }
  std::vector<NodeId> hosts(host_count);
  std::iota(hosts.begin(), hosts.end(), NodeId{0});
  if (spec.kind == PlacementKind::random) workload_detail::SeededRng(spec.seed, 0).shuffle(hosts);
  hosts.resize(ranks);
  return hosts;
}

void apply_placement(Workload& workload, const std::vector<NodeId>& host_of_rank) {
  for (Message& m : workload.messages) {
    NW_CHECK(m.src < host_of_rank.size() && m.dst < host_of_rank.size(),
             "message {} between ranks {} and {}, but only {} ranks are placed", m.id, m.src, m.dst,
             host_of_rank.size());
    m.src = host_of_rank[m.src];
    m.dst = host_of_rank[m.dst];
  }
}

}  // namespace netwarp::netmodels
