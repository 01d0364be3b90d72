// Call by call: the model's predicted calls (replay.hpp's CallPrediction) beside the packet
// run's (mpiemul::CallRecord), and which call kinds and call sources carry the error.
//
// A call's error is its predicted duration minus its simulated duration. Durations, not end
// times: one late call shifts every later end, so end-time errors would blame the calls after
// the one that is wrong.
//
// A call's source is where the user wrote it: "FILE:LINE" of the trace action, or for a
// built-in kernel "PROGRAM call N" (the kernel's N-th call, the same on every rank of an SPMD
// kernel).
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "netwarp/mpiemul/mpi_results.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "netwarp/validation/replay.hpp"

namespace netwarp::validation {

std::string call_source(const mpiemul::Program& program, const std::string& program_name,
                        mpiemul::RankId rank, std::uint32_t call);

// predict's calls CSV: rank,call,kind,source,start_ps,end_ps,duration_ps, then the split
// (overhead_ps,send_wait_ps,recv_wait_ps,sync_ps,compute_ps). Only the header when the model
// gives no calls.
void write_predicted_calls_csv(const Prediction& prediction, const mpiemul::Program& program,
                               const std::string& program_name, std::ostream& out);

// One model's predicted calls, by name.
struct ModelCalls {
  std::string model;
  const Prediction* prediction = nullptr;  // calls may be empty (no per-call prediction)
};

// Sum of |error| over the calls of one kind or one source.
struct CallErrorRow {
  std::string key;
  std::uint64_t calls = 0;
  double abs_error_ns = 0;
  double share = 0;  // of the model's total |error|, 0..1
};

// One model's error, ranked: largest sum of |error| first.
struct CallErrorTable {
  std::string model;
  double total_abs_error_ns = 0;
  std::vector<CallErrorRow> kinds;
  std::vector<CallErrorRow> sources;
};

// Writes calls_compare.csv (one row per packet call: rank,call,kind,source, the simulated
// start, end and split, then per model its start, end, split and error; empty cells for a
// model without per-call predictions) and returns the error table of every model that has
// calls. `packet` must be sorted (MpiResults::sort).
std::vector<CallErrorTable> compare_calls(const mpiemul::MpiResults& packet,
                                          const mpiemul::Program& program,
                                          const std::string& program_name,
                                          const std::vector<ModelCalls>& models, std::ostream& csv);

// How much of the runs the compared timeline shows; the default is everything.
struct TimelineLimit {
  mpiemul::RankId ranks = std::numeric_limits<mpiemul::RankId>::max();  // tracks of ranks < this
  std::uint32_t calls_per_rank = std::numeric_limits<std::uint32_t>::max();  // each rank's first
  // validate --timelines summary: 16 ranks and their first 4096 calls, at most about 65,000
  // slices per source, which the Perfetto UI opens at once (a full timeline of a long trace on
  // many ranks runs to hundreds of MB).
  static TimelineLimit summary() { return {16, 4096}; }
};

// A Chrome/Perfetto trace with the packet run (process "packet", pid 0) and each model with
// per-call predictions (process "<model>", pid 1, 2, ...) side by side: one track per rank, one
// slice per call with its breakdown, within `limit`. Returns what the limit left out ("ranks 0-15
// of 64 ..."), empty when nothing.
std::string write_compare_timeline(const mpiemul::MpiResults& packet,
                                   const mpiemul::Program& program,
                                   const std::vector<ModelCalls>& models, std::ostream& out,
                                   const TimelineLimit& limit = {});

// report.md's section: per model, the kinds and the top `max_sources` sources.
std::string call_error_markdown(const std::vector<CallErrorTable>& tables,
                                std::size_t max_sources = 10);

}  // namespace netwarp::validation
