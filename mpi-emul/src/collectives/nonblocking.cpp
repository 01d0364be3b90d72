// Non-blocking collectives: the blocking algorithm's schedule, deferred by the builder to the
// wait, waitall or test that completes it (RankProgramBuilder::begin_nonblocking).
#include "netwarp/mpiemul/collectives.hpp"

namespace netwarp::mpiemul {

std::uint32_t add_ibarrier(RankProgramBuilder& b, const CollectiveAlgorithms& a) {
  b.begin_nonblocking(CallKind::ibarrier);
  add_barrier(b, a);
  return b.end_nonblocking();
}

std::uint32_t add_ibcast(RankProgramBuilder& b, const CollectiveAlgorithms& a, RankId root,
                         std::uint64_t bytes) {
  b.begin_nonblocking(CallKind::ibcast);
  add_bcast(b, a, root, bytes);
  return b.end_nonblocking();
}

std::uint32_t add_iallreduce(RankProgramBuilder& b, const CollectiveAlgorithms& a,
                             std::uint64_t bytes) {
  b.begin_nonblocking(CallKind::iallreduce);
  add_allreduce(b, a, bytes);
  return b.end_nonblocking();
}

std::uint32_t add_ialltoall(RankProgramBuilder& b, const CollectiveAlgorithms& a,
                            std::uint64_t bytes) {
  b.begin_nonblocking(CallKind::ialltoall);
  add_alltoall(b, a, bytes);
  return b.end_nonblocking();
}

}  // namespace netwarp::mpiemul
