// check_algorithms: which algorithms can run on a given number of ranks. Only some alltoall
// algorithms are restricted (algorithm_a, algorithm_b, pairwise: powers of two; spread_2d:
// squares); allgather recursive_doubling falls back to ring instead of failing.
#include <stdexcept>

#include "collectives/collective_support.hpp"
#include "netwarp/mpiemul/collectives.hpp"

namespace netwarp::mpiemul {

void check_algorithms(const CollectiveAlgorithms& algorithms, RankId size) {
  if (size == 0) throw std::invalid_argument("collectives need at least one rank, got 0");
  collectives::check_alltoall(algorithms.alltoall, size);
}

}  // namespace netwarp::mpiemul
