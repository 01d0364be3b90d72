// Allgather, plain and v (counts[r] is rank r's block; the plain form uses `bytes` for all).
//  ring: P - 1 steps; in step s rank r sends block r - s to r + 1 and receives block r - s - 1
//    from r - 1 (each an exchange). P - 1 messages per rank, each one block.
//  recursive_doubling (P a power of two): log2 P rounds; in round k rank r exchanges with
//    r XOR 2^k all it holds, the blocks of its aligned group of 2^k ranks, so messages double
//    in size. On other sizes it falls back to ring (MPICH's non-power-of-two variant adds
//    rounds that mainly matter for latency; ring keeps every message one block).
//  gather_bcast: gatherv to rank 0 with the configured gather algorithm, then bcast of all
//    blocks from rank 0 with the configured bcast algorithm.
// Blocks of 0 bytes are still sent as 0-byte messages.
#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul {

namespace {
using collectives::collective_tag;

void post_ring(RankProgramBuilder& b, std::span<const std::uint64_t> counts, std::int32_t tag) {
  const RankId size = b.size();
  const RankId r = b.rank();
  for (RankId s = 0; s + 1 < size; ++s) {
    const RankId out = collectives::ring_sub(r, s, size);
    const RankId in = collectives::ring_sub(r, s + 1, size);
    collectives::post_exchange(b, collectives::ring_add(r, 1, size), counts[out],
                               collectives::ring_sub(r, 1, size), counts[in], tag);
  }
}

// Bytes of the blocks of the group of `width` ranks (width a power of two) holding `rank`.
std::uint64_t group_bytes(std::span<const std::uint64_t> counts, RankId rank, RankId width) {
  const RankId first = rank & ~(width - 1);
  return collectives::total(counts.subspan(first, width));
}

void post_recursive_doubling(RankProgramBuilder& b, std::span<const std::uint64_t> counts,
                             CallKind kind) {
  if (!collectives::is_power_of_two(b.size())) {
    post_ring(b, counts, collective_tag(kind, 0));
    return;
  }
  for (int k = 0; (RankId{1} << k) < b.size(); ++k) {
    const RankId width = RankId{1} << k;
    const RankId peer = b.rank() ^ width;
    collectives::post_exchange(b, peer, group_bytes(counts, b.rank(), width), peer,
                               group_bytes(counts, peer, width), collective_tag(kind, 1 + k));
  }
}

void post_gather_bcast(RankProgramBuilder& b, const CollectiveAlgorithms& a,
                       std::span<const std::uint64_t> counts, CallKind kind) {
  collectives::post_gatherv(b, a.gather, 0, counts, collective_tag(kind, 0));
  collectives::post_bcast(b, a.bcast, 0, collectives::total(counts), collective_tag(kind, 1));
}

// `kind` (allgather or allgatherv) picks the tag range.
void post_allgather(RankProgramBuilder& b, const CollectiveAlgorithms& a,
                    std::span<const std::uint64_t> counts, CallKind kind) {
  switch (a.allgather) {
    case AllgatherAlgorithm::ring:
      post_ring(b, counts, collective_tag(kind, 0));
      break;
    case AllgatherAlgorithm::recursive_doubling:
      post_recursive_doubling(b, counts, kind);
      break;
    case AllgatherAlgorithm::gather_bcast:
      post_gather_bcast(b, a, counts, kind);
      break;
  }
}
}  // namespace

void add_allgather(RankProgramBuilder& b, const CollectiveAlgorithms& configured,
                   std::uint64_t bytes) {
  const CollectiveAlgorithms a = algorithms_for(configured, CallKind::allgather, b.size(), bytes);
  b.begin_call(CallKind::allgather, -1, bytes);
  post_allgather(b, a, collectives::uniform_counts(b.size(), bytes), CallKind::allgather);
  b.end_call();
}

// Same algorithms; the call records this rank's block. OPENMPI_TUNED decides by the mean
// block, as Open MPI does (every rank computes the same).
void add_allgatherv(RankProgramBuilder& b, const CollectiveAlgorithms& configured,
                    std::span<const std::uint64_t> counts) {
  collectives::check_counts("allgatherv", counts, b.size());
  const std::uint64_t mean = collectives::total(counts) / b.size();
  const CollectiveAlgorithms a = algorithms_for(configured, CallKind::allgatherv, b.size(), mean);
  b.begin_call(CallKind::allgatherv, -1, counts[b.rank()]);
  post_allgather(b, a, counts, CallKind::allgatherv);
  b.end_call();
}

}  // namespace netwarp::mpiemul
