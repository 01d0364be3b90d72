// Synthetic MPI applications (generators): each builds every rank's actions as a proto::Trace,
// the one source of truth for a scenario kernel (program_from_trace), a SimGrid TIT file
// (write_tit) or a protobuf trace (write_trace). What each rank does, the message sizes, the
// flops and what is (not) NPB: mpi-emul/GENERATORS.md.
//
//   proto::Trace t = gauss_trace({.n = 1024}, 16);  // seed 000's Gaussian elimination
//   write_trace(t, "gauss.tit");
//   Program p = program_from_trace(npb_cg_trace({.size_class = NpbClass::A}, 16), {});
//
// Parameters are checked first; a bad one throws GeneratorError (a std::invalid_argument) whose
// what() is one line naming it: "gauss.n: must be >= ranks (16), got 8".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "netwarp/mpiemul/program.hpp"
#include "netwarp/mpiemul/proto/trace.pb.h"

namespace netwarp::mpiemul {

class GeneratorError : public std::invalid_argument {
 public:
  // app: "gauss", "cg" or "lu"; parameter: "n", "ranks", "class", ...
  GeneratorError(std::string app, std::string parameter, const std::string& message);
  const std::string& app() const { return app_; }
  const std::string& parameter() const { return parameter_; }
  const std::string& message() const { return message_; }

 private:
  std::string app_;
  std::string parameter_;
  std::string message_;
};

// Gaussian elimination with a pipelined ring broadcast of each pivot message (seed 000,
// Sections 4.3-4.4): P >= 2 ranks, matrix order n >= P, row i on rank i % P.
enum class GaussForward : std::uint8_t {
  blocking,  // the original code: MPI_Send
  isend,     // fix (3): isend, wait for the sends at the end of the step, after the compute
};
struct GaussParams {
  std::uint32_t n = 1024;            // matrix order; ranks <= n <= kGaussMaxN
  std::uint64_t fragment_bytes = 0;  // fix (2): pieces of at most this many bytes; 0: none
  GaussForward forward = GaussForward::blocking;
};
inline constexpr std::uint32_t kGaussMaxN = 65536;
// Fragments may not make more messages than this in all (a program's memory grows with them).
inline constexpr std::uint64_t kGaussMaxMessages = std::uint64_t{1} << 24;

// The pivot message of step k (0 <= k <= n - 2): 16 (n - 1 - k) bytes, the pivot row's
// n - 1 - k trailing entries and as many multipliers, in doubles; its longest is 16368 B at
// n = 1024, just under S = 16383 (the paper's program: 16320 B).
std::uint64_t gauss_pivot_bytes(std::uint32_t n, std::uint32_t k);

void check_gauss(const GaussParams& params, RankId ranks);
proto::Trace gauss_trace(const GaussParams& params, RankId ranks);
// An upper bound on the actions gauss_trace writes for all ranks, in closed form (no trace is
// built), for the memory estimate of a run; saturates. Likewise for the NPB programs below.
std::uint64_t gauss_action_bound(const GaussParams& params, RankId ranks);

// NPB's problem classes, as far as CG and LU use them.
enum class NpbClass : std::uint8_t { S, W, A, B };
struct NpbParams {
  NpbClass size_class = NpbClass::S;
  std::uint32_t iterations = 0;  // 0: the class's (CG niter, LU itmax); <= kNpbMaxIterations
};
inline constexpr std::uint32_t kNpbMaxIterations = 100000;

// NPB-CG-like: P a power of two on NPB's nprows x npcols grid.
void check_npb_cg(const NpbParams& params, RankId ranks);
proto::Trace npb_cg_trace(const NpbParams& params, RankId ranks);
std::uint64_t npb_cg_action_bound(const NpbParams& params, RankId ranks);
// NPB-LU-like (SSOR wavefront): P a power of two on NPB's xdim x ydim grid, every rank with
// at least 4 x 4 grid points.
void check_npb_lu(const NpbParams& params, RankId ranks);
proto::Trace npb_lu_trace(const NpbParams& params, RankId ranks);
std::uint64_t npb_lu_action_bound(const NpbParams& params, RankId ranks);

// Names as the command line and scenarios write them; unknown names throw GeneratorError for
// (app, "forward") or (app, "class").
GaussForward gauss_forward(std::string_view name);  // "blocking" | "isend"
std::string_view gauss_forward_name(GaussForward forward);
NpbClass npb_class(std::string_view app, std::string_view name);  // "S" | "W" | "A" | "B"
std::string_view npb_class_name(NpbClass size_class);

// What a trace holds, for summaries and tests: its actions, and the point-to-point messages
// (send, isend, sendrecv) and their bytes. Collectives are not counted as messages.
struct TraceTotals {
  std::uint64_t actions = 0;
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;
};
TraceTotals trace_totals(const proto::Trace& trace);

}  // namespace netwarp::mpiemul
