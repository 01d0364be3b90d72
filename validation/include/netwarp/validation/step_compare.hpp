// Step by step: inside a collective (or any call made of several messages, as an all-to-all
// kernel's), which step carries a model's error. A rank's steps in a call are the messages it
// receives there, in the order it posted their receives; step i takes from the match of message
// i - 1 (the call's start for the first) to the match of message i, as the packet run's
// MessageRecord::matched_ps and the replay's MessagePrediction::matched_ns count it. A step's
// error is its predicted duration minus its simulated one (durations, as call_compare.hpp's,
// so one slow round is not blamed on every later one).
//
// Steps are named by their number in the call ("step 3"), and for a recursive-doubling
// allreduce by the round the collective's tag gives ("round 2"); sums go per (call kind, step).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "netwarp/mpiemul/mpi_results.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "netwarp/validation/call_compare.hpp"

namespace netwarp::validation {

// Sum of |error| over the messages of one step of one call kind.
struct StepErrorRow {
  std::string kind;  // "allreduce"
  std::string step;  // "round 2", "step 5"
  std::uint64_t messages = 0;
  double abs_error_ns = 0;
  double share = 0;  // of the model's total step |error|, 0..1
};

// One model's step error, largest first.
struct StepErrorTable {
  std::string model;
  double total_abs_error_ns = 0;
  std::vector<StepErrorRow> steps;
};

// Writes steps_compare.csv (rank,call,kind,step,src,bytes,packet_matched_ps,packet_step_ps,
// then per model <model>_matched_ps,<model>_step_ps,<model>_error_ps; empty cells for a model
// without per-message predictions), one row per message received inside a collective, and
// returns each model's table. `packet` must be sorted (MpiResults::sort).
std::vector<StepErrorTable> compare_steps(const mpiemul::MpiResults& packet,
                                          const mpiemul::Program& program,
                                          const std::vector<ModelCalls>& models, std::ostream& csv);

// report.md's section: per model, the `max_rows` steps with the largest error.
std::string step_error_markdown(const std::vector<StepErrorTable>& tables,
                                std::size_t max_rows = 8);

}  // namespace netwarp::validation
