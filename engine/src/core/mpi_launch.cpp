// Whether this process is a rank of an MPI job, from what the launchers put in its environment:
// no MPI library needed to ask.
#include <cstdlib>

#include "netwarp/engine/rank_exchange.hpp"

namespace netwarp::engine {

bool MpiSession::launched_by_mpirun() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(var) != nullptr) return true;
  return false;
}

}  // namespace netwarp::engine
