// expected_group_load, split_groups (see load_placement.hpp).
#include "placement/load_placement.hpp"

#include <algorithm>
#include <numeric>

namespace netwarp::netmodels {

namespace {

// Adds every sampled stream's packets to the groups of the nodes on its route.
template <class Stream>
void add_streams(const Topology& topology, std::uint64_t payload, std::span<const Stream> streams,
                 std::vector<std::uint64_t>& load) {
  const std::size_t stride =
      std::max<std::size_t>(1, (streams.size() + kPlacementSamples - 1) / kPlacementSamples);
  for (std::size_t i = 0; i < streams.size(); i += stride) {
    const Stream& s = streams[i];
    const std::uint64_t packets = std::max<std::uint64_t>(1, (s.bytes + payload - 1) / payload);
    const std::uint64_t weight = packets * stride;
    if (s.src == s.dst) {
      load[topology.nodes[s.src].group] += weight;
      continue;
    }
    for (NodeId node : topology.path(s.src, s.dst)) load[topology.nodes[node].group] += weight;
  }
}

}  // namespace

std::vector<std::uint64_t> expected_group_load(const Topology& topology, std::uint32_t groups,
                                               std::uint32_t payload,
                                               std::span<const Message> messages,
                                               std::span<const ExpectedTraffic> extra) {
  std::vector<std::uint64_t> load(groups, 0);
  for (const Node& node : topology.nodes) ++load[node.group];
  const std::uint64_t per_packet = std::max<std::uint32_t>(payload, 1);
  add_streams(topology, per_packet, messages, load);
  add_streams(topology, per_packet, extra, load);
  return load;
}

std::vector<int> split_groups(std::span<const std::uint64_t> load, int ranks) {
  const std::size_t groups = load.size();
  std::vector<int> rank_of(groups, 0);
  const long double total = std::accumulate(load.begin(), load.end(), 0.0L);
  long double before = 0;  // the load of the groups placed so far
  int rank = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t left = groups - g;  // this group included
    const int ranks_after = ranks - 1 - rank;
    // Move on to the next rank when the rest of the groups are just enough for the ranks after
    // this one, or when this group ends nearer the rank's share outside it than inside it.
    if (rank < ranks - 1 && g > 0 && rank_of[g - 1] == rank) {
      const long double share_end = total * (rank + 1) / ranks;
      const bool must = left == static_cast<std::size_t>(ranks_after);
      const bool nearer_outside = before + load[g] - share_end > share_end - before;
      if (must || nearer_outside) ++rank;
    }
    rank_of[g] = rank;
    before += load[g];
  }
  return rank_of;
}

}  // namespace netwarp::netmodels
