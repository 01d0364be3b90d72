// NW_CHECK failure reporting, and how the job ends (job_abort.hpp).
#include "netwarp/engine/check.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "netwarp/engine/job_abort.hpp"

namespace netwarp::engine {
namespace {

std::atomic<JobAbort> g_job_abort{nullptr};

}  // namespace

void set_job_abort(JobAbort abort) {
  g_job_abort.store(abort);
}

void abort_job(int status) {
  if (const JobAbort abort = g_job_abort.load()) abort(status);
  std::_Exit(status);
}

void check_failed(const char* file, int line, const char* condition, const std::string& message) {
  const CheckContext& c = check_context();
  std::string where = fmt::format("rank {}", c.rank);
  if (c.in_event && c.key)
    where += fmt::format(", lp {}, event (t={} ps, creator {}, #{})", c.lp, c.key->time.ps(),
                         c.key->creator, c.key->counter);
  std::fprintf(stderr, "internal error: %s:%d: check failed: %s: %s [%s]\n", file, line, condition,
               message.c_str(), where.c_str());
  std::fflush(stderr);
  // 70 (EX_SOFTWARE): the internal-error status of apps/src/exit_codes.hpp.
  abort_job(70);
}

}  // namespace netwarp::engine
