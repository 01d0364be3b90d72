// Trace replay inputs: reading SimGrid time-independent traces (TIT) and netwarp's own trace
// format (mpi-emul/proto/trace.proto), writing both, and turning a trace into a Program.
//
//   proto::Trace trace = read_trace("lu.B.8/");  // a TIT directory, a .pb or a .pbtxt
//   Program program = program_from_trace(trace, {.flops_per_second = 2e9});
//
// TIT input forms (read_tit):
//   - one file holding every rank's lines; each line starts with its rank, and the ranks are
//     0 .. the highest rank that has a line (every one of them must have a line);
//   - a SimGrid replay list (what `smpirun -replay LIST` takes): one trace path per line,
//     relative to the list's directory; one path is a file shared by all ranks, N paths are
//     the files of ranks 0 .. N-1 in order. A file is a list when its first line does not
//     start with a number;
//   - a directory with one file per rank: a file's rank is the number its name ends with,
//     before or after removing one extension ("rank3.tit", "actions12.txt", "trace.3"); files
//     whose names start with '.' are skipped; ranks 0 .. the highest must all have a file.
// In a rank's own file every line must still start with that rank, as SimGrid requires.
//
// Every mistake in the input throws TraceError; what() is one line, "FILE:LINE: message"
// ("FILE: message" when it concerns a whole file or directory).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "netwarp/mpiemul/collectives.hpp"
#include "netwarp/mpiemul/program.hpp"
#include "netwarp/mpiemul/proto/trace.pb.h"
#include "netwarp/netmodels/input_error.hpp"

namespace netwarp::mpiemul {

class TraceError : public netmodels::InputError {
 public:
  // line 0: the error concerns the whole file (or an action whose line is unknown); column 0:
  // unknown. Lines and columns count from 1.
  TraceError(std::string file, std::uint32_t line, const std::string& message,
             std::uint32_t column = 0);
  const char* what() const noexcept override { return text_.c_str(); }
  const std::string& file() const { return file_; }
  std::uint32_t line() const { return line_; }

 private:
  std::string file_;
  std::uint32_t line_;
  std::uint32_t column_;
  std::string text_;
};

// A SimGrid time-independent trace in any of the forms above.
proto::Trace read_tit(const std::filesystem::path& path);

// The MPI ranks of an OTF2 archive (Score-P's traces), named by its anchor file
// (DIR/traces.otf2); mpi-emul/OTF2.md says how records become actions. The time between MPI
// calls becomes sleep actions. Unsupported records and communicators throw TraceError naming
// the archive, the location and the event.
proto::Trace read_otf2(const std::filesystem::path& anchor);

// By name: ".pb" binary protobuf, ".pbtxt" or ".txtpb" protobuf text format, ".otf2" an OTF2
// archive's anchor file, anything else (a directory too) TIT.
proto::Trace read_trace(const std::filesystem::path& path);

// Where each action of a protobuf text trace was written. The actions' own `line` and
// `source_file` keep pointing at the TIT they were converted from (they survive round trips);
// with this table, errors found in an edited .pbtxt name the .pbtxt: "FILE.pbtxt:LINE:COL".
struct TraceLocations {
  struct Position {
    std::uint32_t line = 0;    // from 1
    std::uint32_t column = 0;  // from 1
  };
  std::string file;
  std::vector<std::vector<Position>> actions;  // [rank][action index]
};

// As read_trace; `locations` is filled for a .pbtxt/.txtpb file and left empty otherwise.
proto::Trace read_trace(const std::filesystem::path& path, TraceLocations& locations);

// One TIT file holding every rank's lines, in the grammar read_tit reads (sizes in bytes,
// MPI_BYTE), so read_tit(path) gives the same actions back. Throws TraceError for actions TIT
// cannot express (sendrecv; list fields without one entry per rank), a trace without ranks,
// or when the file cannot be written.
void write_tit(const proto::Trace& trace, const std::filesystem::path& path);

// By name: ".pb" binary, ".pbtxt" or ".txtpb" text, ".tit" or ".txt" TIT (write_tit). Throws
// TraceError for any other name or when the file cannot be written.
void write_trace(const proto::Trace& trace, const std::filesystem::path& path);

struct TraceProgramOptions {
  CollectiveAlgorithms algorithms;
  double flops_per_second = 1e9;  // turns compute flops into time; > 0
  // Multiplies every compute and sleep time (an OTF2 trace's measured time between calls);
  // finite, >= 0.
  double compute_scale = 1.0;
  // Messages must be smaller (room for an envelope within a transfer's 2^63 - 1 bytes); 0: no
  // limit. A pair's messages together may carry any number of bytes.
  std::uint64_t message_limit_bytes = 0;
  // ns per byte of a message at worst (the hosts' CPU costs and, from a scenario, the slowest
  // link's serialisation): a rank's compute, sleeps and message costs must add up to at most
  // netmodels::kTimeBudgetPs.
  double host_ns_per_byte = 0;
  // Errors name these positions, when they are known, instead of the actions' `line`.
  const TraceLocations* locations = nullptr;
};

// Expands every rank's actions with RankProgramBuilder. Waits and tests name their requests
// as described in trace.proto. As SimGrid's replay does, a test matching no pending request and
// a waitall with nothing pending add nothing, and requests still pending after a rank's last
// action are waited for by one final waitall. Sleeps are compute operations (the rank makes
// no MPI progress either way); a reduction's flops follow its collective as a compute call.
// Throws TraceError for actions that cannot be replayed (a wait with no matching request, a
// peer out of range, ranks whose collective calls disagree, an algorithm that cannot run on
// the rank count), std::invalid_argument for bad options.
Program program_from_trace(const proto::Trace& trace, const TraceProgramOptions& options);

// flops / flops_per_second in integer picoseconds, rounded to nearest with ties away from zero;
// exact when both are whole numbers below 2^53. Throws std::invalid_argument when the result
// does not fit in SimTime.
SimTime compute_time(double flops, double flops_per_second);

}  // namespace netwarp::mpiemul
