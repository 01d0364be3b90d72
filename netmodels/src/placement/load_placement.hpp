// Placement of locality groups on ranks by the load the run is expected to carry: a rank's share
// of the events follows the packets its LPs forward, not its count of LPs (an MPI job or an
// incast on a few leaves would otherwise leave most of the work to the rank that holds them).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "netwarp/netmodels/network_model.hpp"
#include "netwarp/netmodels/topology.hpp"
#include "netwarp/netmodels/workload.hpp"

namespace netwarp::netmodels {

// Paths walked at most per list of streams; a longer list is sampled evenly (every n-th stream,
// weighted by n), so placing a million-host permutation costs milliseconds.
inline constexpr std::size_t kPlacementSamples = 1 << 16;

// The expected events of each group: one per LP, plus each stream's packets (of `payload` bytes)
// at every node of its static route (Topology::path), for the workload's messages and `extra`.
std::vector<std::uint64_t> expected_group_load(const Topology& topology, std::uint32_t groups,
                                               std::uint32_t payload,
                                               std::span<const Message> messages,
                                               std::span<const ExpectedTraffic> extra);

// The rank of each group: `ranks` runs of consecutive groups (so spatial blocks stay together),
// each as close as it can be to an equal share of the load, every rank at least one group.
// Requires groups >= ranks >= 1.
std::vector<int> split_groups(std::span<const std::uint64_t> load, int ranks);

}  // namespace netwarp::netmodels
