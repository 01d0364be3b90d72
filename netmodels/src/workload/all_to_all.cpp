// All-to-all among `ranks` hosts in the orders of docs/models/flow-mfs.md: simple spread
// (A2ASS), simple spread per dimension of an n x n grid (A2ASS2D), pairwise exchange (A2APW)
// and a seeded random order. Each host sends its N - 1 messages one after another (p = 1..N-1);
// the vector holds host 0's messages in send order, then host 1's, and so on, so message id =
// src * (N - 1) + p - 1.
#include <cstdint>
#include <string>
#include <vector>

#include "netwarp/netmodels/workload.hpp"
#include "workload/seeded_rng.hpp"
#include "workload/workload_checks.hpp"

namespace netwarp::netmodels {
namespace {

bool is_power_of_two(std::uint32_t n) {
  return n != 0 && (n & (n - 1)) == 0;
}

// n with n * n == ranks, or 0 if ranks is not a perfect square.
std::uint32_t exact_square_root(std::uint32_t ranks) {
  std::uint32_t n = 0;
  while (std::uint64_t{n + 1} * (n + 1) <= ranks) ++n;
  return std::uint64_t{n} * n == ranks ? n : 0;
}

std::uint32_t check_ranks(const AllToAllSpec& spec, std::uint32_t host_count,
                          const std::string& at) {
  workload_detail::check_two_hosts(at, host_count);
  const std::uint32_t ranks = spec.ranks == 0 ? host_count : spec.ranks;
  workload_detail::check_in_range(at + ".ranks", ranks, 2, host_count, host_count);
  if (spec.order == AllToAllOrder::pairwise && !is_power_of_two(ranks)) {
    throw InputError(at + ".order",
                     "pairwise needs a power-of-two number of ranks, got " + std::to_string(ranks));
  }
  if (spec.order == AllToAllOrder::spread_2d && exact_square_root(ranks) == 0) {
    throw InputError(at + ".order", "spread_2d needs a square number of ranks (n x n), got " +
                                        std::to_string(ranks));
  }
  workload_detail::check_message_bytes(at + ".bytes", spec.bytes);
  return ranks;
}

// Destinations of `src` in send order.
std::vector<NodeId> destinations(const AllToAllSpec& spec, NodeId src, std::uint32_t ranks) {
  std::vector<NodeId> dst;
  dst.reserve(ranks - 1);
  const std::uint32_t n = spec.order == AllToAllOrder::spread_2d ? exact_square_root(ranks) : 0;
  for (std::uint32_t p = 1; p < ranks; ++p) {
    switch (spec.order) {
      case AllToAllOrder::simple_spread:
        dst.push_back((src + p) % ranks);
        break;
      case AllToAllOrder::spread_2d:
        dst.push_back((src % n + p % n) % n + ((src / n + p / n) % n) * n);
        break;
      case AllToAllOrder::pairwise:
        dst.push_back(src ^ p);
        break;
      case AllToAllOrder::random:
        dst.push_back(p <= src ? p - 1 : p);  // the others in ascending order, shuffled below
        break;
    }
  }
  if (spec.order == AllToAllOrder::random) {
    workload_detail::SeededRng(spec.seed, src).shuffle(dst);
  }
  return dst;
}

}  // namespace

Workload make_all_to_all(const AllToAllSpec& spec, std::uint32_t host_count,
                         const std::string& at) {
  const std::uint32_t ranks = check_ranks(spec, host_count, at);
  Workload w;
  w.kind = "all_to_all";
  w.messages.reserve(std::size_t{ranks} * (ranks - 1));
  for (NodeId src = 0; src < ranks; ++src) {
    bool first = true;
    for (const NodeId dst : destinations(spec, src, ranks)) {
      workload_detail::add_message(w, src, dst, spec.bytes, SimTime::zero(), !first);
      first = false;
    }
  }
  return w;
}

}  // namespace netwarp::netmodels
