// Binomial trees rooted anywhere, in MPICH's numbering. Ranks are renumbered relative to the
// root (v = rank - root mod size). The parent of v > 0 is v with its lowest set bit cleared;
// the children of v are v + m for each power of two m below v's lowest set bit (every m < size
// for the root) with v + m < size. The subtree of v is the relative ranks [v, subtree_end(v)).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "netwarp/mpiemul/program.hpp"

namespace netwarp::mpiemul::collectives {

class BinomialTree {
 public:
  BinomialTree(RankId size, RankId root) : size_(size), root_(root) {}

  RankId relative(RankId rank) const { return (rank + size_ - root_) % size_; }
  RankId absolute(RankId relative) const { return (relative + root_) % size_; }
  RankId parent(RankId v) const { return v & (v - 1); }  // v > 0
  std::vector<RankId> children(RankId v) const;          // largest subtree first
  RankId subtree_end(RankId v) const;
  // Bytes of the blocks of v's subtree, counts indexed by absolute rank.
  std::uint64_t subtree_bytes(RankId v, std::span<const std::uint64_t> counts) const;

 private:
  RankId size_;
  RankId root_;
};

}  // namespace netwarp::mpiemul::collectives
