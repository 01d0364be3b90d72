// Alltoall by Bruck et al. (IEEE TPDS 1997), as in MPICH: after a local rotation, block j of
// rank r is the one for rank r + j. In round k (2^k < P, ceil(log2 P) rounds) rank r sends to
// r + 2^k, and receives from r - 2^k, every block whose index j has bit k set, combined in one
// message of (number of such j in 0 .. P-1) x `bytes`. A block thus travels along the set bits of
// its index and reaches its rank after the last round; a final local rotation puts the blocks in
// order. Each rank sends ceil(log2 P) messages, more bytes in all than the direct algorithms in
// exchange for fewer messages.
#include "collectives/alltoall_algorithms.hpp"
#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul::collectives {

namespace {
// How many of the block indices 0 .. size-1 have bit `bit` set.
std::uint64_t blocks_with_bit(RankId size, RankId bit) {
  std::uint64_t count = 0;
  for (RankId j = 0; j < size; ++j)
    if ((j & bit) != 0) ++count;
  return count;
}
}  // namespace

void post_alltoall_bruck(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag) {
  const int rounds = ceil_log2(b.size());
  for (int k = 0; k < rounds; ++k) {
    const RankId distance = RankId{1} << k;
    const std::uint64_t message = blocks_with_bit(b.size(), distance) * bytes;
    post_exchange(b, ring_add(b.rank(), distance, b.size()), message,
                  ring_sub(b.rank(), distance, b.size()), message, tag + k);  // phase k
  }
}

}  // namespace netwarp::mpiemul::collectives
