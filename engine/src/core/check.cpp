// NW_CHECK failure reporting.
#include "netwarp/engine/check.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

namespace netwarp::engine {

void check_failed(const char* file, int line, const char* condition, const std::string& message) {
  const CheckContext& c = check_context();
  std::string where = fmt::format("rank {}", c.rank);
  if (c.in_event && c.key)
    where += fmt::format(", lp {}, event (t={} ps, creator {}, #{})", c.lp, c.key->time.ps(),
                         c.key->creator, c.key->counter);
  std::fprintf(stderr, "internal error: %s:%d: check failed: %s: %s [%s]\n", file, line, condition,
               message.c_str(), where.c_str());
  std::fflush(stderr);
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  // 70 (EX_SOFTWARE): the internal-error status of apps/src/exit_codes.hpp.
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, 70);
  std::_Exit(70);
}

}  // namespace netwarp::engine
