// Alltoall by spreading (MFS, docs/models/flow-mfs.md); P (P - 1) messages of `bytes`, one
// per ordered pair, in P - 1 steps, each step an exchange (irecv, isend, wait for both).
//  simple_spread (A2ASS): in step p = 1 .. P-1 rank r sends to r + p and receives from r - p
//    (mod P).
//  spread_2d (A2ASS2D, P = n x n): simple spread per dimension of the n x n grid, rank
//    r = x + y n. In step p = 1 .. P-1 rank r sends to ((x + p mod n) mod n) +
//    ((y + p / n) mod n) n and receives from the rank that sends to it, (x - p mod n) +
//    (y - p / n) n, both mod n per dimension.
#include "collectives/alltoall_algorithms.hpp"
#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul::collectives {

namespace {
// Rank r moved by (dx, dy) on the n x n grid, wrapping in each dimension.
RankId grid_move(RankId r, RankId dx, RankId dy, RankId n) {
  return ring_add(r % n, dx, n) + ring_add(r / n, dy, n) * n;
}

RankId grid_move_back(RankId r, RankId dx, RankId dy, RankId n) {
  return ring_sub(r % n, dx, n) + ring_sub(r / n, dy, n) * n;
}
}  // namespace

void post_alltoall_simple_spread(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag) {
  for (RankId p = 1; p < b.size(); ++p)
    post_exchange(b, ring_add(b.rank(), p, b.size()), bytes, ring_sub(b.rank(), p, b.size()), bytes,
                  tag);
}

void post_alltoall_spread_2d(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag) {
  const RankId n = square_side(b.size());
  for (RankId p = 1; p < b.size(); ++p)
    post_exchange(b, grid_move(b.rank(), p % n, p / n, n), bytes,
                  grid_move_back(b.rank(), p % n, p / n, n), bytes, tag);
}

}  // namespace netwarp::mpiemul::collectives
