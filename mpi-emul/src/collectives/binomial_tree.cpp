// Binomial tree arithmetic (see binomial_tree.hpp).
#include "collectives/binomial_tree.hpp"

#include <algorithm>

namespace netwarp::mpiemul::collectives {

namespace {
// The span of v's subtree: v's lowest set bit, or the whole size for the root.
std::uint64_t span_of(RankId v, RankId size) {
  return v == 0 ? size : (v & (~v + 1));
}
}  // namespace

std::vector<RankId> BinomialTree::children(RankId v) const {
  std::vector<RankId> result;
  const std::uint64_t span = span_of(v, size_);
  std::uint64_t mask = 1;
  while (mask < span && v + mask < size_) mask <<= 1;
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < size_) result.push_back(static_cast<RankId>(v + mask));
  return result;
}

RankId BinomialTree::subtree_end(RankId v) const {
  return static_cast<RankId>(std::min<std::uint64_t>(v + span_of(v, size_), size_));
}

std::uint64_t BinomialTree::subtree_bytes(RankId v, std::span<const std::uint64_t> counts) const {
  std::uint64_t bytes = 0;
  for (RankId u = v; u < subtree_end(v); ++u) bytes += counts[absolute(u)];
  return bytes;
}

}  // namespace netwarp::mpiemul::collectives
