// Alltoall kernel: the chosen alltoall algorithm `iterations` times, with a compute call of
// `compute` between iterations (none when it is zero). Throws std::invalid_argument when the
// algorithm cannot run on `size` ranks.
#include "kernels/kernel_support.hpp"
#include "netwarp/mpiemul/kernels.hpp"

namespace netwarp::mpiemul {

Program alltoall_program(const AlltoallKernel& k, RankId size, const CollectiveAlgorithms& a) {
  kernels::check_size("alltoall", size, 1);
  CollectiveAlgorithms algorithms = a;
  algorithms.alltoall = k.algorithm;
  return kernels::build_program(size, [&](RankProgramBuilder& b) {
    for (std::uint32_t i = 0; i < k.iterations; ++i) {
      kernels::compute_between(b, i, k.compute);
      add_alltoall(b, algorithms, k.bytes);
    }
  });
}

}  // namespace netwarp::mpiemul
