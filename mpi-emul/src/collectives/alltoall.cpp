// Alltoall: the dispatcher, and the three algorithms that pair ranks by XOR (P a power of two,
// r (+) i is rank r XOR i). Each sends P (P - 1) messages of `bytes`, one per ordered pair.
//  algorithm_a (seed 002 Fig. 6): post irecvs from r (+) i for i = 1 .. P-1, then blocking
//    sends to r (+) 1, r (+) 2, ..., r (+) (P-1) back to back, then wait for all receives.
//  algorithm_b (seed 002 Fig. 7): for i = 1 .. P-1: irecv from r (+) i, blocking send to
//    r (+) i, wait for that receive. With rendezvous a send waits for the partner to reach the
//    same phase, so the phases are synchronised.
//  pairwise (MPICH, long messages): for i = 1 .. P-1 exchange with r (+) i (irecv, isend,
//    wait for both).
#include <vector>

#include "collectives/alltoall_algorithms.hpp"
#include "collectives/collective_support.hpp"

namespace netwarp::mpiemul {

namespace collectives {

void post_alltoall_a(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag) {
  const RankId r = b.rank();
  std::vector<std::uint32_t> receives;
  for (RankId i = 1; i < b.size(); ++i)
    receives.push_back(b.post_irecv(static_cast<std::int32_t>(r ^ i), tag, bytes));
  for (RankId i = 1; i < b.size(); ++i) b.post_send(r ^ i, tag, bytes);
  if (!receives.empty()) b.post_waitall(receives);
}

void post_alltoall_b(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag) {
  const RankId r = b.rank();
  for (RankId i = 1; i < b.size(); ++i) {
    const std::uint32_t receive = b.post_irecv(static_cast<std::int32_t>(r ^ i), tag, bytes);
    b.post_send(r ^ i, tag, bytes);
    b.post_waitall(std::span<const std::uint32_t>(&receive, 1));
  }
}

void post_alltoall_pairwise(RankProgramBuilder& b, std::uint64_t bytes, std::int32_t tag) {
  for (RankId i = 1; i < b.size(); ++i)
    post_exchange(b, b.rank() ^ i, bytes, b.rank() ^ i, bytes, tag);
}

}  // namespace collectives

void add_alltoall(RankProgramBuilder& b, const CollectiveAlgorithms& configured,
                  std::uint64_t bytes) {
  const CollectiveAlgorithms a = algorithms_for(configured, CallKind::alltoall, b.size(), bytes);
  collectives::check_alltoall(a.alltoall, b.size());
  const std::int32_t tag = collectives::collective_tag(CallKind::alltoall, 0);
  b.begin_call(CallKind::alltoall, -1, bytes);
  switch (a.alltoall) {
    case AlltoallAlgorithm::algorithm_a:
      collectives::post_alltoall_a(b, bytes, tag);
      break;
    case AlltoallAlgorithm::algorithm_b:
      collectives::post_alltoall_b(b, bytes, tag);
      break;
    case AlltoallAlgorithm::pairwise:
      collectives::post_alltoall_pairwise(b, bytes, tag);
      break;
    case AlltoallAlgorithm::simple_spread:
      collectives::post_alltoall_simple_spread(b, bytes, tag);
      break;
    case AlltoallAlgorithm::spread_2d:
      collectives::post_alltoall_spread_2d(b, bytes, tag);
      break;
    case AlltoallAlgorithm::bruck:
      collectives::post_alltoall_bruck(b, bytes, tag);
      break;
  }
  b.end_call();
}

}  // namespace netwarp::mpiemul
