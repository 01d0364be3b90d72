// Collective kernel: one collective `iterations` times with the configured algorithms, with a
// compute call of `compute` between iterations (none when it is zero). `root` is used by the
// rooted collectives (bcast, reduce, gather, scatter).
#include "kernels/kernel_support.hpp"
#include "netwarp/mpiemul/kernels.hpp"

namespace netwarp::mpiemul {

namespace {
void add_collective(RankProgramBuilder& b, const CollectiveKernel& k,
                    const CollectiveAlgorithms& a) {
  switch (k.kind) {
    case CollectiveKind::bcast:
      return add_bcast(b, a, k.root, k.bytes);
    case CollectiveKind::reduce:
      return add_reduce(b, a, k.root, k.bytes);
    case CollectiveKind::allreduce:
      return add_allreduce(b, a, k.bytes);
    case CollectiveKind::barrier:
      return add_barrier(b, a);
    case CollectiveKind::allgather:
      return add_allgather(b, a, k.bytes);
    case CollectiveKind::gather:
      return add_gather(b, a, k.root, k.bytes);
    case CollectiveKind::scatter:
      return add_scatter(b, a, k.root, k.bytes);
  }
}
}  // namespace

Program collective_program(const CollectiveKernel& k, RankId size, const CollectiveAlgorithms& a) {
  kernels::check_size("collective", size, 1);
  return kernels::build_program(size, [&](RankProgramBuilder& b) {
    for (std::uint32_t i = 0; i < k.iterations; ++i) {
      kernels::compute_between(b, i, k.compute);
      add_collective(b, k, a);
    }
  });
}

}  // namespace netwarp::mpiemul
