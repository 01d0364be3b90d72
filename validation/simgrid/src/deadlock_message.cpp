// deadlock_message: "deadlock: rank 0 blocked in recv (op 1 of 2: recv from 1), ...".
#include "deadlock_message.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

namespace netwarp::simgrid_check {

namespace {

// Only this many stuck ranks are named.
constexpr std::size_t kMaxListed = 8;

std::string describe_op(const mpiemul::Op& op) {
  switch (op.kind) {
    case mpiemul::OpKind::send:
      return fmt::format("send to {}", op.peer);
    case mpiemul::OpKind::recv:
      return op.peer == mpiemul::kAnySource ? "recv from any"
                                            : fmt::format("recv from {}", op.peer);
    case mpiemul::OpKind::wait:
      return fmt::format("wait on {} requests", op.count);
    default:
      return "compute";
  }
}

std::string describe(const RankOutcome& r, const mpiemul::RankProgram& program) {
  std::string call = "?";
  for (const mpiemul::Call& c : program.calls)
    if (r.stuck_op >= c.first_op && r.stuck_op < c.first_op + c.op_count)
      call = std::string(mpiemul::call_kind_name(c.kind));
  return fmt::format("rank {} blocked in {} (op {} of {}: {})", r.rank, call, r.stuck_op,
                     program.ops.size(), describe_op(program.ops.at(r.stuck_op)));
}

}  // namespace

std::string deadlock_message(const SimgridRunResult& result, const mpiemul::Program& program) {
  std::vector<std::string> stuck;
  std::size_t count = 0;
  for (const RankOutcome& r : result.ranks) {
    if (r.end_ps >= 0) continue;
    if (++count <= kMaxListed) stuck.push_back(describe(r, program.ranks[r.rank]));
  }
  std::string more = count > kMaxListed ? fmt::format(", {} more", count - kMaxListed) : "";
  return fmt::format("deadlock: {} of {} ranks never finished: {}{}", count, result.ranks.size(),
                     fmt::join(stuck, ", "), more);
}

}  // namespace netwarp::simgrid_check
