// program_from_trace: checks the options and the ranks' collective calls, then expands every
// rank's actions (RankExpander). Algorithms that cannot run on the trace's rank count are
// reported at the first collective that needs them.
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "collective_plan.hpp"
#include "netwarp/mpiemul/trace.hpp"
#include "rank_expander.hpp"

namespace netwarp::mpiemul {

Program program_from_trace(const proto::Trace& trace, const TraceProgramOptions& options) {
  if (!std::isfinite(options.flops_per_second) || options.flops_per_second <= 0)
    throw std::invalid_argument(fmt::format("flops_per_second must be a finite number > 0, got {}",
                                            options.flops_per_second));
  if (!std::isfinite(options.compute_scale) || options.compute_scale < 0)
    throw std::invalid_argument(
        fmt::format("compute_scale must be a finite number >= 0, got {}", options.compute_scale));
  if (trace.ranks_size() == 0) throw TraceError("", 0, "the trace has no ranks");
  const auto size = static_cast<RankId>(trace.ranks_size());
  CommPlan comms(trace, options.locations);
  const CollectivePlan plan(trace, comms, options.locations);
  Program program;
  program.ranks.reserve(size);
  for (RankId r = 0; r < size; ++r)
    program.ranks.push_back(RankExpander(trace, r, comms, plan, options).expand());
  program.communicators = comms.take_communicators();
  return program;
}

}  // namespace netwarp::mpiemul
