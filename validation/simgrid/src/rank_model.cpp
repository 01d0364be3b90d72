// RankModel: the CPU loop (as MpiHostLp::advance) and the set-up of a rank.
#include "rank_model.hpp"

#include <stdexcept>

namespace netwarp::simgrid_check {

RankModel::RankModel(RankId rank, const mpiemul::Program& program, const mpiemul::MpiConfig& config,
                     TransferSink& network)
    : rank_(rank),
      program_(program),
      config_(config),
      network_(network),
      op_in_compute_call_(program.ranks[rank].ops.size(), false),
      requests_(program.ranks[rank].request_count),
      credit_in_use_(program.size(), 0) {
  for (const mpiemul::Call& call : program.ranks[rank].calls)
    for (std::uint32_t i = 0; i < call.op_count; ++i)
      op_in_compute_call_.at(call.first_op + i) = call.kind == mpiemul::CallKind::compute;
  const std::uint64_t peers = program.size() > 1 ? program.size() - 1 : 1;
  credit_share_ = config.protocol.unexpected_buffer_bytes / peers;
}

// Inside an MPI call, or past the program's end (finalize keeps progressing).
bool RankModel::in_mpi() const {
  return program_done() || !op_in_compute_call_[op_];
}

RankStep RankModel::next() {
  while (activity_ == Activity::none) {
    if (in_mpi() && !work_.empty()) {
      start_activity(Activity::work, work_.front().cost);
      continue;
    }
    if (program_done()) return {RankStep::Kind::finished, SimTime{}};
    const mpiemul::Op& op = program().ops[op_];
    if (!op_started_) {
      start_own_action(op);
    } else if (op_complete(op)) {
      finish_op();
    } else {
      return {RankStep::Kind::blocked, SimTime{}};
    }
  }
  return {RankStep::Kind::busy, activity_cost_};
}

// Zero-cost activities end at once, as in the packet simulation.
void RankModel::start_activity(Activity a, SimTime cost) {
  activity_ = a;
  activity_cost_ = cost;
  if (cost.ps() == 0) activity_done();
}

void RankModel::activity_done() {
  const Activity a = activity_;
  activity_ = Activity::none;
  switch (a) {
    case Activity::compute:
      finish_op();
      return;
    case Activity::own:
      own_action_done(program().ops[op_]);
      return;
    case Activity::work: {
      const WorkItem w = work_.front();
      work_.pop_front();
      work_done(w);
      return;
    }
    case Activity::none:
      throw std::logic_error("rank model: an activity ended while none ran");
  }
}

void RankModel::finish_op() {
  ++op_;
  op_started_ = false;
}

}  // namespace netwarp::simgrid_check
