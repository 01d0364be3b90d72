// Allreduce algorithms; only messages are modelled (the arithmetic costs no time).
//  recursive_doubling (Thakur, Rabenseifner & Gropp 2005): let p' be the largest power of two
//    <= P and e = P - p'. Fold in: of ranks 0 .. 2e-1, each even rank sends its buffer to the
//    next odd rank and sits out. The p' remaining ranks then run log2 p' rounds; in round k
//    each exchanges the whole buffer with the rank whose new number differs in bit k. Fold
//    out: each odd rank below 2e sends the result back to its even partner. Messages sent per
//    rank: log2 p', plus 1 for odd ranks below 2e; even ranks below 2e send 1 and receive 1.
//  ring (Patarasuk & Yuan): the buffer is cut into P blocks (bytes / P, the first bytes % P
//    of them one byte longer). P - 1 reduce-scatter steps, in step s rank r sends block
//    r - s to r + 1 and receives block r - s - 1 from r - 1; rank r then owns block r + 1.
//    Then P - 1 allgather steps circulate the owned blocks the same way. 2 (P - 1) messages
//    per rank, all to r + 1.
//  reduce_bcast: reduce to rank 0, then bcast from rank 0, with the configured reduce and
//    bcast algorithms. 2 (P - 1) messages with the tree algorithms.
#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul {

namespace {
using collectives::collective_tag;
constexpr int kFoldInPhase = 0;
constexpr int kFoldOutPhase = 1;
constexpr int kFirstRoundPhase = 2;  // recursive doubling round k uses phase 2 + k

// The rank that has new number `n` in recursive doubling with `extra` folded-in pairs.
RankId doubling_rank(RankId n, RankId extra) {
  return n < extra ? 2 * n + 1 : n + extra;
}

void post_recursive_doubling(RankProgramBuilder& b, std::uint64_t bytes) {
  const RankId r = b.rank();
  const RankId main_ranks = collectives::floor_power_of_two(b.size());
  const RankId extra = b.size() - main_ranks;
  const auto tag = [](int phase) { return collective_tag(CallKind::allreduce, phase); };
  if (r < 2 * extra && r % 2 == 0) {
    b.post_send(r + 1, tag(kFoldInPhase), bytes);
    b.post_recv(static_cast<std::int32_t>(r + 1), tag(kFoldOutPhase), bytes);
    return;
  }
  if (r < 2 * extra) b.post_recv(static_cast<std::int32_t>(r - 1), tag(kFoldInPhase), bytes);
  const RankId n = r < 2 * extra ? r / 2 : r - extra;
  for (int k = 0; (RankId{1} << k) < main_ranks; ++k) {
    const RankId peer = doubling_rank(n ^ (RankId{1} << k), extra);
    collectives::post_exchange(b, peer, bytes, peer, bytes, tag(kFirstRoundPhase + k));
  }
  if (r < 2 * extra) b.post_send(r - 1, tag(kFoldOutPhase), bytes);
}

std::uint64_t ring_block(std::uint64_t bytes, RankId size, RankId block) {
  return bytes / size + (block < bytes % size ? 1 : 0);
}

// One pass round the ring: in step s rank r sends block r + first - s and receives the block
// before it from r - 1.
void post_ring_pass(RankProgramBuilder& b, std::uint64_t bytes, RankId first, std::int32_t tag) {
  const RankId size = b.size();
  const RankId next = collectives::ring_add(b.rank(), 1, size);
  const RankId prev = collectives::ring_sub(b.rank(), 1, size);
  for (RankId s = 0; s + 1 < size; ++s) {
    const RankId out = collectives::ring_sub(collectives::ring_add(b.rank(), first, size), s, size);
    const RankId in = collectives::ring_sub(out, 1, size);
    collectives::post_exchange(b, next, ring_block(bytes, size, out), prev,
                               ring_block(bytes, size, in), tag);
  }
}

void post_ring(RankProgramBuilder& b, std::uint64_t bytes) {
  post_ring_pass(b, bytes, 0, collective_tag(CallKind::allreduce, 0));  // reduce-scatter
  post_ring_pass(b, bytes, 1, collective_tag(CallKind::allreduce, 1));  // allgather
}

void post_reduce_bcast(RankProgramBuilder& b, const CollectiveAlgorithms& a, std::uint64_t bytes) {
  collectives::post_reduce(b, a.reduce, 0, bytes, collective_tag(CallKind::allreduce, 0));
  collectives::post_bcast(b, a.bcast, 0, bytes, collective_tag(CallKind::allreduce, 1));
}
}  // namespace

void add_allreduce(RankProgramBuilder& b, const CollectiveAlgorithms& configured,
                   std::uint64_t bytes) {
  const CollectiveAlgorithms a = algorithms_for(configured, CallKind::allreduce, b.size(), bytes);
  b.begin_call(CallKind::allreduce, -1, bytes);
  switch (a.allreduce) {
    case AllreduceAlgorithm::recursive_doubling:
      post_recursive_doubling(b, bytes);
      break;
    case AllreduceAlgorithm::ring:
      post_ring(b, bytes);
      break;
    case AllreduceAlgorithm::reduce_bcast:
      post_reduce_bcast(b, a, bytes);
      break;
  }
  b.end_call();
}

}  // namespace netwarp::mpiemul
